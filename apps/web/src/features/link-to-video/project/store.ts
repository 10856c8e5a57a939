import type { ProgressStage } from '@reelsmith/contract';
import { create } from 'zustand';
import type { Project } from './types';

/** What the pages show about the work in hand; none of it is part of the draft. */
export interface ProjectStore {
  project: Project | null;
  /** loading: the draft is being restored. */
  phase: 'idle' | 'loading' | 'ready';
  /** The stage the running generation reports (spec "States and transitions" progress messages). */
  progress: ProgressStage | null;
  /** Why the last task of the project failed, ready to show; cleared by the next submit. */
  failure: string | null;
}

/**
 * The current project of link to video (spec "Entities"), shared by its four pages: client state only. The work on it
 * (polls, draft saving) belongs to its controller (controller.ts).
 */
export const useProjectStore = create<ProjectStore>(() => ({ project: null, phase: 'idle', progress: null, failure: null }));

export const currentProject = (): Project | null => useProjectStore.getState().project;

/** Changes the current project, if it is still `projectId` (an answer for a project left behind is dropped). */
export function updateProject(projectId: string, change: (project: Project) => Project): void {
  useProjectStore.setState((store) => (store.project?.projectId === projectId ? { project: change(store.project) } : {}));
}
