import {
  FolderOpenOutlined,
  HomeOutlined,
  LinkOutlined,
  PictureOutlined,
  ScissorOutlined,
  UserOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { Fragment, type ReactNode, useState } from 'react';
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

/**
 * Spec "Screens and routes" sidebar: Home; AI creation; Space. Avatar, "coming soon" in the spec, is the Avatar tool
 * (decision "The Avatar tool"); an entry without a page would show "coming soon". Labels are `shell:nav.<key>`.
 */
const NAV: { group?: string; entries: NavEntry[] }[] = [
  { entries: [{ key: 'home', icon: <HomeOutlined />, to: PATHS.home }] },
  {
    group: 'aiCreation',
    entries: [
      { key: 'linkToVideo', icon: <LinkOutlined />, to: PATHS.linkToVideo, section: '/tools/link-to-video' },
      { key: 'video', icon: <VideoCameraOutlined />, to: PATHS.textToVideo, section: '/tools/video' },
      { key: 'image', icon: <PictureOutlined />, to: PATHS.textToImage, section: '/tools/image' },
      { key: 'imageEdit', icon: <ScissorOutlined />, to: PATHS.imageEdit, section: '/tools/image-edit' },
      { key: 'avatar', icon: <UserOutlined />, to: PATHS.avatar, section: '/tools/avatar' },
    ],
  },
  { group: 'space', entries: [{ key: 'assets', icon: <FolderOpenOutlined />, to: PATHS.assets, section: '/dashboard/assets' }] },
];

const sectionOf = (pathname: string) => pathname.split('/').slice(0, 3).join('/');

/** Where the mini sidebar's label shows on hover or focus: beside the item, over the page. */
interface Tip {
  key: string;
  left: number;
  top: number;
}

/**
 * The main navigation; the mini variant (video and image tools) shows icons only, each item's name beside it on
 * hover or focus. Plain links drawn as antd's inline Menu was, so a first visit does not download the Menu
 * (decision "First-load bundle split").
 */
export function Sidebar({ variant }: { variant: SidebarVariant }) {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const section = sectionOf(pathname);
  const mini = variant === 'mini';
  const [tip, setTip] = useState<Tip | null>(null);

  const item = ({ key, icon, to }: NavEntry) => {
    const label = t(`nav.${key}`);
    const soon = !to && <span className={styles.soonTag}>{t('nav.comingSoon')}</span>;
    // A fixed tip, not one inside the item: the sidebar scrolls, and would clip it.
    const showTip = mini
      ? {
          onMouseEnter: (event: { currentTarget: HTMLElement }) => placeTip(key, event.currentTarget),
          onFocus: (event: { currentTarget: HTMLElement }) => placeTip(key, event.currentTarget),
          onMouseLeave: () => setTip(null),
          onBlur: () => setTip(null),
        }
      : {};
    const content = (
      <>
        {/* The icon's own name ("picture") must not join the link's: it is named by its label alone, as in antd's Menu. */}
        <span className={styles.navIcon} aria-hidden="true">
          {icon}
        </span>
        <span className={mini ? styles.navLabelHidden : styles.navLabel}>
          {label}
          {!mini && soon}
        </span>
        {tip?.key === key && (
          // The label above already names the link; the tip only shows it.
          <span className={styles.navTip} aria-hidden="true" style={{ left: tip.left, top: tip.top }}>
            {label}
            {soon}
          </span>
        )}
      </>
    );
    const selected = NAV.flatMap(({ entries }) => entries).find((entry) => entry.section === section)?.key === key;
    return (
      <li key={key}>
        {to ? (
          <Link
            to={to}
            className={selected ? styles.navItemSelected : styles.navItem}
            aria-current={selected ? 'page' : undefined}
            {...showTip}
          >
            {content}
          </Link>
        ) : (
          <span className={styles.navItemDisabled} aria-disabled="true" {...showTip}>
            {content}
          </span>
        )}
      </li>
    );
  };
  const placeTip = (key: string, element: HTMLElement) => {
    const box = element.getBoundingClientRect();
    setTip({ key, left: box.right + 12, top: box.top + box.height / 2 });
  };

  const className = { full: styles.sidebar, mini: styles.sidebarMini, drawer: styles.sidebarDrawer }[variant];
  return (
    <nav className={className} aria-label={t('nav.label')}>
      <ul className={mini ? styles.navListMini : styles.navList}>
        {NAV.map(({ group, entries }) => (
          <Fragment key={group ?? 'top'}>
            {/* Icons only leave no room for section titles; a divider marks each section instead. */}
            {group && mini && <li className={styles.navDivider} aria-hidden="true" />}
            {group && !mini ? (
              <li>
                <div className={styles.navGroupTitle}>{t(`nav.${group}`)}</div>
                <ul className={styles.navList}>{entries.map(item)}</ul>
              </li>
            ) : (
              entries.map(item)
            )}
          </Fragment>
        ))}
      </ul>
    </nav>
  );
}
