import { CloseOutlined, CloudUploadOutlined } from '@ant-design/icons';
import { Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './assets.module.css';
import { CardAction } from './CardAction';
import { LibraryCard } from './LibraryCard';

/** A file on its way from the computer: its name and how much has been sent, with a way to stop it. */
export function UploadingCard({ name, percent, onCancel }: { name: string; percent: number; onCancel: () => void }) {
  const { t } = useTranslation('assets');
  return (
    <LibraryCard
      name={name}
      busy
      thumb={
        <div className={styles.thumb}>
          <div className={styles.pending}>
            <CloudUploadOutlined />
            <Progress percent={percent} size="small" aria-label={t('upload.progress', { name })} />
          </div>
        </div>
      }
      meta={t('upload.uploading', { percent })}
      actions={<CardAction label={t('upload.cancel')} icon={<CloseOutlined />} onClick={onCancel} />}
    />
  );
}
