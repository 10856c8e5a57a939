import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** Shown instead of the router's developer page when a page cannot load (e.g. its code changed after a deploy). */
export function RouteError() {
  const { t } = useTranslation('shared');
  return (
    <Result
      status="warning"
      title={t('messages.unknownError')}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('messages.retry')}
        </Button>
      }
    />
  );
}
