import { DownloadOutlined } from '@ant-design/icons';
import type { ExportVideo } from '@reelsmith/contract';
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { GenerationFailed } from '../../../shared/progress/GenerationFailed';
import { GenerationProgress } from '../../../shared/progress/GenerationProgress';
import { Busy } from '../../../shared/ui/Busy';
import styles from '../flow.module.css';
import { useProjectTaskState } from '../project/taskApi';
import { isUnfinished, type Project } from '../project/types';
import { stageUrl, useProjectPage } from '../project/useProjectPage';
import { useTemplateName } from '../templates/TemplatePicker';
import own from './export.module.css';

const SHAPE = { '9:16': own.portrait, '1:1': own.square, '16:9': own.landscape } as const;

/** One export: its label, length and template, Download in view above it, the video at its own shape. */
function ExportCard({ video, number, project }: { video: z.infer<typeof ExportVideo>; number: number; project: Project }) {
  const { t } = useTranslation('link-to-video');
  const templateName = useTemplateName();
  const shape = video.aspectRatio ?? project.editorConfig.aspectRatio ?? '9:16';
  const seconds = video.seconds ?? project.editorConfig.videoLength ?? 15;
  const label = t('preview.video', { number });
  return (
    <section className={`${styles.panel} ${own.card}`} aria-label={label}>
      <div className={own.head}>
        <div className={own.label}>
          <span>{label}</span>
          <span className={styles.hint}>
            {[t('settings.seconds', { seconds }), video.templateId && t('templates.label', { name: templateName(video.templateId) })]
              .filter(Boolean)
              .join(' · ')}
          </span>
        </div>
        <Button type="primary" icon={<DownloadOutlined />} href={video.downloadUrl ?? video.videoUrl} download={video.fileName ?? true}>
          {t('export.download')}
        </Button>
      </div>
      {/* biome-ignore lint/a11y/useMediaCaption: the subtitles are burnt into the picture */}
      <video
        className={`${own.video} ${SHAPE[shape]}`}
        // From a moment in, so the card shows the ad's opening picture rather than a black first frame.
        src={`${video.videoUrl}#t=0.5`}
        controls
        preload="metadata"
        playsInline
      />
    </section>
  );
}

/** The last step: the exported videos, each with its template, ready to download (spec "States and transitions"). */
export function VideoExportPage() {
  const { t } = useTranslation('link-to-video');
  const project = useProjectPage('videoExport');
  const { failure, progress, endsAt } = useProjectTaskState(project);
  const navigate = useNavigate();

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
      <div className={own.exports}>
        {videos.map((video, index) => (
          // Numbered as the preview it was made from (and its file name), not by its place in this list.
          <ExportCard key={video.resKey} video={video} number={video.previewNumber ?? index + 1} project={project} />
        ))}
      </div>
      {rendering && <GenerationProgress progress={progress} endsAt={endsAt} />}
      {!rendering && failure && <GenerationFailed onRetry={backToPreview} retryLabel={t('export.backToPreview')} message={failure} />}
    </div>
  );
}
