import { MAX_ASSETS_PER_PROJECT } from '@reelsmith/contract';
import { Alert, Button } from 'antd';
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
import { importNotice } from './importNotice';
import { UploadProgress } from './UploadProgress';

/** The product's assets, videos first, with the ways to add more: from the computer, a link or the library (spec "Screens and routes" screen 3). */
export function AssetPanel({ project }: { project: Project }) {
  const { t } = useTranslation('link-to-video');
  const [adding, setAdding] = useState<'link' | 'library' | null>(null);
  const { uploads, upload } = useLibraryUploads(
    useCallback((asset: StoredAsset) => projectController()?.addProductAssets([toProjectAsset(asset)]), []),
  );
  const assets = project.product ? allAssets(project.product) : [];
  const importing = new Set(project.assetUrlTasks.map((task) => task.fileId));
  // What the analysis could not import: with no asset yet it is in the way, and upload is offered right there.
  const notice = importNotice(project.mediaImport, assets.length > 0, t);
  return (
    <section className={styles.panel} aria-labelledby="assets-title">
      <h2 id="assets-title" className={styles.panelTitle}>
        {t('product.assetsTitle')}
        <span className={styles.hint}>
          {assets.length}/{MAX_ASSETS_PER_PROJECT}
        </span>
      </h2>
      <p className={styles.hint}>{t('product.assetsHint')}</p>
      {notice && assets.length === 0 && (
        <Alert
          type="warning"
          showIcon
          title={notice}
          description={
            // Below the words rather than beside them: beside, a phone's width leaves the words a few letters a line.
            <div className={styles.importNotice}>
              <span>{t('imports.uploadHint')}</span>
              <UploadButton type="primary" label={t('failed.uploadPictures')} onFiles={upload} />
            </div>
          }
        />
      )}
      {notice && assets.length > 0 && <p className={styles.hint}>{notice}</p>}
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
      <UploadProgress uploads={uploads} />
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
