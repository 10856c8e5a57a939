import { assetList, type LibraryAsset } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Checkbox, Empty, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../api/queries';
import { Busy } from '../ui/Busy';
import styles from './library.module.css';
import { StandInTag } from './StandInTag';

/** The newest page of the library is what a user picks from; older files are a search away on the assets page. */
const PICK_PAGE_SIZE = 100;

/** A library entry whose file is stored, so a tool can use it. */
export type StoredAsset = LibraryAsset & { fileUrl: string; resKey: string };
export const isStored = (asset: LibraryAsset): asset is StoredAsset =>
  asset.status === 'completed' && asset.fileUrl !== null && asset.resKey !== null;

interface LibraryPickerProps {
  /** Only files of this type are offered. */
  type?: 'image' | 'video';
  /** One file (a tool's input picture) or several (a product's assets). */
  multiple?: boolean;
  okText: string;
  onPick: (assets: StoredAsset[]) => void;
  onClose: () => void;
}

/** Picks stored files of the user's asset library. */
export function LibraryPickerModal({ type, multiple = false, okText, onPick, onClose }: LibraryPickerProps) {
  const { t } = useTranslation('library');
  const [chosen, setChosen] = useState<string[]>([]);
  const library = useQuery(callQuery(assetList, { body: { page: 1, pageSize: PICK_PAGE_SIZE, status: 'completed', type } }));
  const assets = (library.data?.list ?? []).filter(isStored);

  const pick = () => {
    onPick(assets.filter((asset) => chosen.includes(asset.fileId)));
    onClose();
  };
  // A single choice replaces the previous one, so a click on another picture is all it takes.
  const choose = (values: string[]) => setChosen(multiple ? values : values.filter((value) => !chosen.includes(value)));

  return (
    <Modal
      open
      title={t('title')}
      okText={okText}
      okButtonProps={{ disabled: chosen.length === 0 }}
      onOk={pick}
      onCancel={onClose}
      width={720}
    >
      {library.isPending && <Busy />}
      {library.isSuccess && assets.length === 0 && <Empty description={t('empty')} />}
      <Checkbox.Group value={chosen} onChange={choose} style={{ width: '100%' }}>
        <ul className={styles.grid}>
          {assets.map((asset) => (
            <li key={asset.fileId} className={styles.tile} title={asset.fileName}>
              <img src={asset.thumbnailUrl ?? asset.fileUrl} alt={asset.fileName} />
              {asset.standIn && <StandInTag className={styles.standIn} />}
              <Checkbox className={styles.check} value={asset.fileId} aria-label={asset.fileName} />
            </li>
          ))}
        </ul>
      </Checkbox.Group>
    </Modal>
  );
}
