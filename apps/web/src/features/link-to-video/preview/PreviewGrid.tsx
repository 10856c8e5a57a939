import { Button, Checkbox } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from '../flow.module.css';
import { projectController } from '../project/open';
import type { Preview } from '../project/types';
import { useTemplateName } from '../templates/TemplatePicker';

/** The generated previews, each with its template: each can be chosen for rendering and opened in the quick editor. */
export function PreviewGrid({
  preview,
  editedScriptId,
  selected,
  onSelect,
}: {
  preview: Preview;
  editedScriptId: string | null;
  selected: string[];
  onSelect: (scriptIds: string[]) => void;
}) {
  const { t } = useTranslation('link-to-video');
  const templateName = useTemplateName();
  const toggle = (scriptId: string, on: boolean) => onSelect(on ? [...selected, scriptId] : selected.filter((id) => id !== scriptId));
  return (
    <ul className={styles.previewGrid} aria-label={t('preview.title')}>
      {preview.previewVideos.map((video, index) => {
        const label = t('preview.video', { number: index + 1 });
        return (
          <li key={video.resKey} className={styles.previewCard} data-edited={video.scriptId === editedScriptId}>
            {/* biome-ignore lint/a11y/useMediaCaption: the subtitles are burnt into the picture */}
            <video src={video.videoUrl} controls preload="metadata" aria-label={label} />
            {video.templateId && (
              <span className={styles.templateLabel}>{t('templates.label', { name: templateName(video.templateId) })}</span>
            )}
            {video.presenterId && (
              <span className={styles.templateLabel}>{t('presenter.onCamera', { seconds: video.presenterSeconds ?? 0 })}</span>
            )}
            <div className={styles.previewFooter}>
              <Checkbox checked={selected.includes(video.scriptId)} onChange={(event) => toggle(video.scriptId, event.target.checked)}>
                {label}
              </Checkbox>
              <Button
                size="small"
                disabled={video.scriptId === editedScriptId}
                onClick={() => projectController()?.editVideo(video.scriptId)}
              >
                {video.scriptId === editedScriptId ? t('preview.editing') : t('preview.edit')}
              </Button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
