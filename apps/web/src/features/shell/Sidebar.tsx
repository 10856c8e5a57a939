import {
  FolderOpenOutlined,
  HomeOutlined,
  LinkOutlined,
  PictureOutlined,
  ScissorOutlined,
  UserOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { Menu, type MenuProps, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { PATHS } from '../../shared/paths';
import styles from './shell.module.css';

/** `drawer` is the full navigation inside the phone layout's drawer (decision "Phone layout"). */
export type SidebarVariant = 'full' | 'mini' | 'drawer';

interface NavEntry {
  key: string;
  icon: ReactNode;
  to?: string;
  /** The first two path segments of the pages that belong to this entry. */
  section?: string;
}

/** Spec "Screens and routes" sidebar: Home; AI creation (with Avatar not yet available); Space. Labels are `shell:nav.<key>`. */
const NAV: { group?: string; entries: NavEntry[] }[] = [
  { entries: [{ key: 'home', icon: <HomeOutlined />, to: PATHS.home }] },
  {
    group: 'aiCreation',
    entries: [
      { key: 'linkToVideo', icon: <LinkOutlined />, to: PATHS.linkToVideo, section: '/tools/link-to-video' },
      { key: 'video', icon: <VideoCameraOutlined />, to: PATHS.textToVideo, section: '/tools/video' },
      { key: 'image', icon: <PictureOutlined />, to: PATHS.textToImage, section: '/tools/image' },
      { key: 'imageEdit', icon: <ScissorOutlined />, to: PATHS.imageEdit, section: '/tools/image-edit' },
      { key: 'avatar', icon: <UserOutlined /> },
    ],
  },
  { group: 'space', entries: [{ key: 'assets', icon: <FolderOpenOutlined />, to: PATHS.assets, section: '/dashboard/assets' }] },
];

const sectionOf = (pathname: string) => pathname.split('/').slice(0, 3).join('/');

/** The main navigation; the mini variant (video and image tools) shows icons only. */
export function Sidebar({ variant }: { variant: SidebarVariant }) {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const section = sectionOf(pathname);

  const item = ({ key, icon, to }: NavEntry): NonNullable<MenuProps['items']>[number] =>
    to
      ? { key, icon, label: <Link to={to}>{t(`nav.${key}`)}</Link> }
      : {
          key,
          icon,
          disabled: true,
          label: (
            <span className={styles.soon}>
              {t(`nav.${key}`)}
              <Tag variant="filled">{t('nav.comingSoon')}</Tag>
            </span>
          ),
        };
  // Icons only leave no room for section titles; a divider marks each section instead.
  const items: MenuProps['items'] = NAV.flatMap(({ group, entries }) => {
    if (!group) return entries.map(item);
    if (variant === 'mini') return [{ type: 'divider' as const, key: group }, ...entries.map(item)];
    return [{ type: 'group' as const, key: group, label: t(`nav.${group}`), children: entries.map(item) }];
  });
  const selected = NAV.flatMap(({ entries }) => entries).find((entry) => entry.section === section)?.key;

  const className = { full: styles.sidebar, mini: styles.sidebarMini, drawer: styles.sidebarDrawer }[variant];
  return (
    <nav className={className} aria-label={t('nav.label')}>
      <Menu mode="inline" inlineCollapsed={variant === 'mini'} items={items} selectedKeys={selected ? [selected] : []} />
    </nav>
  );
}
