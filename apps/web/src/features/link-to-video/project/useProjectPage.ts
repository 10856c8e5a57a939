import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
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

  return project?.projectId === projectId ? project : null;
}
