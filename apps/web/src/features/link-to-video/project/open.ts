import { projectCreate, projectDraftUrl, projectGetById } from '@reelsmith/contract';
import { api } from '../../../shared/api/client';
import { parseDraft, readLocalDraft, readUnsentLocalDraft } from './draft';
import { currentProject, saveDraftNow, setProjectQuietly } from './store';
import { resumeTasks, startAnalysis, stopPolling } from './tasks';
import { newProject, type Project } from './types';
import { freshUrls } from './urls';

/** The server's copy of the draft: its URL, then the file itself; null when there is none or it cannot be read. */
async function serverDraft(projectId: string, defaults: Project): Promise<Project | null> {
  try {
    const url = await api(projectDraftUrl, { body: { projectId }, silent: true });
    if (!url) return null;
    const response = await fetch(url, { credentials: 'include' });
    return response.ok ? parseDraft(await response.text(), projectId, defaults) : null;
  } catch {
    return null;
  }
}

/** Counts restores, so one overtaken by a later open does not land. */
let opening = 0;

/**
 * Restores a project (spec §4): the draft from its URL, else the local copy; the name from the server; links
 * renewed; then its unfinished tasks resume. A local copy with changes the server never got (the page was
 * left before its save went) is newer than the server's: it wins, and is sent. Answers whether the project was
 * opened (the page then applies the stage redirects, also to a project with no draft yet, which belongs on
 * edit-product); a project already open is left as it is, and a restore overtaken by a later one answers false.
 */
export async function openProject(projectId: string): Promise<boolean> {
  if (currentProject()?.projectId === projectId) return false;
  const ticket = ++opening;
  stopPolling();
  setProjectQuietly(null, 'loading');
  const summary = await api(projectGetById, { query: { projectId } }).catch(() => null);
  const defaults = newProject(projectId, summary?.productLink ?? '', summary?.projectName ?? '');
  const unsent = readUnsentLocalDraft(projectId, defaults);
  const draft = unsent ?? (await serverDraft(projectId, defaults)) ?? readLocalDraft(projectId, defaults);
  const restored = draft ? await freshUrls({ ...draft, projectName: summary?.projectName ?? draft.projectName }) : defaults;
  if (ticket !== opening) return false;
  setProjectQuietly(restored);
  if (unsent) void saveDraftNow();
  resumeTasks();
  return true;
}

export interface NewProjectInput {
  productLink: string;
  projectName: string;
  /** The page HTML the browser extension stored for this link. */
  htmlResKey?: string;
  deviceFingerprint?: string;
}

/** Creates the project and starts analysing its link (spec §4); answers the new project's id. */
export async function createProject({ productLink, projectName, htmlResKey, deviceFingerprint }: NewProjectInput): Promise<string> {
  const { projectId, draftUrl } = await api(projectCreate, { body: { projectName, deviceFingerprint } });
  opening++;
  stopPolling();
  setProjectQuietly({ ...newProject(projectId, productLink, projectName), draftUrl, ...(htmlResKey ? { htmlResKey } : {}) });
  await startAnalysis();
  return projectId;
}

/** Leaves the project: its polls stop. */
export function closeProject(): void {
  opening++;
  stopPolling();
  setProjectQuietly(null, 'idle');
}
