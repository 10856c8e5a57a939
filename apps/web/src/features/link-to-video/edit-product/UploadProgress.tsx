import { Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PendingUpload } from '../../../shared/library/useLibraryUploads';

/** A bar for each picture or video still uploading from the computer, named by its file. */
export function UploadProgress({ uploads }: { uploads: readonly PendingUpload[] }) {
  const { t } = useTranslation('link-to-video');
  return uploads.map((u) => {
    const label = t('product.uploading', { name: u.name, percent: u.percent });
    return <Progress key={u.id} aria-label={label} percent={u.percent} size="small" format={() => label} />;
  });
}
