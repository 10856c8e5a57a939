import type { TemplateId } from '@reelsmith/contract';
import { useTranslation } from 'react-i18next';
import styles from '../flow.module.css';
import type { Project } from '../project/types';
import { TemplatePicker } from '../templates/TemplatePicker';
import { useTemplateThumbnails } from '../templates/thumbnails';
import { useRerender } from './rerender';

/**
 * The edited video's template in the quick editor (decision "Template picker"): the one it was made in is
 * selected, and choosing another re-renders this video in it at once, with its script as it stands and the
 * voice, music and subtitle style chosen so far (a script update carrying the template). Until the new video
 * lands, the choice shows as made and the picker waits.
 */
export function TemplateChoice({ project, updating }: { project: Project; updating: boolean }) {
  const { t } = useTranslation('link-to-video');
  const { thumbnails } = useTemplateThumbnails(project);
  const { video, chosen, rerender } = useRerender<{ templateId: TemplateId }>(project, updating);
  if (!video) return null;
  const choose = (templateId: TemplateId | undefined) =>
    templateId && templateId !== video.templateId ? rerender({ templateId }) : Promise.resolve();

  return (
    <section className={styles.panel} aria-labelledby="template-choice-title">
      <h3 id="template-choice-title" className={styles.panelTitle}>
        {t('templates.title')}
      </h3>
      <TemplatePicker
        group="editor-template"
        labelledBy="template-choice-title"
        value={chosen?.templateId ?? video.templateId}
        onChange={choose}
        thumbnails={thumbnails}
        aspectRatio={project.editorConfig.aspectRatio ?? '9:16'}
        actions
        disabled={updating}
      />
      <p className={styles.hint}>{t('templates.rerenderHint')}</p>
    </section>
  );
}
