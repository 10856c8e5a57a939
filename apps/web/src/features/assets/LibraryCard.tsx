import type { ReactNode } from 'react';
import styles from './assets.module.css';

interface LibraryCardProps {
  /** The card's accessible name and heading. */
  name: string;
  /** The picture area. */
  thumb: ReactNode;
  /** A word over the picture's corner (a stand-in's result says so). */
  tag?: ReactNode;
  meta: ReactNode;
  /** The full text of the meta line, for when it is cut off. */
  metaTitle?: string;
  actions?: ReactNode;
  /** Work on it is still going on (an upload, an import). */
  busy?: boolean;
}

/** The frame every card of the library shares: picture, name, one line of details, actions. */
export function LibraryCard({ name, thumb, tag, meta, metaTitle, actions, busy }: LibraryCardProps) {
  return (
    <article className={styles.card} aria-label={name} aria-busy={busy || undefined}>
      {thumb}
      {tag}
      <div className={styles.body}>
        <h3 className={styles.name} title={name}>
          {name}
        </h3>
        {/* A div: the meta line of a card being imported holds a spinner, which is a div. */}
        <div className={styles.meta} title={metaTitle}>
          {meta}
        </div>
        {actions && <div className={styles.actions}>{actions}</div>}
      </div>
    </article>
  );
}
