import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** A generation that failed (spec §4): it says so, and that the credits it cost were returned. */
export function GenerationFailed({ onRetry, retryLabel }: { onRetry: () => void; retryLabel: string }) {
  const { t } = useTranslation(['link-to-video', 'errors']);
  return (
    <Result
      status="error"
      title={t('errors:generationFailed')}
      subTitle={t('progress.creditsKept')}
      extra={<Button onClick={onRetry}>{retryLabel}</Button>}
    />
  );
}
