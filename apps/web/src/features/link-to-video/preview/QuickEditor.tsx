import { linkVideoCaptions, linkVideoMusic } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../../shared/api/queries';
import { GenerationFailedNote } from '../../../shared/progress/GenerationFailed';
import { GenerationProgress } from '../../../shared/progress/GenerationProgress';
import styles from '../flow.module.css';
import { useProjectStore } from '../project/store';
import { isUnfinished, type Project } from '../project/types';
import { EditorChoice } from './EditorChoice';
import { SamplePlayer } from './SamplePlayer';
import { ScriptEditor } from './ScriptEditor';
import { TemplateChoice } from './TemplateChoice';
import { VoicePicker } from './VoicePicker';

/**
 * The quick editor of the edited video (spec "Screens and routes" screen 3): script, template, voice, music and
 * subtitle style, autosaved; a template chosen re-renders the video at once.
 */
export function QuickEditor({ project }: { project: Project }) {
  const { t } = useTranslation('link-to-video');
  const failure = useProjectStore((store) => store.failure);
  const progress = useProjectStore((store) => store.progress);
  const scriptId = project.editedScriptId;
  const script = project.preview?.scriptContentList.find((item) => item.scriptId === scriptId);
  const updating = project.taskPath === 'script-update' && isUnfinished(project.taskStatus);
  const music = useQuery(callQuery(linkVideoMusic));
  const captions = useQuery(callQuery(linkVideoCaptions));
  // Recommended tracks first.
  const tracks = [...(music.data ?? [])].sort((a, b) => Number(b.recommended) - Number(a.recommended));
  return (
    <aside className={styles.page} aria-label={t('editor.title')}>
      <Alert type="info" showIcon title={t('editor.lipSyncNote')} description={t('editor.autosaved')} />
      {updating && <GenerationProgress progress={progress} />}
      {failure && project.taskPath === 'script-update' && project.taskStatus === 'FAILURE' && <GenerationFailedNote />}
      {scriptId && <ScriptEditor key={scriptId} segments={script?.segments ?? []} updating={updating} />}
      {scriptId && <TemplateChoice key={`template-${scriptId}`} project={project} updating={updating} />}
      <VoicePicker voiceId={project.editorConfig.voiceId} />
      <EditorChoice
        field="musicId"
        title={t('editor.music')}
        value={project.editorConfig.musicId}
        loading={music.isPending}
        choices={tracks.map((track) => ({
          value: track.musicId,
          content: (
            <>
              {track.name} {track.recommended && <Tag color="green">{t('editor.recommended')}</Tag>}
              <SamplePlayer url={track.sampleUrl} label={track.name} />
            </>
          ),
        }))}
      />
      <EditorChoice
        field="captionId"
        title={t('editor.subtitle')}
        value={project.editorConfig.captionId}
        loading={captions.isPending}
        choices={(captions.data ?? []).map((caption) => ({
          value: caption.captionId,
          label: caption.name,
          content: caption.previewUrl ? <img className={styles.captionImage} src={caption.previewUrl} alt={caption.name} /> : caption.name,
        }))}
      />
    </aside>
  );
}
