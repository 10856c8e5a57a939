import { Drawer } from 'antd';
import { useTranslation } from 'react-i18next';
import { LogoLink } from '../../shared/ui/LogoLink';
import { Sidebar } from './Sidebar';
import styles from './shell.module.css';

/** The full sidebar in a drawer, for the narrow-screen header's menu button. */
export function NavDrawerPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shell');
  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="left"
      size={280}
      title={<LogoLink />}
      closable={{ 'aria-label': t('nav.close') }}
      classNames={{ body: styles.drawerBody }}
    >
      <Sidebar variant="drawer" />
    </Drawer>
  );
}
