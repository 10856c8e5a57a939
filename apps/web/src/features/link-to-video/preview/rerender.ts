import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../shared/ui/toast';
import { projectController } from '../project/open';
import type { Project } from '../project/types';

/** What choosing in the quick editor re-renders the edited video with at once. */
export type Rerender = Parameters<NonNullable<ReturnType<typeof projectController>>['submitScriptUpdate']>[1];

/**
 * The edited video and a choice that re-renders it at once (a template, a presenter): a script update carrying the
 * choice, with the script as it stands and the voice, music and subtitle style chosen so far. Until the new video
 * lands `chosen` holds the choice, so it shows as made; once the update ends (or fails) the video itself says.
 */
export function useRerender<C extends Rerender>(project: Project, updating: boolean) {
  const { t } = useTranslation('link-to-video');
  const [chosen, setChosen] = useState<C | null>(null);
  useEffect(() => {
    if (!updating) setChosen(null);
  }, [updating]);
  const video = project.preview?.previewVideos.find((item) => item.scriptId === project.editedScriptId);
  const segments = project.preview?.scriptContentList.find((item) => item.scriptId === project.editedScriptId)?.segments ?? [];

  const rerender = async (choice: C) => {
    if (!segments.some((segment) => segment.segText.trim())) {
      toast.error(t('editor.scriptRequired'));
      return;
    }
    setChosen(choice);
    try {
      await projectController()?.submitScriptUpdate(segments, choice);
    } catch {
      // The API client has shown why; the video keeps what it had.
      setChosen(null);
    }
  };
  return { video, chosen: updating ? chosen : null, rerender };
}
