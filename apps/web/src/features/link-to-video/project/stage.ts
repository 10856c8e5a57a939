import { PATHS } from '../../../shared/paths';
import { isUnfinished, type Project } from './types';

/** The three pages of a project, each showing one stage of its work. */
export type Stage = 'editProduct' | 'preview' | 'videoExport';

export const STAGE_PATHS: Record<Stage, string> = {
  editProduct: PATHS.editProduct,
  preview: PATHS.preview,
  videoExport: PATHS.videoExport,
};

export const PROJECT_ID_PARAM = 'projectId';

/** The address of a stage's page for a project (here, not in useProjectPage, so the landing takes it without the project's code). */
export const stageUrl = (stage: Stage, projectId: string) =>
  `${STAGE_PATHS[stage]}?${new URLSearchParams({ [PROJECT_ID_PARAM]: projectId })}`;

/**
 * A preview exists once videos came back, and also while they are being made: a reload during generation
 * must stay on the page that shows its progress rather than bounce back a stage.
 */
export function hasPreview(project: Project): boolean {
  if ((project.preview?.previewVideos.length ?? 0) > 0) return true;
  return (project.taskPath === 'link-video' || project.taskPath === 'script-update') && isUnfinished(project.taskStatus);
}

/** Exports exist once a video is exported, or while one is being rendered. */
export function hasExports(project: Project): boolean {
  if ((project.exports?.exportVideos.length ?? 0) > 0) return true;
  return project.taskPath === 'export-video' && isUnfinished(project.taskStatus);
}

/**
 * Where a restored draft belongs when opened on `stage` (spec "States and transitions"), or null to stay: edit-product moves on to
 * the furthest stage reached; preview moves on to exports, or back without a preview; video-export moves back
 * to preview when only a preview exists, or to edit-product when neither does.
 */
export function stageRedirect(stage: Stage, project: Project): Stage | null {
  const preview = hasPreview(project);
  const exported = hasExports(project);
  switch (stage) {
    case 'editProduct':
      if (exported) return 'videoExport';
      return preview ? 'preview' : null;
    case 'preview':
      if (exported) return 'videoExport';
      return preview ? null : 'editProduct';
    case 'videoExport':
      if (exported) return null;
      return preview ? 'preview' : 'editProduct';
  }
}
