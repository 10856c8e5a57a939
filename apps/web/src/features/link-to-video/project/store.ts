import { create } from 'zustand';
import type { Project } from './types';

/**
 * The draft being edited: the current project of link to video (spec "Entities"), shared by its four pages. Only
 * the draft: server data (the project's name, its tasks' progress and failures, the credits) is held in queries
 * (decision "Server data in queries"). The work on it (polls, draft saving) belongs to its controller
 * (controller.ts).
 */
export interface ProjectStore {
  project: Project | null;
}

export const useProjectStore = create<ProjectStore>(() => ({ project: null }));

export const currentProject = (): Project | null => useProjectStore.getState().project;

/** Changes the current project, if it is still `projectId` (an answer for a project left behind is dropped). */
export function updateProject(projectId: string, change: (project: Project) => Project): void {
  useProjectStore.setState((store) => (store.project?.projectId === projectId ? { project: change(store.project) } : {}));
}
