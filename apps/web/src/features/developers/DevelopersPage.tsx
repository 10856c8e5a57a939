import { PUBLIC_API_BASE } from '@reelsmith/contract/public-api';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../../shared/paths';
import { apiBase } from '../../shared/prefix';
import { AccountPage } from '../../shared/ui/AccountPage';
import { ApiKeysPanel } from './ApiKeysPanel';
import styles from './developers.module.css';
import { WebhooksPanel } from './webhooks/WebhooksPanel';

/**
 * The Developers page (from the user menu): API keys, a first call to copy, the API's document, and the
 * webhook endpoints (decisions "API keys", "Public API", "Webhooks").
 */
export function DevelopersPage() {
  const { t } = useTranslation('developers');
  const base = `${window.location.origin}${apiBase()}${PUBLIC_API_BASE}`;
  const example = `curl -H "Authorization: Bearer $REELSMITH_KEY" \\\n  ${base}/points/account`;
  return (
    <AccountPage title={t('title')} lead={t('subtitle')}>
      <ApiKeysPanel />
      <section className={styles.panel} aria-labelledby="developers-start">
        <h2 id="developers-start">{t('start.title')}</h2>
        <p className={styles.note}>{t('start.text')}</p>
        <pre className={styles.code}>
          <code>{example}</code>
        </pre>
        <p className={styles.note}>
          {t('start.document')} <Link to={PATHS.apiReference}>{t('reference.open')}</Link>
          {' · '}
          <a href={`${base}/openapi.json`} target="_blank" rel="noreferrer">
            {t('start.documentLink')}
          </a>
        </p>
      </section>
      <WebhooksPanel />
    </AccountPage>
  );
}
