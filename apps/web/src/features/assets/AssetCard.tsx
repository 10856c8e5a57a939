import {
  CaretRightFilled,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  FileImageOutlined,
  LinkOutlined,
  PlayCircleOutlined,
  ScissorOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import type { LibraryAsset } from '@reelsmith/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { StandInTag } from '../../shared/library/StandInTag';
import styles from './assets.module.css';
import { CardAction } from './CardAction';
import { formatCardDate } from './format';
import { LibraryCard } from './LibraryCard';

/** What can be done to an asset; the list owns the dialogs and calls. */
export interface AssetHandlers {
  onView: (asset: LibraryAsset) => void;
  onEdit: (asset: LibraryAsset) => void;
  onRename: (asset: LibraryAsset) => void;
  onDelete: (asset: LibraryAsset) => void;
}

/**
 * An asset of the library (spec "Screens and routes" screen 5): its picture, name, type, source and date. A finished image
 * can be enlarged, edited and downloaded, a finished video played and downloaded; any asset renamed or
 * deleted. A draft says so; a failed one says why.
 */
export function AssetCard({ asset, handlers }: { asset: LibraryAsset; handlers: AssetHandlers }) {
  const { t } = useTranslation('assets');
  const ready = asset.status === 'completed';
  const isVideo = asset.type === 'video';
  const meta =
    asset.status === 'failed' && asset.errorMsg
      ? asset.errorMsg
      : [asset.type && t(`type.${asset.type}`), t(`source.${asset.source}`), formatCardDate(asset.createTime)].filter(Boolean).join(' · ');

  return (
    <LibraryCard
      name={asset.fileName}
      thumb={<Thumbnail asset={asset} onView={ready ? () => handlers.onView(asset) : undefined} />}
      tag={asset.standIn && <StandInTag className={styles.badge} />}
      meta={meta}
      metaTitle={meta}
      actions={
        <>
          {ready && isVideo && (
            <CardAction label={t('actions.watch')} icon={<PlayCircleOutlined />} onClick={() => handlers.onView(asset)} />
          )}
          {ready && !isVideo && <CardAction label={t('actions.edit')} icon={<ScissorOutlined />} onClick={() => handlers.onEdit(asset)} />}
          {ready && asset.downloadUrl && <CardAction label={t('actions.download')} icon={<DownloadOutlined />} href={asset.downloadUrl} />}
          <CardAction label={t('actions.rename')} icon={<EditOutlined />} onClick={() => handlers.onRename(asset)} />
          <CardAction label={t('actions.delete')} icon={<DeleteOutlined />} danger onClick={() => handlers.onDelete(asset)} />
        </>
      }
    />
  );
}

/** Stands in for a picture not there (yet): an import still fetching has no type either. */
function TypeIcon({ type }: { type: LibraryAsset['type'] }) {
  if (type === 'video') return <VideoCameraOutlined />;
  if (type === 'image') return <FileImageOutlined />;
  return <LinkOutlined />;
}

/** The picture: once the asset is ready, a button that enlarges an image or plays a video. */
function Thumbnail({ asset, onView }: { asset: LibraryAsset; onView?: () => void }) {
  const { t } = useTranslation('assets');
  const isVideo = asset.type === 'video';
  const source = asset.thumbnailUrl ?? (isVideo ? null : asset.fileUrl);
  const picture = source ? <img src={source} alt="" loading="lazy" /> : <TypeIcon type={asset.type} />;
  const badge = asset.status !== 'completed' && (
    <Tag className={styles.badge} color={asset.status === 'failed' ? 'error' : 'processing'}>
      {t(`status.${asset.status}`)}
    </Tag>
  );

  if (!onView) {
    return (
      <div className={styles.thumb}>
        {picture}
        {badge}
      </div>
    );
  }
  return (
    <button
      type="button"
      className={`${styles.thumb} ${isVideo ? styles.playable : ''}`}
      aria-label={t(isVideo ? 'actions.play' : 'actions.enlarge')}
      onClick={onView}
    >
      {picture}
      {isVideo && (
        <span className={styles.playIcon} aria-hidden="true">
          <CaretRightFilled />
        </span>
      )}
    </button>
  );
}
