import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../paths';
import styles from './ui.module.css';

/** The brand mark and name; it always leads home. */
export function LogoLink() {
  const { t } = useTranslation('shared');
  return (
    <Link to={PATHS.home} className={styles.logo} aria-label={t('homeLink')}>
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
        <rect width="32" height="32" rx="8" className={styles.logoTile} />
        <circle cx="16" cy="16" r="10" fill="none" className={styles.logoRing} strokeWidth="2.5" />
        <path d="M13 11.5v9l7.5-4.5z" className={styles.logoPlay} />
      </svg>
      <span className={styles.logoName}>{t('appName')}</span>
    </Link>
  );
}
