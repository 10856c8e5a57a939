import { linkVideoCaptions, linkVideoMusic } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../../shared/api/queries';
import { GenerationFailedNote } from '../../../shared/progress/GenerationFailed';
import { GenerationProgress } from '../../../shared/progress/GenerationProgress';
import styles from '../flow.module.css';
import { useProjectTaskState } from '../project/taskApi';
import { isUnfinished, type Project } from '../project/types';
import { CaptionPicker } from './CaptionPicker';
import { defaultCaptionId, defaultMusicId, videoLanguage } from './defaults';
import { EditorChoice } from './EditorChoice';
import { PresenterChoice } from './PresenterChoice';
import { SamplePlayer } from './SamplePlayer';
import { ScriptEditor } from './ScriptEditor';
import { TemplateChoice } from './TemplateChoice';
import { VoicePicker } from './VoicePicker';

/**
 * The quick editor of the edited video (spec "Screens and routes" screen 3): script, template, presenter, voice,
 * music and subtitle style, autosaved; a template chosen re-renders the video at once. Each choice opens on the video's
 * current one: the editor config's, else the default the service renders with.
 */
export function QuickEditor({ project }: { project: Project }) {
  const { t } = useTranslation('link-to-video');
  const { failure, progress, endsAt } = useProjectTaskState(project);
  const scriptId = project.editedScriptId;
  const script = project.preview?.scriptContentList.find((item) => item.scriptId === scriptId);
  const updating = project.taskPath === 'script-update' && isUnfinished(project.taskStatus);
  const presenterOnCamera = Boolean(project.preview?.previewVideos.find((item) => item.scriptId === scriptId)?.presenterId);
  const language = videoLanguage(project);
  const music = useQuery(callQuery(linkVideoMusic));
  // The previews say their sample line in the video's language.
  const captions = useQuery(callQuery(linkVideoCaptions, { query: { language } }));
  // Recommended tracks first.
  const tracks = [...(music.data ?? [])].sort((a, b) => Number(b.recommended) - Number(a.recommended));
  const { editorConfig } = project;
  return (
    <aside className={styles.page} aria-label={t('editor.title')}>
      {/* Lip sync is a presenter's: an ad without one has nothing to say about it. */}
      {presenterOnCamera ? (
        <Alert type="info" showIcon title={t('editor.lipSyncNote')} description={t('editor.autosaved')} />
      ) : (
        <Alert type="info" showIcon title={t('editor.autosaved')} />
      )}
      {updating && <GenerationProgress progress={progress} endsAt={endsAt} />}
      {failure && project.taskPath === 'script-update' && project.taskStatus === 'FAILURE' && <GenerationFailedNote message={failure} />}
      {scriptId && <ScriptEditor key={scriptId} segments={script?.segments ?? []} updating={updating} />}
      {scriptId && <TemplateChoice key={`template-${scriptId}`} project={project} updating={updating} />}
      {scriptId && <PresenterChoice key={`presenter-${scriptId}`} project={project} updating={updating} />}
      <VoicePicker voiceId={editorConfig.voiceId} language={language} />
      <EditorChoice
        field="musicId"
        title={t('editor.music')}
        value={editorConfig.musicId ?? defaultMusicId(tracks)}
        loading={music.isPending}
        choices={tracks.map((track) => ({
          value: track.musicId,
          label: track.name,
          content: (
            <>
              {track.name} {track.recommended && <Tag color="green">{t('editor.recommended')}</Tag>}
              <SamplePlayer url={track.sampleUrl} label={track.name} />
            </>
          ),
        }))}
      />
      <CaptionPicker
        captions={captions.data ?? []}
        value={editorConfig.captionId ?? defaultCaptionId(captions.data ?? [])}
        loading={captions.isPending}
      />
    </aside>
  );
}
