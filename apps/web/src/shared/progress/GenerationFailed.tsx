import { Alert, Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The lines under a failure's title: the task's own reason when it says more than the title (a vendor that could
 * not finish, a server missing a part that says to tell its administrator: decision "Start-up checks"), then that
 * the credits came back.
 */
function FailureLines({ message }: { message?: string | null | undefined }) {
  const { t } = useTranslation(['progress', 'errors']);
  const reason = message && message !== t('errors:generationFailed') ? message : undefined;
  return (
    <>
      {reason && <div>{reason}</div>}
      <div>{t('creditsKept')}</div>
    </>
  );
}

/**
 * A generation that failed (spec "States and transitions"): it says so in the spec's words, why when the task
 * knows, and that the credits it cost were returned.
 */
export function GenerationFailed({ onRetry, retryLabel, message }: { onRetry: () => void; retryLabel: string; message?: string | null }) {
  const { t } = useTranslation(['progress', 'errors']);
  return (
    <Result
      status="error"
      title={t('errors:generationFailed')}
      subTitle={<FailureLines message={message} />}
      extra={<Button onClick={onRetry}>{retryLabel}</Button>}
    />
  );
}

/** The same messages where a whole result page would not fit (an editor panel, a history row). */
export function GenerationFailedNote({ message }: { message?: string | null }) {
  const { t } = useTranslation(['progress', 'errors']);
  return <Alert type="error" showIcon title={t('errors:generationFailed')} description={<FailureLines message={message} />} />;
}
