import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { GenerationFailed } from '../../../shared/progress/GenerationFailed';
import { GenerationProgress } from '../../../shared/progress/GenerationProgress';
import { Busy } from '../../../shared/ui/Busy';
import styles from '../flow.module.css';
import { useProjectStore } from '../project/store';
import { isUnfinished } from '../project/types';
import { stageUrl, useProjectPage } from '../project/useProjectPage';
import { useTemplateName } from '../templates/TemplatePicker';

/** The last step: the exported videos, each with its template, ready to download (spec "States and transitions"). */
export function VideoExportPage() {
  const { t } = useTranslation('link-to-video');
  const project = useProjectPage('videoExport');
  const failure = useProjectStore((store) => store.failure);
  const progress = useProjectStore((store) => store.progress);
  const navigate = useNavigate();
  const templateName = useTemplateName();

  if (!project) return <Busy />;
  const backToPreview = () => navigate(stageUrl('preview', project.projectId));
  const videos = project.exports?.exportVideos ?? [];
  const rendering = project.taskPath === 'export-video' && isUnfinished(project.taskStatus);

  return (
    <div className={styles.page}>
      <h2 className={styles.panelTitle}>
        {t('export.title')}
        <Button onClick={backToPreview}>{t('export.backToPreview')}</Button>
      </h2>
      {videos.length > 0 && <Alert type="success" showIcon title={t('export.ready')} />}
      {videos.map((video, index) => (
        <section key={video.resKey} className={styles.panel} aria-label={t('preview.video', { number: index + 1 })}>
          {/* biome-ignore lint/a11y/useMediaCaption: the subtitles are burnt into the picture */}
          <video className={styles.exportVideo} src={video.videoUrl} controls preload="metadata" />
          <div className={styles.previewFooter}>
            <span className={styles.templateLabel}>
              {video.templateId && t('templates.label', { name: templateName(video.templateId) })}
            </span>
            <Button type="primary" icon={<DownloadOutlined />} href={video.videoUrl} download>
              {t('export.download')}
            </Button>
          </div>
        </section>
      ))}
      {rendering && <GenerationProgress progress={progress} />}
      {!rendering && failure && <GenerationFailed onRetry={backToPreview} retryLabel={t('export.backToPreview')} />}
    </div>
  );
}
