import type { ReactNode } from 'react';
import { Header } from '../../features/shell/Header';
import { Sidebar, type SidebarVariant } from '../../features/shell/Sidebar';
import type { ToolModule } from '../../features/shell/toolModule';
import { useNarrowScreen } from '../../shared/ui/useNarrowScreen';
import type { LayoutKind } from '../routes';
import styles from './Layout.module.css';

const SIDEBAR: Record<Exclude<LayoutKind, 'none'>, SidebarVariant | null> = {
  header: null,
  'header-no-sidebar': null,
  'header+sidebar': 'full',
  'mini-sidebar': 'mini',
};

/**
 * The chrome a route asks for; `none` leaves the whole screen to the page. On a narrow screen a page's sidebar
 * becomes the header's navigation drawer (decision "Phone layout").
 */
export function Layout({ kind, toolModule, children }: { kind: LayoutKind; toolModule?: ToolModule; children: ReactNode }) {
  const narrow = useNarrowScreen();
  if (kind === 'none') return children;
  const sidebar = SIDEBAR[kind];
  return (
    <div className={styles.shell}>
      <Header toolModule={toolModule} navigation={narrow && sidebar !== null} />
      <div className={styles.body}>
        {sidebar && !narrow && <Sidebar variant={sidebar} />}
        <main className={styles.main}>{children}</main>
      </div>
    </div>
  );
}
