import { LINK_VIDEO_LENGTHS } from '@reelsmith/contract';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from '../flow.module.css';
import { projectController } from '../project/open';
import type { Project } from '../project/types';
import { TemplatePicker } from '../templates/TemplatePicker';
import { useTemplateThumbnails } from '../templates/thumbnails';

const RATIOS = ['9:16', '1:1', '16:9'] as const;

/**
 * The video's length (15, 30 or 45 s, spec "Business constants"), shape and template: automatic (each preview a
 * different one) unless the user picks one (decision "Template picker").
 */
export function VideoSettings({ project }: { project: Project }) {
  const { t } = useTranslation('link-to-video');
  const { editorConfig } = project;
  const aspectRatio = editorConfig.aspectRatio ?? '9:16';
  const { thumbnails } = useTemplateThumbnails(project);
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
        value={aspectRatio}
        options={[...RATIOS]}
        onChange={(ratio) => projectController()?.patchEditorConfig({ aspectRatio: ratio })}
      />
      <span id="settings-template" className={styles.hint}>
        {t('templates.title')}
      </span>
      <TemplatePicker
        group="settings-template"
        labelledBy="settings-template"
        automatic
        value={editorConfig.templateId}
        onChange={(templateId) => projectController()?.patchEditorConfig({ templateId })}
        thumbnails={thumbnails}
        aspectRatio={aspectRatio}
      />
      <p className={styles.hint}>{editorConfig.templateId ? t('templates.chosenHint') : t('templates.automaticHint')}</p>
    </section>
  );
}
