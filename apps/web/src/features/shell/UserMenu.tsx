import { ApiOutlined, BgColorsOutlined, GiftOutlined, LogoutOutlined } from '@ant-design/icons';
import { Button, type MenuProps } from 'antd';
import { type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { lazyNamed } from '../../shared/lazyNamed';
import { PATHS } from '../../shared/paths';
import { rememberRedirect, signOut, useUser } from '../auth';
import { MenuDropdown } from './MenuDropdown';
import styles from './shell.module.css';

// The panel's colour picker, form and picture picker come with the first opening (decision "First-load bundle split").
const BrandKitPanel = lazyNamed(() => import('../brand-kit'), 'BrandKitPanel');

/** One item of the account menu: it goes to `route`, or does `onClick`; `separated` draws a line above it. */
interface UserMenuItem {
  key: string;
  icon: ReactNode;
  label: string;
  route?: string;
  onClick?: () => void;
  separated?: boolean;
}

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
  const active = user.status === 'ACTIVE';
  const items: UserMenuItem[] = [
    ...(active
      ? [
          {
            key: 'brandKit',
            icon: <BgColorsOutlined />,
            label: t('header.brandKit'),
            onClick: () => {
              setBrandKitLoaded(true);
              setBrandKitOpen(true);
            },
          },
          { key: 'invite', icon: <GiftOutlined />, label: t('header.invite'), route: PATHS.invite },
          // API keys and webhooks (decisions "API keys" and "Webhooks"): for the few who script Reelsmith, so in the
          // account menu, not the sidebar.
          { key: 'developers', icon: <ApiOutlined />, label: t('header.developers'), route: PATHS.developers },
        ]
      : []),
    // A failed sign-out has been shown by the API client; the user stays signed in.
    {
      key: 'signOut',
      icon: <LogoutOutlined />,
      label: t('header.signOut'),
      onClick: () => void signOut().catch(() => {}),
      separated: active,
    },
  ];
  const menu: MenuProps = {
    items: items.flatMap(({ key, icon, label, separated }) => [
      ...(separated ? [{ type: 'divider' as const, key: `${key}-line` }] : []),
      { key, icon, label },
    ]),
    onClick: ({ key }) => {
      const item = items.find((entry) => entry.key === key);
      if (item?.route) navigate(item.route);
      else item?.onClick?.();
    },
  };
  return (
    <>
      <MenuDropdown menu={menu}>
        <button type="button" className={styles.avatarButton} aria-label={t('header.userMenu')} title={user.email}>
          {/* antd's Avatar, drawn by the app's CSS: the first visit does not download it (decision "First-load bundle split"). */}
          <span className={user.avatarUrl ? styles.avatar : `${styles.avatar} ${styles.avatarLetter}`}>
            {user.avatarUrl ? <img src={user.avatarUrl} alt={user.username} /> : user.username.charAt(0).toUpperCase()}
          </span>
        </button>
      </MenuDropdown>
      {brandKitLoaded && (
        <Suspense>
          <BrandKitPanel open={brandKitOpen} onClose={() => setBrandKitOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
