import { MAX_ASSETS_PER_PROJECT } from '@reelsmith/contract';
import { Button, Progress } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LibraryPickerModal, type StoredAsset } from '../../../shared/library/LibraryPickerModal';
import { UploadButton } from '../../../shared/library/UploadButton';
import { useLibraryUploads } from '../../../shared/library/useLibraryUploads';
import styles from '../flow.module.css';
import { allAssets, toProjectAsset } from '../project/assets';
import { projectController } from '../project/open';
import type { Project } from '../project/types';
import { AddFromLinkModal } from './AddFromLinkModal';
import { AssetTile } from './AssetTile';

/** The product's assets, videos first, with the ways to add more: from the computer, a link or the library (spec "Screens and routes" screen 3). */
export function AssetPanel({ project }: { project: Project }) {
  const { t } = useTranslation('link-to-video');
  const [adding, setAdding] = useState<'link' | 'library' | null>(null);
  const { uploads, upload } = useLibraryUploads(
    useCallback((asset: StoredAsset) => projectController()?.addProductAssets([toProjectAsset(asset)]), []),
  );
  const assets = project.product ? allAssets(project.product) : [];
  const importing = new Set(project.assetUrlTasks.map((task) => task.fileId));
  return (
    <section className={styles.panel} aria-labelledby="assets-title">
      <h2 id="assets-title" className={styles.panelTitle}>
        {t('product.assetsTitle')}
        <span className={styles.hint}>
          {assets.length}/{MAX_ASSETS_PER_PROJECT}
        </span>
      </h2>
      <p className={styles.hint}>{t('product.assetsHint')}</p>
      <ul className={styles.assetGrid} aria-label={t('product.assetsTitle')}>
        {assets.map((asset) => (
          <AssetTile key={asset.fileId} asset={asset} importing={importing.has(asset.fileId)} />
        ))}
      </ul>
      <div className={styles.actions}>
        <UploadButton label={t('product.fromComputer')} onFiles={upload} />
        <Button onClick={() => setAdding('link')}>{t('product.fromLink')}</Button>
        <Button onClick={() => setAdding('library')}>{t('product.fromLibrary')}</Button>
      </div>
      {uploads.map((u) => (
        <Progress
          key={u.id}
          aria-label={t('product.uploading', { name: u.name, percent: u.percent })}
          percent={u.percent}
          size="small"
          format={() => t('product.uploading', { name: u.name, percent: u.percent })}
        />
      ))}
      <AddFromLinkModal open={adding === 'link'} onClose={() => setAdding(null)} />
      {adding === 'library' && (
        <LibraryPickerModal
          multiple
          okText={t('product.add')}
          onPick={(assets) => projectController()?.addProductAssets(assets.map(toProjectAsset))}
          onClose={() => setAdding(null)}
        />
      )}
    </section>
  );
}
