import { Alert, Button, Spin, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { GenerationFailed } from '../../../shared/progress/GenerationFailed';
import { GenerationProgress } from '../../../shared/progress/GenerationProgress';
import { TimeLeft } from '../../../shared/progress/TimeLeft';
import { Busy } from '../../../shared/ui/Busy';
import styles from '../flow.module.css';
import { hasGeneratedAssets } from '../project/assets';
import { projectController } from '../project/open';
import { useProjectTaskState } from '../project/taskApi';
import { isUnfinished } from '../project/types';
import { stageUrl, useProjectPage } from '../project/useProjectPage';
import { PreviewGrid } from './PreviewGrid';
import { QuickEditor } from './QuickEditor';
import { RenderButton } from './RenderButton';

/** Step three: the generated previews, the quick editor, and rendering the chosen ones. */
export function PreviewPage() {
  const { t } = useTranslation('link-to-video');
  const project = useProjectPage('preview');
  const { failure, progress, endsAt } = useProjectTaskState(project);
  const navigate = useNavigate();
  const [selected, setSelected] = useState<string[]>([]);
  const [rendering, setRendering] = useState(false);
  // The AI-generated label: on by default when a picture of the product came from the generation tools.
  const [aiLabel, setAiLabel] = useState<boolean | null>(null);

  if (!project) return <Busy />;
  const backToProduct = () => navigate(stageUrl('editProduct', project.projectId));
  const generating = project.taskPath === 'link-video' && isUnfinished(project.taskStatus);
  // Back from a running export: it is said, and Render waits for it, so nobody pays twice by not knowing.
  const exporting = project.taskPath === 'export-video' && isUnfinished(project.taskStatus);
  const preview = project.preview;
  // The previews show one by one as each lands; until the first, the progress of the whole.
  if (generating && !preview?.previewVideos.length) return <GenerationProgress progress={progress} endsAt={endsAt} />;
  if (!preview || preview.previewVideos.length === 0) {
    return failure ? <GenerationFailed onRetry={backToProduct} retryLabel={t('preview.back')} message={failure} /> : <Busy />;
  }

  const labelled = aiLabel ?? hasGeneratedAssets(project.product);
  const render = async () => {
    setRendering(true);
    try {
      await projectController()?.submitExport(selected, labelled);
      navigate(stageUrl('videoExport', project.projectId));
    } catch {
      // The API client has shown why.
      setRendering(false);
    }
  };

  return (
    <div className={styles.page}>
      <div className={styles.columns}>
        <section className={`${styles.panel} ${styles.previewsPanel}`} aria-labelledby="preview-title">
          <h2 id="preview-title" className={styles.panelTitle}>
            {t('preview.title')}
            <Button onClick={backToProduct}>{t('preview.back')}</Button>
          </h2>
          <p className={styles.hint}>{t('preview.selectHint')}</p>
          <PreviewGrid preview={preview} editedScriptId={project.editedScriptId} selected={selected} onSelect={setSelected} />
          {exporting && (
            <Alert
              type="info"
              showIcon
              role="status"
              title={t('preview.exporting')}
              action={<Button onClick={() => navigate(stageUrl('videoExport', project.projectId))}>{t('preview.seeExport')}</Button>}
            />
          )}
          {!exporting &&
            (generating ? (
              <p className={styles.hint} role="status">
                <Spin size="small" />{' '}
                {t('preview.moreComing', { ready: preview.previewVideos.length, total: project.editorConfig.resultNum ?? 3 })}
                {endsAt !== null && (
                  <>
                    {' '}
                    <TimeLeft endsAt={endsAt} />
                  </>
                )}
              </p>
            ) : (
              <>
                <div className={styles.actions}>
                  <span className={styles.aiLabel}>
                    <Switch id="ai-label" checked={labelled} onChange={setAiLabel} />
                    <label htmlFor="ai-label">{t('preview.aiLabel')}</label>
                  </span>
                  <RenderButton
                    count={selected.length}
                    seconds={project.editorConfig.videoLength ?? 15}
                    presenterSeconds={preview.previewVideos
                      .filter((video) => selected.includes(video.scriptId))
                      .reduce((sum, video) => sum + (video.presenterId ? (video.presenterSeconds ?? 0) : 0), 0)}
                    loading={rendering}
                    onRender={() => void render()}
                  />
                </div>
                <p className={styles.hint}>{t('preview.aiLabelHint')}</p>
              </>
            ))}
        </section>
        {!generating && <QuickEditor project={project} />}
      </div>
    </div>
  );
}
