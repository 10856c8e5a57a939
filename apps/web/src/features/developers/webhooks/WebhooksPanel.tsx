import { CopyOutlined, DeleteOutlined, ReloadOutlined, SendOutlined } from '@ant-design/icons';
import {
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_EVENTS,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookEvent,
} from '@reelsmith/contract';
import { Alert, Button, Checkbox, Empty, Input, Pagination, Popconfirm, Space, Switch, Table, type TableColumnsType, Tag } from 'antd';
import dayjs from 'dayjs';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Busy } from '../../../shared/ui/Busy';
import { copyText } from '../../../shared/ui/copyText';
import { RetryAlert } from '../../../shared/ui/RetryAlert';
import { toast } from '../../../shared/ui/toast';
import { useNarrowScreen } from '../../../shared/ui/useNarrowScreen';
import styles from './webhooks.module.css';
import {
  DELIVERIES_PAGE_SIZE,
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useResendWebhookDelivery,
  useUpdateWebhookEndpoint,
  useWebhookDeliveries,
  useWebhookEndpoints,
} from './webhooksApi';

const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
const STATUS_COLOURS: Record<WebhookDeliveryStatus, string> = { PENDING: 'processing', DELIVERED: 'success', FAILED: 'error' };

/** A signing secret, readable and copyable: the developer pastes it into their receiver's configuration. */
function SecretField({ secret }: { secret: string }) {
  const { t } = useTranslation('webhooks');
  return (
    <Space.Compact block>
      <Input.Password readOnly value={secret} aria-label={t('secret.label')} className={styles.mono} />
      <Button icon={<CopyOutlined />} onClick={() => copyText(secret, t('secret.copied'))}>
        {t('secret.copy')}
      </Button>
    </Space.Compact>
  );
}

function AddEndpoint({ full }: { full: boolean }) {
  const { t } = useTranslation('webhooks');
  const id = useId();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['task.succeeded', 'task.failed']);
  const [created, setCreated] = useState<WebhookEndpoint | null>(null);
  const create = useCreateWebhookEndpoint();
  const trimmed = url.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { url: trimmed, events },
      {
        onSuccess: (endpoint) => {
          setCreated(endpoint);
          setUrl('');
        },
      },
    );
  };

  return (
    <section className={styles.panel} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('add.title')}</h2>
      <form className={styles.form} onSubmit={submit}>
        <label className={styles.field} htmlFor={`${id}-url`}>
          <span>{t('add.url')}</span>
          <Input
            id={`${id}-url`}
            size="large"
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder={t('add.urlPlaceholder')}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </label>
        <fieldset className={styles.field}>
          <legend>{t('add.events')}</legend>
          <Checkbox.Group
            className={styles.events}
            value={events}
            onChange={(values) => setEvents(values as WebhookEvent[])}
            options={WEBHOOK_EVENTS.map((event) => ({
              value: event,
              label: (
                <span className={styles.eventOption}>
                  {t(`events.${event}`)} <code>{event}</code>
                </span>
              ),
            }))}
          />
        </fieldset>
        <div className={styles.actions}>
          <Button
            type="primary"
            size="large"
            htmlType="submit"
            loading={create.isPending}
            disabled={!trimmed || events.length === 0 || full}
          >
            {t('add.submit')}
          </Button>
          <span className={styles.note}>
            {!trimmed
              ? t('add.urlRequired')
              : events.length === 0
                ? t('add.eventsRequired')
                : t('add.limit', { max: WEBHOOK_ENDPOINTS_MAX })}
          </span>
        </div>
      </form>
      {created && (
        <Alert
          className={styles.created}
          type="success"
          showIcon
          closable={{ onClose: () => setCreated(null) }}
          title={t('created.title')}
          description={
            <div className={styles.createdBody}>
              <p>{t('created.text')}</p>
              <SecretField secret={created.secret} />
            </div>
          }
        />
      )}
    </section>
  );
}

/** What each delivery shows, in the table on a wide screen and in a card on a phone; `off`: its endpoint is turned off. */
function useDeliveryParts(off: boolean) {
  const { t, i18n } = useTranslation('webhooks');
  const resend = useResendWebhookDelivery();
  const milliseconds = new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'millisecond', unitDisplay: 'short' });
  return {
    event: (d: WebhookDelivery) => (
      <div className={styles.event}>
        <code>{d.event}</code>
        <code className={styles.eventId}>{d.eventId}</code>
      </div>
    ),
    status: (d: WebhookDelivery) => (
      <div className={styles.status}>
        <Tag color={STATUS_COLOURS[d.status]}>{t(`deliveries.states.${d.status}`)}</Tag>
        {d.nextAttemptAt && (
          <span className={styles.note}>{t('deliveries.next', { time: dayjs(d.nextAttemptAt).format('HH:mm:ss') })}</span>
        )}
      </div>
    ),
    code: (d: WebhookDelivery) => d.statusCode ?? '—',
    latency: (d: WebhookDelivery) => (d.latencyMs === null ? '—' : milliseconds.format(d.latencyMs)),
    time: (d: WebhookDelivery) => dayjs(d.createdAt).format(TIME_FORMAT),
    error: (d: WebhookDelivery) => <span className={styles.error}>{d.error ?? '—'}</span>,
    resend: (d: WebhookDelivery) => (
      <Button
        size="small"
        icon={<SendOutlined />}
        loading={resend.isPending && resend.variables === d.deliveryId}
        // The server refuses it too: a resend to an endpoint that is off would wait as pending with nothing saying why.
        disabled={off}
        title={off ? t('list.resendOff') : undefined}
        onClick={() => resend.mutate(d.deliveryId, { onSuccess: () => toast.success(t('deliveries.resent')) })}
      >
        {t('deliveries.resend')}
      </Button>
    ),
  };
}

function DeliveryCards({ list, off }: { list: WebhookDelivery[]; off: boolean }) {
  const { t } = useTranslation('webhooks');
  const part = useDeliveryParts(off);
  if (list.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('deliveries.empty')} />;
  return (
    <ul className={styles.cards}>
      {list.map((d) => (
        <li key={d.deliveryId} className={`${styles.endpoint} ${styles.card}`}>
          <div className={styles.cardHead}>
            {part.event(d)}
            {part.status(d)}
          </div>
          <dl className={styles.facts}>
            <dt>{t('deliveries.attempts')}</dt>
            <dd>{d.attempts}</dd>
            <dt>{t('deliveries.code')}</dt>
            <dd>{part.code(d)}</dd>
            <dt>{t('deliveries.latency')}</dt>
            <dd>{part.latency(d)}</dd>
            <dt>{t('deliveries.time')}</dt>
            <dd>{part.time(d)}</dd>
          </dl>
          {d.error && part.error(d)}
          <div>{part.resend(d)}</div>
        </li>
      ))}
    </ul>
  );
}

function DeliveryTable({ list, off }: { list: WebhookDelivery[]; off: boolean }) {
  const { t } = useTranslation('webhooks');
  const part = useDeliveryParts(off);
  // Few columns, each of two lines, so the log fits the page's width with its Resend action in view.
  const columns: TableColumnsType<WebhookDelivery> = [
    { key: 'event', title: t('deliveries.event'), render: (_, d) => part.event(d) },
    {
      key: 'status',
      title: t('deliveries.status'),
      render: (_, d) => (
        <div className={styles.status}>
          {part.status(d)}
          <span className={styles.note}>{t('deliveries.tries', { count: d.attempts })}</span>
        </div>
      ),
    },
    {
      key: 'code',
      title: t('deliveries.code'),
      render: (_, d) => (
        <div className={styles.status}>
          <span>{part.code(d)}</span>
          <span className={styles.note}>{part.latency(d)}</span>
        </div>
      ),
    },
    {
      key: 'time',
      title: t('deliveries.time'),
      render: (_, d) => (
        <span className={styles.time}>
          {dayjs(d.createdAt).format('YYYY-MM-DD')}
          <br />
          {dayjs(d.createdAt).format('HH:mm:ss')}
        </span>
      ),
    },
    { key: 'error', title: t('deliveries.error'), render: (_, d) => part.error(d) },
    { key: 'resend', title: '', render: (_, d) => part.resend(d) },
  ];
  return (
    <Table<WebhookDelivery>
      size="small"
      rowKey="deliveryId"
      columns={columns}
      dataSource={list}
      scroll={{ x: 'max-content' }}
      pagination={false}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('deliveries.empty')} /> }}
    />
  );
}

function Deliveries({ endpointId, off }: { endpointId: string; off: boolean }) {
  const { t } = useTranslation('webhooks');
  const narrow = useNarrowScreen();
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(endpointId, page);

  if (deliveries.isPending) return <Busy />;
  if (deliveries.isError) return <RetryAlert title={t('deliveries.failed')} onRetry={() => deliveries.refetch()} />;
  const { list, total } = deliveries.data;

  return (
    <div className={styles.deliveries}>
      <div className={styles.deliveriesHead}>
        <h3>{t('deliveries.title')}</h3>
        <Button size="small" icon={<ReloadOutlined />} onClick={() => deliveries.refetch()} loading={deliveries.isFetching}>
          {t('deliveries.refresh')}
        </Button>
      </div>
      {/* A phone gets one card per delivery instead of a table that would scroll sideways (decision "Phone layout"). */}
      {narrow ? <DeliveryCards list={list} off={off} /> : <DeliveryTable list={list} off={off} />}
      {total > DELIVERIES_PAGE_SIZE && (
        <Pagination
          className={styles.pages}
          size="small"
          current={page}
          pageSize={DELIVERIES_PAGE_SIZE}
          total={total}
          onChange={setPage}
          showSizeChanger={false}
        />
      )}
    </div>
  );
}

/** The endpoint's on/off switch with its state in words, so it reads the same without colour. */
function EndpointSwitch({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('webhooks');
  const update = useUpdateWebhookEndpoint();
  const on = endpoint.disabledAt === null;
  const turn = (enabled: boolean) =>
    update.mutate(
      { endpointId: endpoint.endpointId, enabled },
      { onSuccess: () => toast.success(t(enabled ? 'list.turnedOn' : 'list.turnedOff')) },
    );
  return (
    <div className={styles.switch}>
      <Switch checked={on} loading={update.isPending} onChange={turn} aria-label={t('list.switch')} />
      {/* The switch's own state is aria-checked; the word is for the eye. */}
      <span aria-hidden>{on ? t('list.on') : t('list.off')}</span>
    </div>
  );
}

/**
 * Why the endpoint is off, or that it is failing (decision "Fair webhook delivery"): the server turns off an endpoint
 * whose every attempt failed for a day, and says so here, where its owner fixes it.
 */
function EndpointNotice({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('webhooks');
  const at = (time: string) => dayjs(time).format(TIME_FORMAT);
  if (endpoint.disabledAt && endpoint.disabledReason === 'failing' && endpoint.failingSince) {
    return (
      <Alert type="error" showIcon title={t('list.failingOffNote', { date: at(endpoint.disabledAt), since: at(endpoint.failingSince) })} />
    );
  }
  if (endpoint.disabledAt) return <Alert type="warning" showIcon title={t('list.offNote', { date: at(endpoint.disabledAt) })} />;
  if (endpoint.failingSince) return <Alert type="warning" showIcon title={t('list.failingNote', { since: at(endpoint.failingSince) })} />;
  return null;
}

function EndpointCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('webhooks');
  const [open, setOpen] = useState(false);
  const remove = useDeleteWebhookEndpoint();
  const off = endpoint.disabledAt !== null;
  return (
    <li className={off ? `${styles.endpoint} ${styles.off}` : styles.endpoint}>
      <div className={styles.endpointHead}>
        <div className={styles.endpointTitle}>
          <div className={styles.urlLine}>
            {off && <Tag color="warning">{t('list.off')}</Tag>}
            <code className={styles.url}>{endpoint.url}</code>
          </div>
          <span className={styles.note}>{t('list.added', { date: dayjs(endpoint.createdAt).format(TIME_FORMAT) })}</span>
        </div>
        <div className={styles.endpointActions}>
          <EndpointSwitch endpoint={endpoint} />
          <Popconfirm
            title={t('list.deleteConfirm')}
            description={t('list.deleteDetail')}
            okText={t('list.deleteOk')}
            cancelText={t('list.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => remove.mutateAsync(endpoint.endpointId).then(() => toast.success(t('list.deleted')))}
          >
            <Button danger icon={<DeleteOutlined />} loading={remove.isPending}>
              {t('list.delete')}
            </Button>
          </Popconfirm>
        </div>
      </div>
      <EndpointNotice endpoint={endpoint} />
      <div className={styles.tags}>
        {endpoint.events.map((event) => (
          <Tag key={event} title={event}>
            {t(`events.${event}`)}
          </Tag>
        ))}
      </div>
      <SecretField secret={endpoint.secret} />
      <Button type="link" className={styles.toggle} onClick={() => setOpen((value) => !value)} aria-expanded={open}>
        {open ? t('list.hideDeliveries') : t('list.showDeliveries')}
      </Button>
      {open && <Deliveries endpointId={endpoint.endpointId} off={off} />}
    </li>
  );
}

/**
 * The user's webhook endpoints (decision "Webhooks"): add one with its events, see and copy its signing secret,
 * turn it off and on, delete it, and read each one's delivery log with a Resend action. Rendered on the Developers page.
 */
export function WebhooksPanel() {
  const { t } = useTranslation('webhooks');
  const id = useId();
  const endpoints = useWebhookEndpoints();
  const list = endpoints.data ?? [];

  return (
    <div className={styles.page}>
      <header className={styles.intro}>
        <h2>{t('title')}</h2>
        <p>{t('subtitle')}</p>
      </header>
      <AddEndpoint full={list.length >= WEBHOOK_ENDPOINTS_MAX} />
      <section className={styles.panel} aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`}>{t('list.title')}</h2>
        {endpoints.isPending ? (
          <Busy />
        ) : endpoints.isError ? (
          <RetryAlert title={t('list.failed')} onRetry={() => endpoints.refetch()} />
        ) : list.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('list.empty')} />
        ) : (
          <ul className={styles.endpoints}>
            {list.map((endpoint) => (
              <EndpointCard key={endpoint.endpointId} endpoint={endpoint} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
