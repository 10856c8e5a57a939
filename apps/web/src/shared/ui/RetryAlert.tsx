import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';

/** What could not be loaded, with a Retry button; the API client has already toasted the reason. */
export function RetryAlert({ title, onRetry }: { title: string; onRetry: () => void }) {
  const { t } = useTranslation('shared');
  return <Alert type="warning" showIcon title={title} action={<Button onClick={onRetry}>{t('messages.retry')}</Button>} />;
}
