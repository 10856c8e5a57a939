import { LogoLink } from '../../shared/ui/LogoLink';
import { useUser } from '../auth';
import { CreditCard } from '../credits';
import { BackButton } from './BackButton';
import { LanguageSwitch } from './LanguageSwitch';
import { ProjectName } from './ProjectName';
import styles from './shell.module.css';
import type { ToolModule } from './toolModule';
import { UserMenu } from './UserMenu';

/** The shared header (spec "Screens and routes"): logo, or back + project name on tool pages; credits, language and account on the right. */
export function Header({ toolModule }: { toolModule?: ToolModule }) {
  const user = useUser();
  return (
    <header className={styles.header}>
      <div className={styles.headerStart}>
        {toolModule ? (
          <>
            <BackButton toolModule={toolModule} />
            <ProjectName toolModule={toolModule} />
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
