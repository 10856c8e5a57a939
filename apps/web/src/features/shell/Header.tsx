import { Suspense } from 'react';
import { lazyNamed } from '../../shared/lazyNamed';
import { LogoLink } from '../../shared/ui/LogoLink';
import { useUser } from '../auth';
import { CreditCard } from '../credits';
import { BackButton } from './BackButton';
import { LanguageSwitch } from './LanguageSwitch';
import { NavDrawer } from './NavDrawer';
import styles from './shell.module.css';
import type { ToolModule } from './toolModule';
import { UserMenu } from './UserMenu';

// Shown on tool pages only, and brings antd's input: loaded with them, not with every first page (decision "First-load bundle split").
const ProjectName = lazyNamed(() => import('./ProjectName'), 'ProjectName');

/**
 * The shared header (spec "Screens and routes"): logo, or back + project name on tool pages; credits, language and
 * account on the right. `navigation` puts the sidebar behind a menu button, for narrow screens (decision "Phone layout").
 */
export function Header({ toolModule, navigation = false }: { toolModule?: ToolModule; navigation?: boolean }) {
  const user = useUser();
  return (
    <header className={styles.header}>
      <div className={styles.headerStart}>
        {navigation && <NavDrawer />}
        {toolModule ? (
          <>
            <BackButton toolModule={toolModule} />
            <Suspense>
              <ProjectName toolModule={toolModule} />
            </Suspense>
          </>
        ) : (
          <LogoLink />
        )}
      </div>
      <div className={styles.headerEnd}>
        {user?.status === 'ACTIVE' && <CreditCard />}
        <LanguageSwitch />
        <UserMenu />
      </div>
    </header>
  );
}
