import { CopyOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { API_KEY_NAME_MAX, API_KEYS_MAX, type ApiKey } from '@reelsmith/contract';
import { Alert, Button, Empty, Input, Modal, Popconfirm, Select, Space, Tag } from 'antd';
import dayjs from 'dayjs';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Busy } from '../../shared/ui/Busy';
import { copyText } from '../../shared/ui/copyText';
import { RetryAlert } from '../../shared/ui/RetryAlert';
import { toast } from '../../shared/ui/toast';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from './apiKeysApi';
import styles from './developers.module.css';

const DATE_FORMAT = 'YYYY-MM-DD HH:mm';
/** The lifetimes offered; 0 is "until revoked". */
const LIFETIMES = [30, 90, 365, 0] as const;

type KeyState = 'active' | 'expired' | 'revoked';

const stateOf = (key: ApiKey, now: number): KeyState => {
  if (key.revokeTime) return 'revoked';
  if (key.expireTime && Date.parse(key.expireTime) <= now) return 'expired';
  return 'active';
};
const STATE_COLOURS: Record<KeyState, string> = { active: 'success', expired: 'warning', revoked: 'default' };

/** The key just made, shown this once with a way to copy it: only its hash is kept. */
function NewKey({ secret, onDone }: { secret: string; onDone: () => void }) {
  const { t } = useTranslation('developers');
  return (
    <div className={styles.newKey}>
      <Alert type="warning" showIcon message={t('keys.shownOnce')} />
      <Space.Compact block>
        <Input readOnly value={secret} aria-label={t('keys.newKey')} className={styles.mono} onFocus={(e) => e.target.select()} />
        <Button type="primary" icon={<CopyOutlined />} onClick={() => copyText(secret, t('keys.copied'))}>
          {t('keys.copy')}
        </Button>
      </Space.Compact>
      <Button block onClick={onDone}>
        {t('keys.done')}
      </Button>
    </div>
  );
}

/** Name and lifetime of a new key; once made, the key itself. */
function CreateKeyModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('developers');
  const [name, setName] = useState('');
  const [lifetime, setLifetime] = useState<number>(90);
  const [secret, setSecret] = useState<string | null>(null);
  const create = useCreateApiKey();
  const id = useId();
  const close = () => {
    setName('');
    setSecret(null);
    create.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim(), expiresInDays: lifetime || null }, { onSuccess: ({ key }) => setSecret(key) });
  };
  return (
    <Modal
      open={open}
      title={secret ? t('keys.createdTitle') : t('keys.createTitle')}
      footer={null}
      onCancel={close}
      // A click beside the modal must not lose a key that cannot be shown again.
      maskClosable={!secret}
      destroyOnHidden
    >
      {secret ? (
        <NewKey secret={secret} onDone={close} />
      ) : (
        <form className={styles.form} onSubmit={submit}>
          <label className={styles.field} htmlFor={`${id}-name`}>
            <span>{t('keys.name')}</span>
            <Input
              id={`${id}-name`}
              autoFocus
              maxLength={API_KEY_NAME_MAX}
              placeholder={t('keys.namePlaceholder')}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </label>
          <label className={styles.field} htmlFor={`${id}-lifetime`}>
            <span>{t('keys.lifetime')}</span>
            <Select
              id={`${id}-lifetime`}
              value={lifetime}
              onChange={setLifetime}
              options={LIFETIMES.map((days) => ({ value: days, label: days ? t('keys.days', { count: days }) : t('keys.never') }))}
            />
          </label>
          <Button type="primary" htmlType="submit" block loading={create.isPending} disabled={!name.trim()}>
            {t('keys.create')}
          </Button>
        </form>
      )}
    </Modal>
  );
}

function KeyRow({ apiKey, now }: { apiKey: ApiKey; now: number }) {
  const { t } = useTranslation('developers');
  const revoke = useRevokeApiKey();
  const state = stateOf(apiKey, now);
  const when = (time: string | null, none: string) => (time ? dayjs(time).format(DATE_FORMAT) : none);
  return (
    <li className={styles.key}>
      <div className={styles.keyName}>
        <KeyOutlined aria-hidden="true" />
        <strong>{apiKey.name}</strong>
        <Tag color={STATE_COLOURS[state]}>{t(`keys.state.${state}`)}</Tag>
      </div>
      <code className={styles.mono}>{`${apiKey.prefix}…`}</code>
      <dl className={styles.facts}>
        <div>
          <dt>{t('keys.created')}</dt>
          <dd>{when(apiKey.createTime, '')}</dd>
        </div>
        <div>
          <dt>{t('keys.lastUsed')}</dt>
          <dd>{when(apiKey.lastUsedTime, t('keys.neverUsed'))}</dd>
        </div>
        <div>
          <dt>{state === 'revoked' ? t('keys.revoked') : t('keys.expires')}</dt>
          <dd>{state === 'revoked' ? when(apiKey.revokeTime, '') : when(apiKey.expireTime, t('keys.never'))}</dd>
        </div>
      </dl>
      {state === 'active' && (
        <Popconfirm
          title={t('keys.revokeConfirm', { name: apiKey.name })}
          okText={t('keys.revoke')}
          okButtonProps={{ danger: true }}
          cancelText={t('keys.cancel')}
          onConfirm={() => revoke.mutateAsync(apiKey.id).then(() => toast.success(t('keys.revokedToast')))}
        >
          <Button danger loading={revoke.isPending} className={styles.revoke}>
            {t('keys.revoke')}
          </Button>
        </Popconfirm>
      )}
    </li>
  );
}

/** The user's API keys: make one (shown once), see when each was last used, revoke one (decision "API keys"). */
export function ApiKeysPanel() {
  const { t } = useTranslation('developers');
  const keys = useApiKeys();
  const [creating, setCreating] = useState(false);
  const now = Date.now();
  const usable = keys.data?.list.filter((key) => stateOf(key, now) === 'active').length ?? 0;

  let body: ReactNode;
  if (keys.isPending) body = <Busy />;
  else if (keys.isError) body = <RetryAlert title={t('keys.failed')} onRetry={() => keys.refetch()} />;
  else if (keys.data.list.length === 0) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('keys.empty')} />;
  else
    body = (
      <ul className={styles.keys}>
        {keys.data.list.map((key) => (
          <KeyRow key={key.id} apiKey={key} now={now} />
        ))}
      </ul>
    );

  return (
    <section className={styles.panel} aria-labelledby="developers-keys">
      <div className={styles.panelHead}>
        <h2 id="developers-keys">{t('keys.title')}</h2>
        <Button type="primary" icon={<PlusOutlined />} disabled={usable >= API_KEYS_MAX} onClick={() => setCreating(true)}>
          {t('keys.new')}
        </Button>
      </div>
      <p className={styles.note}>{t('keys.text', { max: API_KEYS_MAX })}</p>
      {body}
      <CreateKeyModal open={creating} onClose={() => setCreating(false)} />
    </section>
  );
}
