import { assetList, type LibraryAsset } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Checkbox, Empty, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client';
import { Busy } from '../../../shared/ui/Busy';
import styles from '../flow.module.css';
import { addProductAssets } from '../project/tasks';
import type { ProjectAsset } from '../project/types';

/** The newest page of the library is what a seller picks from; older files are a search away on the assets page. */
const PICK_PAGE_SIZE = 100;

type StoredAsset = LibraryAsset & { fileUrl: string; resKey: string };
const isStored = (asset: LibraryAsset): asset is StoredAsset =>
  asset.status === 'completed' && asset.fileUrl !== null && asset.resKey !== null;

const toProjectAsset = (asset: StoredAsset): ProjectAsset => ({
  fileId: asset.fileId,
  fileName: asset.fileName,
  fileUrl: asset.fileUrl,
  resKey: asset.resKey,
  format: asset.format,
});

/** Picks stored files of the user's asset library for the product. */
export function LibraryPickerModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('link-to-video');
  const [chosen, setChosen] = useState<string[]>([]);
  const library = useQuery({
    queryKey: ['link-to-video', 'library'],
    queryFn: ({ signal }) => api(assetList, { body: { page: 1, pageSize: PICK_PAGE_SIZE, status: 'completed' }, signal }),
  });
  const assets = (library.data?.list ?? []).filter(isStored);

  const add = () => {
    addProductAssets(assets.filter((asset) => chosen.includes(asset.fileId)).map(toProjectAsset));
    onClose();
  };

  return (
    <Modal
      open
      title={t('product.libraryTitle')}
      okText={t('product.add')}
      okButtonProps={{ disabled: chosen.length === 0 }}
      onOk={add}
      onCancel={onClose}
      width={720}
    >
      {library.isPending && <Busy />}
      {library.isSuccess && assets.length === 0 && <Empty description={t('product.libraryEmpty')} />}
      <Checkbox.Group value={chosen} onChange={setChosen} style={{ width: '100%' }}>
        <ul className={styles.assetGrid}>
          {assets.map((asset) => (
            <li key={asset.fileId} className={styles.tile} title={asset.fileName}>
              <img src={asset.thumbnailUrl ?? asset.fileUrl} alt={asset.fileName} />
              <Checkbox className={styles.tileRemove} value={asset.fileId} aria-label={asset.fileName} />
            </li>
          ))}
        </ul>
      </Checkbox.Group>
    </Modal>
  );
}
