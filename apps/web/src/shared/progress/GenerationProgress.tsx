import { ProgressStage } from '@reelsmith/contract';
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './progress.module.css';
import { TimeLeft } from './TimeLeft';

/**
 * The six progress messages of spec "States and transitions" in order: those passed, the current one, those to come,
 * then how long the work should still take when the server can tell (`endsAt`, on this browser's clock: decision
 * "Progress estimates"). Link to video and every generation tool show the same list; `compact` fits it in a history
 * row.
 */
export function GenerationProgress({
  progress,
  endsAt = null,
  compact = false,
}: {
  progress: ProgressStage | null | undefined;
  endsAt?: number | null | undefined;
  compact?: boolean;
}) {
  const { t } = useTranslation('progress');
  const current = ProgressStage.options.indexOf(progress ?? 'parsing');
  return (
    <div className={compact ? styles.compact : styles.centered} role="status" aria-live="polite">
      <Spin size={compact ? 'small' : 'large'} />
      <div className={styles.body}>
        <ol className={styles.stages}>
          {ProgressStage.options.map((stage, index) => (
            <li key={stage} className={styles.stage} data-state={index < current ? 'done' : index === current ? 'current' : 'next'}>
              {t(stage)}
            </li>
          ))}
        </ol>
        {endsAt !== null && <TimeLeft endsAt={endsAt} className={styles.timeLeft} />}
      </div>
    </div>
  );
}
