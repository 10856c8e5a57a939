import { Alert, Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A generation that failed (spec "States and transitions"): it says why, in the task's own words when it has them
 * (a server missing a part says to tell its administrator: decision "Start-up checks"), and that the credits it
 * cost were returned.
 */
export function GenerationFailed({ onRetry, retryLabel, message }: { onRetry: () => void; retryLabel: string; message?: string | null }) {
  const { t } = useTranslation(['progress', 'errors']);
  return (
    <Result
      status="error"
      title={message || t('errors:generationFailed')}
      subTitle={t('creditsKept')}
      extra={<Button onClick={onRetry}>{retryLabel}</Button>}
    />
  );
}

/** The same two messages where a whole result page would not fit (an editor panel, a history row). */
export function GenerationFailedNote({ message }: { message?: string | null }) {
  const { t } = useTranslation(['progress', 'errors']);
  return <Alert type="error" showIcon title={message || t('errors:generationFailed')} description={t('creditsKept')} />;
}
