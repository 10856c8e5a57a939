import { LinkOutlined } from '@ant-design/icons';
import { assetStatistics } from '@reelsmith/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Tabs } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { callKey } from '../../shared/api/queries';
import { UploadButton } from '../../shared/library/UploadButton';
import { useNarrowScreen } from '../../shared/ui/useNarrowScreen';
import { AssetList } from './AssetList';
import styles from './assets.module.css';
import { LIBRARY_TABS, type LibraryFilters, readFilters, writeFilters } from './filters';
import { ImportUrlModal } from './ImportUrlModal';
import { LibraryFiltersBar } from './LibraryFiltersBar';
import { LibraryStatistics } from './LibraryStatistics';
import { ProjectList } from './ProjectList';
import { usePendingAssets } from './usePendingAssets';

/**
 * The assets library (spec "Screens and routes" screen 5, /dashboard/assets): the user's assets and link-to-video projects
 * on two tabs, filtered and sorted through the address bar, with upload from the computer and import from
 * a URL. A list is mounted afresh for each choice of filters, which cancels the request of the one it replaces.
 */
export function AssetsPage() {
  const { t } = useTranslation('assets');
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const queryClient = useQueryClient();
  const [generation, setGeneration] = useState(0);
  const [importing, setImporting] = useState(false);

  const refreshStatistics = useCallback(() => queryClient.invalidateQueries({ queryKey: callKey(assetStatistics) }), [queryClient]);
  /** A new asset: the list starts again from its first page, where the newest shows. */
  const reload = useCallback(() => {
    setGeneration((value) => value + 1);
    refreshStatistics();
  }, [refreshStatistics]);
  const pending = usePendingAssets(reload);

  const change = (next: Partial<LibraryFilters>) => setParams(writeFilters({ ...filters, ...next }));
  const narrow = useNarrowScreen();
  const filtersBar = <LibraryFiltersBar filters={filters} onChange={change} />;
  const listKey = `${writeFilters(filters)}#${generation}`;

  return (
    <div className={styles.page}>
      <header className={styles.intro}>
        <div>
          <h1>{t('title')}</h1>
          <p>{t('subtitle')}</p>
        </div>
        <div className={styles.toolbar}>
          <Button icon={<LinkOutlined />} onClick={() => setImporting(true)}>
            {t('import.button')}
          </Button>
          <UploadButton
            type="primary"
            label={t('upload.button')}
            onFiles={(files) => {
              pending.upload(files);
              if (filters.tab !== 'assets') change({ tab: 'assets' });
            }}
          />
        </div>
      </header>
      <LibraryStatistics />
      <Tabs
        activeKey={filters.tab}
        onChange={(tab) => change({ tab: tab as LibraryFilters['tab'] })}
        items={LIBRARY_TABS.map((tab) => ({ key: tab, label: t(`tabs.${tab}`) }))}
        // On a phone the filters take their own row: beside the tabs they left no room and hid both tabs under "…".
        tabBarExtraContent={narrow ? undefined : filtersBar}
      />
      {narrow && filtersBar}
      {filters.tab === 'assets' ? (
        <AssetList
          key={listKey}
          filters={filters}
          uploads={pending.uploads}
          imports={pending.imports}
          onImportSettled={pending.onImportSettled}
          onChanged={refreshStatistics}
          onClearFilters={() => change({ type: undefined, source: undefined, status: undefined })}
        />
      ) : (
        <ProjectList key={listKey} sort={filters.sort} onChanged={refreshStatistics} />
      )}
      <ImportUrlModal
        open={importing}
        onImport={async (url) => {
          await pending.importUrl(url);
          if (filters.tab !== 'assets') change({ tab: 'assets' });
        }}
        onClose={() => setImporting(false)}
      />
    </div>
  );
}
