import { BgColorsOutlined, GiftOutlined, LogoutOutlined } from '@ant-design/icons';
import { Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { lazyNamed } from '../../shared/lazyNamed';
import { PATHS } from '../../shared/paths';
import { rememberRedirect, signOut, useUser } from '../auth';
import styles from './shell.module.css';

// The panel's colour picker, form and picture picker come with the first opening (decision "First-load bundle split").
const BrandKitPanel = lazyNamed(() => import('../brand-kit'), 'BrandKitPanel');

/**
 * The avatar (or the username's first letter) with a sign-out item, and for an active user the brand kit panel
 * and the way to the invite-friends page, which the sidebar does not list; a sign-in button when signed out.
 */
export function UserMenu() {
  const { t } = useTranslation('shell');
  const user = useUser();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const [brandKitOpen, setBrandKitOpen] = useState(false);
  // Mounted from the first opening on, so closing keeps the drawer's animation.
  const [brandKitLoaded, setBrandKitLoaded] = useState(false);

  if (!user) {
    const signIn = () => {
      // Like the guard, come back here after signing in.
      rememberRedirect(pathname + search);
      navigate(PATHS.login);
    };
    return (
      <Button type="primary" onClick={signIn}>
        {t('header.signIn')}
      </Button>
    );
  }
  const items: MenuProps['items'] = [
    ...(user.status === 'ACTIVE'
      ? [
          { key: 'brandKit', icon: <BgColorsOutlined />, label: t('header.brandKit') },
          { key: 'invite', icon: <GiftOutlined />, label: t('header.invite') },
          { type: 'divider' as const },
        ]
      : []),
    { key: 'signOut', icon: <LogoutOutlined />, label: t('header.signOut') },
  ];
  const choose = ({ key }: { key: string }) => {
    if (key === 'brandKit') {
      setBrandKitLoaded(true);
      setBrandKitOpen(true);
    } else if (key === 'invite') navigate(PATHS.invite);
    // A failed sign-out has been shown by the API client; the user stays signed in.
    else signOut().catch(() => {});
  };
  return (
    <>
      <Dropdown trigger={['click']} menu={{ items, onClick: choose }}>
        <button type="button" className={styles.avatarButton} aria-label={t('header.userMenu')} title={user.email}>
          {user.avatarUrl ? (
            <Avatar src={user.avatarUrl} alt={user.username} />
          ) : (
            <Avatar className={styles.avatarLetter}>{user.username.charAt(0).toUpperCase()}</Avatar>
          )}
        </button>
      </Dropdown>
      {brandKitLoaded && (
        <Suspense>
          <BrandKitPanel open={brandKitOpen} onClose={() => setBrandKitOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
