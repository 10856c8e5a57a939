import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSkuQuote } from '../generation';
import styles from './flow.module.css';

/**
 * What a presenter adds to an ad and what their seconds on camera cost, said the same on the edit page and in the
 * quick editor; on the sandbox, that its talking stand-in is free instead (decision "Stand-ins are free").
 */
export function PresenterIntro({ sandbox }: { sandbox: boolean }) {
  const { t } = useTranslation('link-to-video');
  const quote = useSkuQuote('avatarVideo');
  return (
    <>
      <p className={styles.hint}>{!quote || quote.standIn ? t('presenter.hint') : t('presenter.hintPrice', { credits: quote.price })}</p>
      {sandbox && <Alert type="info" showIcon title={t('presenter.sandbox')} />}
    </>
  );
}
