import { assetStatistics } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../shared/api/queries';
import styles from './assets.module.css';
import { formatBytes } from './format';

/**
 * How much the library holds. The figures show once known (a summary, not something to wait for); their line keeps
 * its height meanwhile, so the grid below does not jump under the pointer when they arrive.
 */
export function LibraryStatistics() {
  const { t, i18n } = useTranslation('assets');
  const statistics = useQuery(callQuery(assetStatistics, { silent: true }));
  const data = statistics.data;
  const figures = data
    ? ([
        ['images', data.images.toLocaleString(i18n.language)],
        ['videos', data.videos.toLocaleString(i18n.language)],
        ['projects', data.projects.toLocaleString(i18n.language)],
        // Everything stored counts against the quota (files, thumbnails, uploads not yet registered, captured pages).
        ['storage', `${formatBytes(data.bytes, i18n.language)} / ${formatBytes(data.quotaBytes, i18n.language)}`],
      ] as const)
    : [];
  return (
    <dl className={styles.statistics} aria-label={t('statistics.label')}>
      {figures.map(([key, value]) => (
        <div key={key}>
          <dt>{t(`statistics.${key}`)}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
