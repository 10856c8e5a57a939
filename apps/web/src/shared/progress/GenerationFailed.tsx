import { Alert, Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** A generation that failed (spec "States and transitions"): it says so, and that the credits it cost were returned. */
export function GenerationFailed({ onRetry, retryLabel }: { onRetry: () => void; retryLabel: string }) {
  const { t } = useTranslation(['progress', 'errors']);
  return (
    <Result
      status="error"
      title={t('errors:generationFailed')}
      subTitle={t('creditsKept')}
      extra={<Button onClick={onRetry}>{retryLabel}</Button>}
    />
  );
}

/** The same two messages where a whole result page would not fit (an editor panel, a history row). */
export function GenerationFailedNote() {
  const { t } = useTranslation(['progress', 'errors']);
  return <Alert type="error" showIcon title={t('errors:generationFailed')} description={t('creditsKept')} />;
}
