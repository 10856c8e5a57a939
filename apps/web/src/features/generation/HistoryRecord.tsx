import { DownloadOutlined } from '@ant-design/icons';
import { type CallData, ERRORS, type GenerationRecord, taskCancel } from '@reelsmith/contract';
import { Alert, Button, Image, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../shared/api/client';
import { StandInTag } from '../../shared/library/StandInTag';
import { GenerationFailedNote } from '../../shared/progress/GenerationFailed';
import { GenerationProgress } from '../../shared/progress/GenerationProgress';
import { toast } from '../../shared/ui/toast';
import { formatHistoryTime, refreshCredits } from '../credits';
import styles from './generation.module.css';
import { isRunning, makesVideos } from './history';
import { useLiveRecord } from './useLiveRecord';

type Output = GenerationRecord['outputs'][number];

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The name a download is saved under: the tool, when it was made (local time) and which of its outputs, with the
 * stored file's extension, e.g. `reelsmith-text-to-image-20261129-2041-2.png`; the stored name is a random id.
 */
export function downloadName(record: Pick<GenerationRecord, 'tool' | 'createTime'>, output: Output, index: number): string {
  const made = new Date(record.createTime);
  const stamp = `${made.getFullYear()}${pad(made.getMonth() + 1)}${pad(made.getDate())}-${pad(made.getHours())}${pad(made.getMinutes())}`;
  const extension = /\.(\w+)$/.exec(output.resKey)?.[1];
  return `reelsmith-${record.tool}-${stamp}-${index + 1}${extension ? `.${extension}` : ''}`;
}

function Download({ output, name }: { output: Output; name: string }) {
  const { t } = useTranslation('generation');
  return (
    <a className={styles.download} href={output.url} download={name} aria-label={t('history.download')}>
      <DownloadOutlined /> {t('history.download')}
    </a>
  );
}

/** What a record made: pictures that enlarge on click, videos that play. */
function Outputs({ record }: { record: GenerationRecord }) {
  const { t } = useTranslation('generation');
  if (makesVideos(record.tool)) {
    return (
      <ul className={styles.outputs}>
        {record.outputs.map((output, index) => (
          <li key={output.resKey}>
            {/* biome-ignore lint/a11y/useMediaCaption: generated videos come without captions */}
            <video
              className={styles.video}
              src={output.url}
              poster={output.posterUrl}
              controls
              preload="metadata"
              aria-label={t('history.video', { n: index + 1 })}
            />
            <Download output={output} name={downloadName(record, output, index)} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <Image.PreviewGroup>
      <ul className={styles.outputs}>
        {record.outputs.map((output, index) => (
          <li key={output.resKey}>
            <Image className={styles.image} src={output.url} alt={t('history.image', { n: index + 1 })} />
            <Download output={output} name={downloadName(record, output, index)} />
          </li>
        ))}
      </ul>
    </Image.PreviewGroup>
  );
}

/** How a cancel ended: the task stopped with its credits returned, or it had already finished (too late). */
type CancelOutcome = 'cancelled' | 'tooLate';

/**
 * Stops a running generation. The service ends it at once and answers its state, FAILURE with its credits
 * returned, or refuses with taskNotCancellable: it has just finished (decision "Cancel is decided with completion").
 * Either way the user is told at once, in a message and in the row; any other refusal is the service's own message.
 */
function CancelButton({
  record,
  onCancelled,
  onTooLate,
}: {
  record: GenerationRecord;
  onCancelled: (answer: CallData<ReturnType<typeof taskCancel>>) => void;
  onTooLate: () => void;
}) {
  const { t } = useTranslation('generation');
  const [cancelling, setCancelling] = useState(false);
  const cancel = async () => {
    setCancelling(true);
    try {
      const answer = await api(taskCancel(record.tool), { body: { taskId: record.taskId }, silent: true });
      // Only a task the cancel ended answers FAILURE; any other state has gone on, and the row shows where to.
      if (answer.status !== 'FAILURE') return onTooLate();
      toast.success(t('history.cancelled'));
      void refreshCredits();
      onCancelled(answer);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === ERRORS.taskNotCancellable.code) return onTooLate();
      toast.error(error.message);
      setCancelling(false);
    }
  };
  return (
    <Button size="small" className={styles.cancel} loading={cancelling} onClick={cancel}>
      {t('history.cancel')}
    </Button>
  );
}

/** A record ended by a cancel, told by its outcome here or, reloaded, by the service's cancelled message. */
function wasCancelled(record: GenerationRecord, outcome: CancelOutcome | null, cancelledMessage: string): boolean {
  return record.status === 'FAILURE' && (outcome === 'cancelled' || record.error === cancelledMessage);
}

/**
 * One entry of a tool's history: when and what was asked (and in which mode, on a page of several), then its
 * progress, its result or its failure. The entry of a task just submitted scrolls into view below the sticky header.
 */
export function HistoryRecord({ record: given, label, isNew }: { record: GenerationRecord; label: string | null; isNew: boolean }) {
  const { t } = useTranslation(['generation', 'errors']);
  const [record, settle] = useLiveRecord(given);
  const [outcome, setOutcome] = useState<CancelOutcome | null>(null);
  const entry = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (isNew) entry.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [isNew]);
  const tooLate = () => {
    toast.info(t('history.tooLate'));
    setOutcome('tooLate');
  };
  // What was asked, in the user's words: a prompt, or the script an avatar says.
  const asked = [record.input.prompt, record.input.script].find((value) => typeof value === 'string');
  const prompt = typeof asked === 'string' ? asked : null;
  const cancelled = wasCancelled(record, outcome, t('errors:taskCancelled'));
  return (
    <li ref={entry} className={styles.record} data-status={record.status} aria-label={formatHistoryTime(record.createTime)}>
      <div className={styles.recordHead}>
        <Typography.Text type="secondary" className={styles.recordTime}>
          {formatHistoryTime(record.createTime)}
        </Typography.Text>
        <span className={styles.recordTags}>
          {record.status === 'SUCCESS' && record.standIn && <StandInTag className={styles.recordMode} />}
          {label && <Tag className={styles.recordMode}>{label}</Tag>}
        </span>
      </div>
      {prompt && <Typography.Paragraph ellipsis={{ rows: 2, expandable: true }}>{prompt}</Typography.Paragraph>}
      {isRunning(record.status) && <GenerationProgress compact progress={record.progress} endsAt={record.endsAt} />}
      {isRunning(record.status) && outcome === null && (
        <CancelButton
          record={record}
          onCancelled={(answer) => {
            setOutcome('cancelled');
            settle(answer);
          }}
          onTooLate={tooLate}
        />
      )}
      {outcome === 'tooLate' && <Typography.Text type="secondary">{t('history.tooLate')}</Typography.Text>}
      {record.status === 'SUCCESS' && <Outputs record={record} />}
      {cancelled && <Alert type="info" showIcon title={t('history.cancelled')} />}
      {record.status === 'FAILURE' && !cancelled && <GenerationFailedNote message={record.error} />}
    </li>
  );
}
