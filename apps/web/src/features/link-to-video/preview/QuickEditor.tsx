import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { GenerationFailedNote } from '../../../shared/progress/GenerationFailed';
import { GenerationProgress } from '../../../shared/progress/GenerationProgress';
import styles from '../flow.module.css';
import { useProjectStore } from '../project/store';
import { isUnfinished, type Project } from '../project/types';
import { CaptionPicker } from './CaptionPicker';
import { MusicPicker } from './MusicPicker';
import { ScriptEditor } from './ScriptEditor';
import { VoicePicker } from './VoicePicker';

/** The quick editor of the edited video (spec §2 screen 3): script, voice, music and subtitle style, autosaved. */
export function QuickEditor({ project }: { project: Project }) {
  const { t } = useTranslation('link-to-video');
  const failure = useProjectStore((store) => store.failure);
  const progress = useProjectStore((store) => store.progress);
  const scriptId = project.editedScriptId;
  const script = project.preview?.scriptContentList.find((item) => item.scriptId === scriptId);
  const updating = project.taskPath === 'script-update' && isUnfinished(project.taskStatus);
  return (
    <aside className={styles.page} aria-label={t('editor.title')}>
      <Alert type="info" showIcon title={t('editor.lipSyncNote')} description={t('editor.autosaved')} />
      {updating && <GenerationProgress progress={progress} />}
      {failure && project.taskPath === 'script-update' && project.taskStatus === 'FAILURE' && <GenerationFailedNote />}
      {scriptId && <ScriptEditor key={scriptId} segments={script?.segments ?? []} updating={updating} />}
      <VoicePicker voiceId={project.editorConfig.voiceId} />
      <MusicPicker musicId={project.editorConfig.musicId} />
      <CaptionPicker captionId={project.editorConfig.captionId} />
    </aside>
  );
}
