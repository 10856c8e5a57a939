import type { ReactNode } from 'react';
import { Header } from '../../features/shell/Header';
import { Sidebar, type SidebarVariant } from '../../features/shell/Sidebar';
import type { ToolModule } from '../../features/shell/toolModule';
import type { LayoutKind } from '../routes';
import styles from './Layout.module.css';

const SIDEBAR: Record<Exclude<LayoutKind, 'none'>, SidebarVariant | null> = {
  header: null,
  'header-no-sidebar': null,
  'header+sidebar': 'full',
  'mini-sidebar': 'mini',
};

/** The chrome a route asks for; `none` leaves the whole screen to the page. */
export function Layout({ kind, toolModule, children }: { kind: LayoutKind; toolModule?: ToolModule; children: ReactNode }) {
  if (kind === 'none') return children;
  const sidebar = SIDEBAR[kind];
  return (
    <div className={styles.shell}>
      <Header toolModule={toolModule} />
      <div className={styles.body}>
        {sidebar && <Sidebar variant={sidebar} />}
        <main className={styles.main}>{children}</main>
      </div>
    </div>
  );
}
