import { PUBLIC_API_BASE, PUBLIC_API_DOCUMENT_PATH } from '@reelsmith/contract/public-api';
import { useQuery } from '@tanstack/react-query';
import { Alert, Input, Spin, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiBase } from '../../../shared/prefix';
import { AccountPage } from '../../../shared/ui/AccountPage';
import { type Endpoint, endpointsOf, type Field, type OpenApiDocument } from './openApi';
import styles from './reference.module.css';

const documentUrl = () => `${apiBase()}${PUBLIC_API_DOCUMENT_PATH}`;

async function fetchDocument(): Promise<OpenApiDocument> {
  const res = await fetch(documentUrl(), { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return (await res.json()) as OpenApiDocument;
}

/** A request's or an answer's fields, nested as the JSON is. */
function Fields({ fields }: { fields: Field[] }) {
  const { t } = useTranslation('developers');
  return (
    <ul className={styles.fields}>
      {fields.map((field) => (
        <li key={field.name}>
          <code className={styles.name}>{field.name}</code> <span className={styles.type}>{field.type}</span>
          {field.required && <span className={styles.required}> · {t('reference.required')}</span>}
          {field.notes.map((note) => (
            <div key={note} className={styles.note}>
              {note}
            </div>
          ))}
          {field.fields.length > 0 && <Fields fields={field.fields} />}
        </li>
      ))}
    </ul>
  );
}

function Call({ endpoint }: { endpoint: Endpoint }) {
  const { t } = useTranslation('developers');
  const parts: [string, Field[]][] = [
    ['reference.query', endpoint.query],
    ['reference.body', endpoint.body],
    ['reference.answer', endpoint.answer],
  ];
  return (
    <section className={styles.call} aria-label={`${endpoint.method} ${endpoint.path}`}>
      <h3 className={styles.callTitle}>
        <Tag color={endpoint.method === 'GET' ? 'blue' : 'green'}>{endpoint.method}</Tag>
        <code>{endpoint.path}</code>
      </h3>
      <p className={styles.summary}>{endpoint.summary}</p>
      {endpoint.description && <p className={styles.note}>{endpoint.description}</p>}
      {parts
        .filter(([, fields]) => fields.length > 0)
        .map(([label, fields]) => (
          <div key={label}>
            <h4 className={styles.partTitle}>{t(label)}</h4>
            <Fields fields={fields} />
          </div>
        ))}
    </section>
  );
}

/**
 * The public API's reference, readable (decision "API reference page"): every call of the OpenAPI document this
 * server answers, with its fields, grouped by the first part of its path and searchable; the JSON stays linked
 * for tools. Drawn by the app itself from the document: nothing is loaded from elsewhere.
 */
export function ApiReferencePage() {
  const { t } = useTranslation('developers');
  const document = useQuery({ queryKey: ['public-api-document'], queryFn: fetchDocument, staleTime: 5 * 60_000 });
  const [search, setSearch] = useState('');
  const endpoints = useMemo(() => (document.data ? endpointsOf(document.data) : []), [document.data]);
  const wanted = search.trim().toLowerCase();
  const shown = endpoints.filter((e) => !wanted || `${e.method} ${e.path} ${e.summary}`.toLowerCase().includes(wanted));
  const groups = [...new Set(shown.map((e) => e.group))];
  const base = `${window.location.origin}${apiBase()}${PUBLIC_API_BASE}`;
  return (
    <AccountPage title={t('reference.title')} lead={t('reference.lead')}>
      <section className={styles.intro} aria-label={t('reference.start')}>
        <p>
          {t('reference.base')} <code>{base}</code>
        </p>
        <p>
          {t('reference.auth')} <code>Authorization: Bearer rsk_…</code>
        </p>
        <p>{t('reference.envelope')}</p>
        <p>
          <a href={documentUrl()} target="_blank" rel="noreferrer">
            {t('reference.raw')}
          </a>
        </p>
      </section>
      {document.isPending && <Spin />}
      {document.isError && <Alert type="error" showIcon title={t('reference.loadFailed')} />}
      {document.data && (
        <>
          <Input.Search
            aria-label={t('reference.search')}
            placeholder={t('reference.search')}
            allowClear
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
          {shown.length === 0 && <p className={styles.note}>{t('reference.none')}</p>}
          {groups.map((group) => (
            <section key={group} className={styles.group} aria-label={`/${group}`}>
              <h2 className={styles.groupTitle}>/{group}</h2>
              {shown
                .filter((e) => e.group === group)
                .map((endpoint) => (
                  <Call key={`${endpoint.method} ${endpoint.path}`} endpoint={endpoint} />
                ))}
            </section>
          ))}
        </>
      )}
    </AccountPage>
  );
}
