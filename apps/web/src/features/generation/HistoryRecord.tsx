import { DownloadOutlined } from '@ant-design/icons';
import type { GenerationRecord } from '@reelsmith/contract';
import { Image, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { GenerationFailedNote } from '../../shared/progress/GenerationFailed';
import { GenerationProgress } from '../../shared/progress/GenerationProgress';
import { formatHistoryTime } from '../credits/format';
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

/** One entry of a tool's history: when and what was asked, then its progress, its result or its failure. */
export function HistoryRecord({ record: given }: { record: GenerationRecord }) {
  const record = useLiveRecord(given);
  const prompt = typeof record.input.prompt === 'string' ? record.input.prompt : null;
  return (
    <li className={styles.record} data-status={record.status} aria-label={formatHistoryTime(record.createTime)}>
      <Typography.Text type="secondary" className={styles.recordTime}>
        {formatHistoryTime(record.createTime)}
      </Typography.Text>
      {prompt && <Typography.Paragraph ellipsis={{ rows: 2, expandable: true }}>{prompt}</Typography.Paragraph>}
      {isRunning(record.status) && <GenerationProgress compact progress={record.progress} />}
      {record.status === 'SUCCESS' && <Outputs record={record} />}
      {record.status === 'FAILURE' && <GenerationFailedNote />}
    </li>
  );
}
