import { projectGetById } from '@reelsmith/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { callKey } from '../../../shared/api/queries';
import { PATHS } from '../../../shared/paths';
import { openProject } from './open';
import { PROJECT_ID_PARAM, type Stage, stageRedirect, stageUrl } from './stage';
import { currentProject, useProjectStore } from './store';
import type { Project } from './types';

export { PROJECT_ID_PARAM, stageUrl } from './stage';

/**
 * The project of the address bar for a stage's page: restored when it is not the one open, and then sent to
 * the page of its stage (spec "States and transitions"). Moving between pages of an open project keeps the user where they asked
 * to go. Without a projectId there is nothing to edit: back to the landing.
 */
export function useProjectPage(stage: Stage): Project | null {
  const [params] = useSearchParams();
  const projectId = params.get(PROJECT_ID_PARAM);
  const navigate = useNavigate();
  const project = useProjectStore((store) => store.project);

  useEffect(() => {
    if (!projectId) {
      navigate(PATHS.linkToVideo, { replace: true });
      return;
    }
    let live = true;
    void openProject(projectId).then((justOpened) => {
      const opened = currentProject();
      const target = justOpened && opened ? stageRedirect(stage, opened) : null;
      if (live && target) navigate(stageUrl(target, projectId), { replace: true });
    });
    return () => {
      live = false;
    };
  }, [projectId, stage, navigate]);

  const shown = project?.projectId === projectId ? project : null;
  useHeaderFollowsName(shown);
  return shown;
}

/**
 * The header asks the service for the project's name; when the project takes its product's name (decision
 * "Projects named after the product") its answer is asked for again.
 */
function useHeaderFollowsName(project: Project | null): void {
  const queryClient = useQueryClient();
  const seen = useRef<{ projectId: string; name: string } | null>(null);
  const projectId = project?.projectId ?? null;
  const name = project?.projectName ?? null;
  useEffect(() => {
    if (projectId === null || name === null) return;
    const before = seen.current;
    seen.current = { projectId, name };
    if (before?.projectId === projectId && before.name !== name) {
      void queryClient.invalidateQueries({ queryKey: callKey(projectGetById, { projectId }) });
    }
  }, [projectId, name, queryClient]);
}
