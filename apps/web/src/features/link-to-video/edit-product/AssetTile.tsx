import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { RemoveButton } from '../../../shared/ui/RemoveButton';
import styles from '../flow.module.css';
import { isVideoFormat } from '../project/assets';
import { projectController } from '../project/open';
import type { ProjectAsset } from '../project/types';

/**
 * One asset of the product: its picture or muted clip, a spinner while its link imports, and remove (from the
 * product, unless `onRemove` says otherwise).
 */
export function AssetTile({ asset, importing, onRemove }: { asset: ProjectAsset; importing: boolean; onRemove?: () => void }) {
  const { t } = useTranslation('link-to-video');
  const video = isVideoFormat(asset.format);
  return (
    <li className={styles.tile} title={asset.fileName}>
      {asset.fileUrl && (video ? <video src={asset.fileUrl} muted preload="metadata" /> : <img src={asset.fileUrl} alt={asset.fileName} />)}
      {video && <span className={styles.tileBadge}>{t('product.video')}</span>}
      {importing && (
        <span className={styles.tileBusy} role="status" aria-label={t('product.importing')}>
          <Spin size="small" />
        </span>
      )}
      <RemoveButton
        className={styles.tileRemove}
        label={t('product.remove', { name: asset.fileName })}
        onRemove={onRemove ?? (() => projectController()?.removeProductAsset(asset.fileId))}
      />
    </li>
  );
}
