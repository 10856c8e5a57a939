import { DownloadOutlined } from '@ant-design/icons';
import { type GenerationRecord, taskCancel } from '@reelsmith/contract';
import { Button, Image, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client';
import { GenerationFailedNote } from '../../shared/progress/GenerationFailed';
import { GenerationProgress } from '../../shared/progress/GenerationProgress';
import { formatHistoryTime } from '../credits';
import styles from './generation.module.css';
import { isRunning, makesVideos } from './history';
import { useLiveRecord } from './useLiveRecord';

type Output = GenerationRecord['outputs'][number];

/** The name a download is saved under: the stored file's own name. */
const fileNameOf = (output: Output) => output.resKey.split('/').pop() ?? output.resKey;

function Download({ output }: { output: Output }) {
  const { t } = useTranslation('generation');
  return (
    <a className={styles.download} href={output.url} download={fileNameOf(output)} aria-label={t('history.download')}>
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
            <Download output={output} />
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
            <Download output={output} />
          </li>
        ))}
      </ul>
    </Image.PreviewGroup>
  );
}

/**
 * Stops a running generation. The service ends it at once and returns its credits, or answers that it is too late
 * (it has just finished; decision "Cancel is decided with completion"); the record's poll then sees how it ended.
 * A refused cancel is toasted like any API error, and the row goes on to show the result.
 */
function CancelButton({ record, onCancelled }: { record: GenerationRecord; onCancelled: () => void }) {
  const { t } = useTranslation('generation');
  const [cancelling, setCancelling] = useState(false);
  const cancel = () => {
    setCancelling(true);
    api(taskCancel(record.tool), { body: { taskId: record.taskId } }).then(onCancelled, () => setCancelling(false));
  };
  return (
    <Button size="small" className={styles.cancel} loading={cancelling} onClick={cancel}>
      {t('history.cancel')}
    </Button>
  );
}

/** One entry of a tool's history: when and what was asked, then its progress, its result or its failure. */
export function HistoryRecord({ record: given }: { record: GenerationRecord }) {
  const record = useLiveRecord(given);
  const [cancelled, setCancelled] = useState(false);
  const prompt = typeof record.input.prompt === 'string' ? record.input.prompt : null;
  return (
    <li className={styles.record} data-status={record.status} aria-label={formatHistoryTime(record.createTime)}>
      <Typography.Text type="secondary" className={styles.recordTime}>
        {formatHistoryTime(record.createTime)}
      </Typography.Text>
      {prompt && <Typography.Paragraph ellipsis={{ rows: 2, expandable: true }}>{prompt}</Typography.Paragraph>}
      {isRunning(record.status) && <GenerationProgress compact progress={record.progress} />}
      {isRunning(record.status) && !cancelled && <CancelButton record={record} onCancelled={() => setCancelled(true)} />}
      {record.status === 'SUCCESS' && <Outputs record={record} />}
      {record.status === 'FAILURE' && <GenerationFailedNote cancelled={cancelled} />}
    </li>
  );
}
