import type { ReactNode } from 'react';
import styles from './ui.module.css';

/**
 * The frame of the account pages (Invite friends, Developers, Get credits and the page after paying): a centred
 * column with the page's title, an optional lead under it and optional actions beside them (under them on a phone),
 * then the page's panels. Narrow is the column of a page with little in it (860px instead of 960px).
 */
export function AccountPage({
  title,
  lead,
  actions,
  narrow = false,
  className,
  children,
}: {
  title: ReactNode;
  lead?: ReactNode;
  actions?: ReactNode;
  narrow?: boolean;
  /** One more class on the column, for a page's own touch to the frame. */
  className?: string;
  children: ReactNode;
}) {
  const frame = narrow ? styles.accountPageNarrow : styles.accountPage;
  return (
    <div className={className ? `${frame} ${className}` : frame}>
      <header className={styles.accountIntro}>
        <div>
          <h1 className={styles.accountTitle}>{title}</h1>
          {lead && <p className={styles.accountLead}>{lead}</p>}
        </div>
        {actions}
      </header>
      {children}
    </div>
  );
}
