import type { GenerationTool } from '@reelsmith/contract';
import { Button, Empty } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNearBottom } from '../../shared/paging/nearBottom';
import { usePager } from '../../shared/paging/usePager';
import { Busy } from '../../shared/ui/Busy';
import styles from './generation.module.css';
import { HistoryRecord } from './HistoryRecord';
import { generationHistoryPager } from './history';

/**
 * The tools whose tasks one history lists, each with the label its records carry (null: none, for a history of
 * one tool). A page of several modes lists them all, so switching mode never hides a result just made.
 */
export type HistoryScope = Partial<Record<GenerationTool, string | null>>;

/**
 * The generation history beside a tool (spec "Screens and routes" screen 4): newest first, the next page loaded as the list is
 * scrolled near its end, as the credit lists do. Mounted afresh after each submit, so the new task leads; it is
 * brought into view (`newTaskId`).
 */
export function GenerationHistory({ scope, newTaskId }: { scope: HistoryScope; newTaskId: string | null }) {
  const { t } = useTranslation(['generation', 'shared']);
  const [{ items, loading, finished, failed }, pager] = usePager(() => generationHistoryPager(Object.keys(scope) as GenerationTool[]));
  const loadMore = useCallback(() => pager.loadMore(), [pager]);
  const onScroll = useNearBottom(loadMore);

  return (
    <section className={styles.history} aria-label={t('history.title')} onScroll={onScroll}>
      <h2 className={styles.historyTitle}>{t('history.title')}</h2>
      <ol className={styles.records}>
        {items.map((record) => (
          <HistoryRecord key={record.taskId} record={record} label={scope[record.tool] ?? null} isNew={record.taskId === newTaskId} />
        ))}
      </ol>
      {loading && <Busy compact />}
      {failed && (
        <div className={styles.historyStatus} role="alert">
          {t('history.failed')}
          <Button size="small" onClick={loadMore}>
            {t('shared:messages.retry')}
          </Button>
        </div>
      )}
      {finished && items.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('history.empty')} />}
      {finished && items.length > 0 && <p className={styles.historyStatus}>{t('history.end')}</p>}
      {!loading && !failed && !finished && (
        <Button type="link" onClick={loadMore}>
          {t('history.more')}
        </Button>
      )}
    </section>
  );
}
