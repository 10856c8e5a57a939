import { DownloadOutlined, FileTextOutlined, PlusOutlined, RedoOutlined, StopOutlined, UploadOutlined } from '@ant-design/icons';
import {
  BATCH_CSV_COLUMNS,
  BATCH_ROWS_MAX,
  type Batch,
  type BatchOptions,
  type BatchQuote,
  type BatchRow,
  type BatchRowStatus,
  type BatchSummary,
  LOCALES,
  type Locale,
  linkVideoVoices,
  TEMPLATE_IDS,
  type TemplateId,
} from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Input, Popconfirm, Progress, Select, Switch, Table, type TableColumnsType, Tag } from 'antd';
import dayjs from 'dayjs';
import { type ChangeEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { callQuery } from '../../../shared/api/queries';
import { PATHS } from '../../../shared/paths';
import { Busy } from '../../../shared/ui/Busy';
import { RetryAlert } from '../../../shared/ui/RetryAlert';
import { useNarrowScreen } from '../../../shared/ui/useNarrowScreen';
import { ShortOfCredits } from '../../generation';
import { type Stage, stageUrl } from '../project/stage';
import styles from './batch.module.css';
import { download, useBatch, useBatches, useBatchQuote, useCancelBatch, useCreateBatch, useRetryBatch } from './batchApi';

const BATCH_PARAM = 'batch';
/** The form's text is priced once typing pauses this long, not at every key. */
const QUOTE_DELAY_MS = 400;
const TEMPLATE_CSV = `${BATCH_CSV_COLUMNS.join(',')}\nhttps://shop.example/products/water-bottle,Water bottle,15,clean-studio,en,\n`;
const STATUS_COLOURS: Record<BatchRowStatus, string> = {
  waiting: 'default',
  analysing: 'processing',
  rendering: 'processing',
  exporting: 'processing',
  done: 'success',
  failed: 'error',
  cancelled: 'warning',
};
/** Each language by its own name, as language pickers show them. */
const LANGUAGE_NAMES: Record<(typeof LOCALES)[number], string> = { en: 'English', zh: '中文', pt: 'Português' };
const DEFAULT_OPTIONS: BatchOptions = { aspectRatio: '9:16', videoLength: 15, export: false };

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The batch's choices for every row; a CSV row's own columns win over them. */
function OptionsFields({ options, onChange }: { options: BatchOptions; onChange: (options: BatchOptions) => void }) {
  const { t } = useTranslation(['batch', 'link-to-video']);
  const id = useId();
  const voices = useQuery(callQuery(linkVideoVoices, { query: options.language ? { language: options.language } : {}, silent: true }));
  const set = (patch: Partial<BatchOptions>) => onChange({ ...options, ...patch });
  const automatic = { value: '', label: t('options.automatic') };
  return (
    <div className={styles.options}>
      <label className={styles.field} htmlFor={`${id}-ratio`}>
        <span>{t('options.aspectRatio')}</span>
        <Select
          id={`${id}-ratio`}
          value={options.aspectRatio}
          onChange={(aspectRatio) => set({ aspectRatio })}
          options={(['9:16', '1:1', '16:9'] as const).map((value) => ({ value, label: value }))}
        />
      </label>
      <label className={styles.field} htmlFor={`${id}-length`}>
        <span>{t('options.length')}</span>
        <Select
          id={`${id}-length`}
          value={options.videoLength}
          onChange={(videoLength) => set({ videoLength })}
          options={([15, 30, 45] as const).map((value) => ({ value, label: t('options.seconds', { count: value }) }))}
        />
      </label>
      <label className={styles.field} htmlFor={`${id}-template`}>
        <span>{t('options.template')}</span>
        <Select
          id={`${id}-template`}
          value={options.templateId ?? ''}
          onChange={(value: TemplateId | '') => set({ templateId: value === '' ? undefined : value })}
          options={[automatic, ...TEMPLATE_IDS.map((value) => ({ value, label: t(`link-to-video:templates.names.${value}`) }))]}
        />
      </label>
      <label className={styles.field} htmlFor={`${id}-language`}>
        <span>{t('options.language')}</span>
        <Select
          id={`${id}-language`}
          value={options.language ?? ''}
          onChange={(value: Locale | '') => set({ language: value === '' ? undefined : value, voiceId: undefined })}
          options={[automatic, ...LOCALES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))]}
        />
      </label>
      <label className={styles.field} htmlFor={`${id}-voice`}>
        <span>{t('options.voice')}</span>
        <Select
          id={`${id}-voice`}
          value={options.voiceId ?? ''}
          onChange={(value) => set({ voiceId: value === '' ? undefined : value })}
          options={[
            automatic,
            ...(voices.data ?? []).map((v) => ({ value: v.voiceId, label: `${v.name} (${LANGUAGE_NAMES[v.language]})` })),
          ]}
        />
      </label>
      <label className={`${styles.field} ${styles.switchField}`} htmlFor={`${id}-export`}>
        <Switch id={`${id}-export`} checked={options.export} onChange={(value) => set({ export: value })} />
        <span>
          {t('options.export')}
          <small className={styles.note}>{t('options.exportHint')}</small>
        </span>
      </label>
    </div>
  );
}

/** What the batch would cost and what stops it, as the server reads the text. */
function QuoteSummary({ quote, exporting }: { quote: BatchQuote | undefined; exporting: boolean }) {
  const { t } = useTranslation('batch');
  if (!quote) return <p className={styles.note}>{t('quote.empty', { max: BATCH_ROWS_MAX })}</p>;
  const { rows, creditsPerRow, credits, availableCredits, coverableRows, problems } = quote;
  return (
    <div className={styles.quote} aria-live="polite">
      <p className={styles.price}>
        {!exporting
          ? t('quote.free', { count: rows })
          : credits === rows * creditsPerRow
            ? t('quote.price', { count: rows, credits: creditsPerRow, total: credits })
            : t('quote.priceMixed', { count: rows, total: credits })}
      </p>
      <p className={styles.note}>{t('quote.available', { credits: availableCredits })}</p>
      {coverableRows < rows && <Alert type="error" showIcon title={t('quote.short', { count: coverableRows })} />}
      {coverableRows < rows && <ShortOfCredits missing={credits - availableCredits} />}
      {problems.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title={t('quote.problems', { count: problems.length })}
          description={
            <ul className={styles.problems}>
              {problems.slice(0, 20).map((p) => (
                <li key={`${p.row}-${p.message}`}>{p.message}</li>
              ))}
            </ul>
          }
        />
      )}
    </div>
  );
}

function BatchForm({ onCreated }: { onCreated: (batchId: string) => void }) {
  const { t } = useTranslation('batch');
  const id = useId();
  const [text, setText] = useState('');
  const [options, setOptions] = useState<BatchOptions>(DEFAULT_OPTIONS);
  const file = useRef<HTMLInputElement>(null);
  const create = useCreateBatch();
  const quote = useBatchQuote(useDebounced(text, QUOTE_DELAY_MS), options);
  const priced = text.trim() ? quote.data : undefined;
  const ready = priced && priced.rows > 0 && priced.problems.length === 0 && priced.coverableRows >= priced.rows;

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    if (chosen) setText(await chosen.text());
    event.target.value = '';
  };
  const start = () => create.mutate({ text, options }, { onSuccess: (batch) => onCreated(batch.batchId) });
  // A batch that charges is confirmed with its total, as a render is (decision "Short of credits"); previews alone are free.
  const charged = ready && options.export && priced.credits > 0 ? priced : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!charged) start();
  };
  const button = (
    <Button type="primary" size="large" htmlType={charged ? 'button' : 'submit'} loading={create.isPending} disabled={!ready}>
      {t('form.start')}
    </Button>
  );

  return (
    <form className={styles.panel} onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('form.title')}</h2>
      <label className={styles.field} htmlFor={`${id}-links`}>
        <span>{t('form.links')}</span>
        <Input.TextArea
          id={`${id}-links`}
          className={styles.links}
          rows={8}
          spellCheck={false}
          placeholder={t('form.placeholder')}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <div className={styles.row}>
        <input ref={file} type="file" accept=".csv,text/csv,text/plain" hidden onChange={readFile} aria-label={t('form.upload')} />
        <Button icon={<UploadOutlined />} onClick={() => file.current?.click()}>
          {t('form.upload')}
        </Button>
        <a href={`data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE_CSV)}`} download="reelsmith-batch.csv">
          <FileTextOutlined /> {t('form.template')}
        </a>
      </div>
      <p className={styles.note}>{t('form.columns', { columns: BATCH_CSV_COLUMNS.join(',') })}</p>
      <OptionsFields options={options} onChange={setOptions} />
      <QuoteSummary quote={priced} exporting={options.export} />
      <div className={styles.row}>
        {/* Always there, so the button stays the same element; it opens only when the batch charges. */}
        <Popconfirm
          disabled={!charged}
          title={charged && t('form.confirm', { count: charged.rows, credits: charged.credits })}
          description={charged && t('form.confirmLeft', { left: Math.max(0, charged.availableCredits - charged.credits) })}
          okText={t('form.confirmOk')}
          cancelText={t('form.confirmCancel')}
          onConfirm={start}
        >
          {button}
        </Popconfirm>
      </div>
    </form>
  );
}

/**
 * The editor page a row's project is at: its export once the row exported, its previews once it has one, else the
 * product page (which itself moves on to the furthest stage reached, so a row still in progress lands right too).
 */
const rowStage = (row: BatchRow): Stage => (row.exportUrl ? 'videoExport' : row.previewUrl ? 'preview' : 'editProduct');

/** A row's product, status and result: the same parts in the table and in a phone's cards. */
function useRowParts() {
  const { t } = useTranslation('batch');
  return {
    product: (row: BatchRow) => (
      <div className={styles.product}>
        {row.name && <strong>{row.name}</strong>}
        <a href={row.link} target="_blank" rel="noreferrer" className={styles.link}>
          {row.link}
        </a>
      </div>
    ),
    status: (row: BatchRow) => <Tag color={STATUS_COLOURS[row.status]}>{t(`status.${row.status}`)}</Tag>,
    result: (row: BatchRow) => (
      <div className={styles.result}>
        {row.error && <span className={styles.error}>{row.error}</span>}
        <span className={styles.videos}>
          {row.previewUrl && (
            <a href={row.previewUrl} target="_blank" rel="noreferrer">
              {t('rows.preview')}
            </a>
          )}
          {row.exportUrl && (
            <a href={row.exportUrl} target="_blank" rel="noreferrer">
              {t('rows.video')}
            </a>
          )}
          {/* Each row is an ordinary project: it opens in the editor to change its script or export it by hand. */}
          {row.projectId && <Link to={stageUrl(rowStage(row), row.projectId)}>{t('rows.open')}</Link>}
        </span>
      </div>
    ),
  };
}

function RowsView({ rows }: { rows: BatchRow[] }) {
  const { t } = useTranslation('batch');
  const narrow = useNarrowScreen();
  const part = useRowParts();
  if (narrow) {
    return (
      <ul className={styles.cards}>
        {rows.map((row) => (
          <li key={row.row} className={styles.card}>
            <div className={styles.cardHead}>
              <span className={styles.number}>#{row.row}</span>
              {part.status(row)}
            </div>
            {part.product(row)}
            {part.result(row)}
          </li>
        ))}
      </ul>
    );
  }
  const columns: TableColumnsType<BatchRow> = [
    { title: '#', dataIndex: 'row', width: 56 },
    { title: t('rows.product'), key: 'product', render: (_, row) => part.product(row) },
    { title: t('rows.status'), key: 'status', width: 130, render: (_, row) => part.status(row) },
    { title: t('rows.result'), key: 'result', render: (_, row) => part.result(row) },
  ];
  return <Table rowKey="row" size="small" columns={columns} dataSource={rows} pagination={{ pageSize: 50, hideOnSinglePage: true }} />;
}

function BatchProgress({ batchId, onNew }: { batchId: string; onNew: () => void }) {
  const { t } = useTranslation('batch');
  const batch = useBatch(batchId);
  const retry = useRetryBatch();
  const cancel = useCancelBatch();
  const [downloading, setDownloading] = useState<'csvUrl' | 'zipUrl' | null>(null);
  if (batch.isPending) return <Busy />;
  if (batch.isError) return <RetryAlert title={t('progress.loadFailed')} onRetry={() => batch.refetch()} />;
  const { counts, status } = batch.data as Batch;
  const ended = counts.done + counts.failed + counts.cancelled;
  const save = async (which: 'csvUrl' | 'zipUrl') => {
    setDownloading(which);
    try {
      await download(batchId, which);
    } finally {
      setDownloading(null);
    }
  };
  return (
    <section className={styles.panel} aria-labelledby="batch-progress-title">
      <div className={styles.progressHead}>
        <h2 id="batch-progress-title">{t('progress.title', { count: counts.total })}</h2>
        <Tag color={status === 'running' ? 'processing' : status === 'finished' ? 'success' : 'warning'}>{t(`batchStatus.${status}`)}</Tag>
      </div>
      <Progress percent={Math.round((ended / Math.max(1, counts.total)) * 100)} aria-label={t('progress.title', { count: counts.total })} />
      <p className={styles.note}>{t('progress.counts', counts)}</p>
      <div className={styles.row}>
        {counts.failed > 0 && (
          <Button icon={<RedoOutlined />} loading={retry.isPending} onClick={() => retry.mutate(batchId)}>
            {t('actions.retry', { count: counts.failed })}
          </Button>
        )}
        {status === 'running' && (
          <Button danger icon={<StopOutlined />} loading={cancel.isPending} onClick={() => cancel.mutate(batchId)}>
            {t('actions.cancel')}
          </Button>
        )}
        <Button icon={<DownloadOutlined />} disabled={counts.done === 0} loading={downloading === 'zipUrl'} onClick={() => save('zipUrl')}>
          {t('actions.zip')}
        </Button>
        <Button icon={<FileTextOutlined />} loading={downloading === 'csvUrl'} onClick={() => save('csvUrl')}>
          {t('actions.csv')}
        </Button>
        <Button type="text" icon={<PlusOutlined />} onClick={onNew}>
          {t('actions.new')}
        </Button>
      </div>
      <RowsView rows={(batch.data as Batch).rows} />
    </section>
  );
}

function RecentBatches({ current, onOpen }: { current: string | null; onOpen: (batchId: string) => void }) {
  const { t } = useTranslation('batch');
  const list = useBatches();
  const others = (list.data?.list ?? []).filter((b: BatchSummary) => b.batchId !== current);
  if (others.length === 0) return null;
  return (
    <section className={styles.panel} aria-labelledby="batch-recent-title">
      <h2 id="batch-recent-title">{t('recent.title')}</h2>
      <ul className={styles.recent}>
        {others.map((b) => (
          <li key={b.batchId}>
            <button type="button" className={styles.recentItem} onClick={() => onOpen(b.batchId)}>
              <span>{dayjs(b.createTime).format('YYYY-MM-DD HH:mm')}</span>
              <span>{t('recent.rows', { count: b.counts.total, done: b.counts.done, failed: b.counts.failed })}</span>
              <Tag>{t(`batchStatus.${b.status}`)}</Tag>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The Batch page (decision "Batch"): many product links to many ads in one go. The form takes pasted links or
 * a CSV with the batch's options and shows the price before anything starts; a started batch shows each row's
 * progress, retries failed rows, and downloads every video as one zip and the results as CSV.
 */
export function BatchPage() {
  const { t } = useTranslation('batch');
  const [params, setParams] = useSearchParams();
  const batchId = params.get(BATCH_PARAM);
  const open = (id: string | null) => setParams(id ? { [BATCH_PARAM]: id } : {});
  return (
    <div className={styles.page}>
      <header className={styles.intro}>
        <h1>{t('title')}</h1>
        <p>{t('subtitle')}</p>
        <Link to={PATHS.linkToVideo}>{t('single')}</Link>
      </header>
      {batchId ? <BatchProgress batchId={batchId} onNew={() => open(null)} /> : <BatchForm onCreated={open} />}
      <RecentBatches current={batchId} onOpen={open} />
    </div>
  );
}
