import { ProgressStage } from '@reelsmith/contract';
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from '../flow.module.css';
import { useProjectStore } from '../project/store';

/** The six progress messages of spec §4 in order: those passed, the current one, those to come. */
export function GenerationProgress() {
  const { t } = useTranslation('link-to-video');
  const progress = useProjectStore((store) => store.progress);
  const current = ProgressStage.options.indexOf(progress ?? 'parsing');
  return (
    <div className={styles.centered} role="status" aria-live="polite">
      <Spin size="large" />
      <ol className={styles.stages}>
        {ProgressStage.options.map((stage, index) => (
          <li key={stage} className={styles.stage} data-state={index < current ? 'done' : index === current ? 'current' : 'next'}>
            {t(`progress.${stage}`)}
          </li>
        ))}
      </ol>
    </div>
  );
}
