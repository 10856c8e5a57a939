import { type ProgressStage, projectSaveDraft } from '@reelsmith/contract';
import { create } from 'zustand';
import { api } from '../../../shared/api/client';
import { localDraftSent, serializeDraft, writeLocalDraft } from './draft';
import type { Project } from './types';

/** What the pages show about the work in hand; none of it is part of the draft. */
interface ProjectStore {
  project: Project | null;
  /** loading: the draft is being restored. */
  phase: 'idle' | 'loading' | 'ready';
  /** The stage the running generation reports (spec §4 progress messages). */
  progress: ProgressStage | null;
  /** Why the last task of the project failed, ready to show; cleared by the next submit. */
  failure: string | null;
}

/** The current project of link to video (spec §3), shared by its four pages. */
export const useProjectStore = create<ProjectStore>(() => ({ project: null, phase: 'idle', progress: null, failure: null }));

export const currentProject = (): Project | null => useProjectStore.getState().project;

/** Changes the current project, if it is still `projectId` (an answer for a project left behind is dropped). */
export function updateProject(projectId: string, change: (project: Project) => Project): void {
  useProjectStore.setState((store) => (store.project?.projectId === projectId ? { project: change(store.project) } : {}));
}

/** Server saves wait this long for more changes, so typing a script sends one draft, not one per key. */
export const SERVER_SAVE_DELAY_MS = 1500;

/** The server save waiting for its delay, with the latest copy of its project. */
let pendingSave: { project: Project; timer: ReturnType<typeof setTimeout> } | null = null;

function sendDraft(project: Project): Promise<void> {
  const draftContent = serializeDraft(project);
  return api(projectSaveDraft, { body: { projectId: project.projectId, draftContent }, silent: true }).then(
    () => localDraftSent(project.projectId, draftContent),
    // The local copy holds the change; the next change or save sends it again.
    () => undefined,
  );
}

function scheduleServerSave(project: Project): void {
  if (pendingSave) {
    clearTimeout(pendingSave.timer);
    // Another project's change is not overtaken by this one: it leaves now.
    if (pendingSave.project.projectId !== project.projectId) void sendDraft(pendingSave.project);
  }
  const timer = setTimeout(() => {
    const waiting = pendingSave;
    pendingSave = null;
    if (waiting) void sendDraft(waiting.project);
  }, SERVER_SAVE_DELAY_MS);
  pendingSave = { project, timer };
}

/** Saves the draft to the server at once (spec §4: submitting a video or an export saves the draft). */
export function saveDraftNow(): Promise<void> {
  if (pendingSave) {
    clearTimeout(pendingSave.timer);
    if (pendingSave.project.projectId !== currentProject()?.projectId) void sendDraft(pendingSave.project);
  }
  pendingSave = null;
  const project = currentProject();
  if (!project) return Promise.resolve();
  writeLocalDraft(project);
  return sendDraft(project);
}

/**
 * Drafts follow the project (spec §4): every change that differs from the stored copy is written locally at
 * once and sent to the server shortly after. Restoring sets the project without a save (`quiet`).
 */
let quiet = false;
useProjectStore.subscribe((store, before) => {
  if (quiet || !store.project || store.project === before.project) return;
  if (writeLocalDraft(store.project)) scheduleServerSave(store.project);
});

/** Puts a project in place without saving it: it is what was just read. */
export function setProjectQuietly(project: Project | null, phase: ProjectStore['phase'] = 'ready'): void {
  quiet = true;
  try {
    useProjectStore.setState({ project, phase, progress: null, failure: null });
  } finally {
    quiet = false;
  }
}
