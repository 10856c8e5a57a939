import { LinkOutlined } from '@ant-design/icons';
import { assetUrlTaskQuery } from '@reelsmith/contract';
import { Spin, Tag } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client';
import { PollError, pollAssetUrlTask } from '../../shared/polling/poll';
import { toast } from '../../shared/ui/toast';
import styles from './assets.module.css';
import { LibraryCard } from './LibraryCard';

/**
 * The draft card of a file being imported from a URL: it polls the asset URL task while it shows (spec "States and transitions"),
 * so an import started before a reload resumes too. The outcome is said once; then the list shows the asset.
 */
export function ImportingCard({ fileId, name, onSettled }: { fileId: string; name: string; onSettled: (fileId: string) => void }) {
  const { t } = useTranslation('assets');

  useEffect(() => {
    const stop = new AbortController();
    pollAssetUrlTask({
      query: (signal) => api(assetUrlTaskQuery, { query: { fileId }, signal, silent: true }),
      signal: stop.signal,
    }).then(
      (answer) => {
        if (!answer) return;
        toast.success(t('import.done', { name }));
        onSettled(fileId);
      },
      (error: unknown) => {
        if (!(error instanceof PollError)) throw error;
        toast.error(error.message);
        onSettled(fileId);
      },
    );
    return () => stop.abort();
  }, [fileId, name, onSettled, t]);

  return (
    <LibraryCard
      name={name}
      busy
      thumb={
        <div className={styles.thumb}>
          <LinkOutlined />
          <Tag className={styles.badge} color="processing">
            {t('status.draft')}
          </Tag>
        </div>
      }
      meta={
        <>
          <Spin size="small" /> {t('import.importing')}
        </>
      }
    />
  );
}
