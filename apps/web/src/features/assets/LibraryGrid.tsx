import { Button } from 'antd';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { PagerState } from '../../shared/paging/pager';
import { Busy } from '../../shared/ui/Busy';
import { RetryAlert } from '../../shared/ui/RetryAlert';
import styles from './assets.module.css';

interface LibraryGridProps<T> {
  /** Names the grid for screen readers. */
  label: string;
  state: PagerState<T>;
  loadMore: () => void;
  keyOf: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  /** Cards shown before the list: work in progress on this page (uploads, imports). */
  leading?: ReactNode[];
  /** Shown when there is nothing at all. */
  empty: ReactNode;
  /** The title of the alert when the list cannot be loaded. */
  failedTitle: string;
}

/**
 * One tab's cards with the states of an infinite list: loading, empty, failed with Retry, and more on the
 * way as the end of the grid scrolls into view (or its Load more button is pressed).
 */
export function LibraryGrid<T>({ label, state, loadMore, keyOf, renderItem, leading = [], empty, failedTitle }: LibraryGridProps<T>) {
  const { items, loading, finished, failed } = state;
  const nothing = items.length === 0 && leading.length === 0;

  if (nothing && failed) return <RetryAlert title={failedTitle} onRetry={loadMore} />;
  if (nothing && finished) return empty;

  let more: ReactNode = null;
  if (loading) more = <Busy compact={items.length > 0} />;
  else if (failed) more = <RetryAlert title={failedTitle} onRetry={loadMore} />;
  else if (!finished) more = <LoadMore onLoad={loadMore} />;

  return (
    <>
      <ul className={styles.grid} aria-label={label}>
        {leading}
        {items.map((item) => (
          <li key={keyOf(item)}>{renderItem(item)}</li>
        ))}
      </ul>
      {more}
    </>
  );
}

/** Loads the next page when it scrolls into view; the button serves keyboards and browsers without IntersectionObserver. */
function LoadMore({ onLoad }: { onLoad: () => void }) {
  const { t } = useTranslation('assets');
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) onLoad();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [onLoad]);
  return (
    <div ref={ref} className={styles.status}>
      <Button onClick={onLoad}>{t('loadMore')}</Button>
    </div>
  );
}
