import { type EditorConfig, LINK_VIDEO_LENGTHS } from '@reelsmith/contract';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import styles from '../flow.module.css';
import { projectController } from '../project/open';

const RATIOS = ['9:16', '1:1', '16:9'] as const;

/** The video's length (15, 30 or 45 s, spec "Business constants") and shape. */
export function VideoSettings({ editorConfig }: { editorConfig: z.input<typeof EditorConfig> }) {
  const { t } = useTranslation('link-to-video');
  return (
    <section className={styles.panel} aria-labelledby="settings-title">
      <h2 id="settings-title" className={styles.panelTitle}>
        {t('settings.title')}
      </h2>
      <span className={styles.hint}>{t('settings.length')}</span>
      <Segmented
        value={editorConfig.videoLength ?? 15}
        options={LINK_VIDEO_LENGTHS.map((seconds) => ({ value: seconds, label: t('settings.seconds', { seconds }) }))}
        onChange={(videoLength) => projectController()?.patchEditorConfig({ videoLength })}
      />
      <span className={styles.hint}>{t('settings.ratio')}</span>
      <Segmented
        value={editorConfig.aspectRatio ?? '9:16'}
        options={[...RATIOS]}
        onChange={(aspectRatio) => projectController()?.patchEditorConfig({ aspectRatio })}
      />
    </section>
  );
}
