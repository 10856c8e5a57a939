import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { GenerationFailed } from '../../../shared/progress/GenerationFailed';
import { GenerationProgress } from '../../../shared/progress/GenerationProgress';
import { Busy } from '../../../shared/ui/Busy';
import styles from '../flow.module.css';
import { projectController } from '../project/open';
import { useProjectStore } from '../project/store';
import { isUnfinished } from '../project/types';
import { stageUrl, useProjectPage } from '../project/useProjectPage';
import { PreviewGrid } from './PreviewGrid';
import { QuickEditor } from './QuickEditor';

/** Step three: the generated previews, the quick editor, and rendering the chosen ones. */
export function PreviewPage() {
  const { t } = useTranslation('link-to-video');
  const project = useProjectPage('preview');
  const failure = useProjectStore((store) => store.failure);
  const progress = useProjectStore((store) => store.progress);
  const navigate = useNavigate();
  const [selected, setSelected] = useState<string[]>([]);
  const [rendering, setRendering] = useState(false);

  if (!project) return <Busy />;
  const backToProduct = () => navigate(stageUrl('editProduct', project.projectId));
  const generating = project.taskPath === 'link-video' && isUnfinished(project.taskStatus);
  if (generating) return <GenerationProgress progress={progress} />;
  const preview = project.preview;
  if (!preview || preview.previewVideos.length === 0) {
    return failure ? <GenerationFailed onRetry={backToProduct} retryLabel={t('preview.back')} /> : <Busy />;
  }

  const render = async () => {
    setRendering(true);
    try {
      await projectController()?.submitExport(selected);
      navigate(stageUrl('videoExport', project.projectId));
    } catch {
      // The API client has shown why.
      setRendering(false);
    }
  };

  return (
    <div className={styles.page}>
      <div className={styles.columns}>
        <section className={styles.panel} aria-labelledby="preview-title">
          <h2 id="preview-title" className={styles.panelTitle}>
            {t('preview.title')}
            <Button onClick={backToProduct}>{t('preview.back')}</Button>
          </h2>
          <p className={styles.hint}>{t('preview.selectHint')}</p>
          <PreviewGrid preview={preview} editedScriptId={project.editedScriptId} selected={selected} onSelect={setSelected} />
          <div className={styles.actions}>
            <Button type="primary" size="large" disabled={selected.length === 0} loading={rendering} onClick={render}>
              {t('preview.render', { count: selected.length })}
            </Button>
          </div>
        </section>
        <QuickEditor project={project} />
      </div>
    </div>
  );
}
