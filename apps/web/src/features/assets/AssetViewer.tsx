import type { LibraryAsset } from '@reelsmith/contract';
import { Modal } from 'antd';
import styles from './assets.module.css';

/**
 * The preview and video player views (spec "Screens and routes": not in the route table): an enlarged image, or the video
 * playing with its controls. Closing it stops the video, since the modal's content is destroyed.
 */
export function AssetViewer({ asset, onClose }: { asset: LibraryAsset | null; onClose: () => void }) {
  return (
    <Modal
      open={asset !== null}
      title={asset?.fileName}
      footer={null}
      centered
      width="min(1100px, 92vw)"
      onCancel={onClose}
      destroyOnHidden
      // Like the full-screen picture viewer: the enlarged file alone, the library behind it all but gone.
      styles={{ mask: { background: 'rgba(0, 0, 0, 0.92)' } }}
    >
      {asset?.type === 'video' && (
        // biome-ignore lint/a11y/useMediaCaption: users' own footage has no caption track to offer.
        <video
          className={styles.viewer}
          src={asset.fileUrl ?? undefined}
          poster={asset.thumbnailUrl ?? undefined}
          controls
          autoPlay
          playsInline
        />
      )}
      {asset?.type === 'image' && <img className={styles.viewer} src={asset.fileUrl ?? undefined} alt={asset.fileName} />}
    </Modal>
  );
}
