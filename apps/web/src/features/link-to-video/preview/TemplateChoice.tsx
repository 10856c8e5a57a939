import type { TemplateId } from '@reelsmith/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../shared/ui/toast';
import styles from '../flow.module.css';
import { projectController } from '../project/open';
import type { Project } from '../project/types';
import { TemplatePicker } from '../templates/TemplatePicker';
import { useTemplateThumbnails } from '../templates/thumbnails';

/**
 * The edited video's template in the quick editor (decision "Template picker"): the one it was made in is
 * selected, and choosing another re-renders this video in it at once, with its script as it stands and the
 * voice, music and subtitle style chosen so far (a script update carrying the template). Until the new video
 * lands, the choice shows as made and the picker waits.
 */
export function TemplateChoice({ project, updating }: { project: Project; updating: boolean }) {
  const { t } = useTranslation('link-to-video');
  const { thumbnails } = useTemplateThumbnails(project);
  const [chosen, setChosen] = useState<TemplateId | null>(null);
  // Once the update has ended (or failed), the video itself says which template it is in.
  useEffect(() => {
    if (!updating) setChosen(null);
  }, [updating]);
  const video = project.preview?.previewVideos.find((item) => item.scriptId === project.editedScriptId);
  const segments = project.preview?.scriptContentList.find((item) => item.scriptId === project.editedScriptId)?.segments ?? [];
  if (!video) return null;

  const choose = async (templateId: TemplateId | undefined) => {
    if (!templateId || templateId === video.templateId) return;
    if (!segments.some((segment) => segment.segText.trim())) {
      toast.error(t('editor.scriptRequired'));
      return;
    }
    setChosen(templateId);
    try {
      await projectController()?.submitScriptUpdate(segments, templateId);
    } catch {
      // The API client has shown why; the video keeps its template.
      setChosen(null);
    }
  };

  return (
    <section className={styles.panel} aria-labelledby="template-choice-title">
      <h3 id="template-choice-title" className={styles.panelTitle}>
        {t('templates.title')}
      </h3>
      <TemplatePicker
        group="editor-template"
        labelledBy="template-choice-title"
        value={updating && chosen ? chosen : video.templateId}
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
