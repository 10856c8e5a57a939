import { projectCreate, projectDraftUrl } from '@reelsmith/contract';
import { api } from '../../../shared/api/client';
import { projectSummaryQuery } from '../../../shared/api/projectSummary';
import { appQueryClient } from '../../../shared/api/queryClient';
import { i18n } from '../../../shared/i18n/i18n';
import { toast } from '../../../shared/ui/toast';
import { refreshCredits } from '../../credits';
import { createProjectController, type ProjectController } from './controller';
import { parseDraft, readLocalDraft, readUnsentLocalDraft } from './draft';
import { currencyOfLanguage } from './offer';
import { rebuildProject } from './rebuild';
import { currentProject, useProjectStore } from './store';
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

/** The controller of the open project: the one place that says which project's work is running. */
let open: ProjectController | null = null;

/** The open project's controller, for the pages' actions; null while none is open. */
export const projectController = (): ProjectController | null => open;

/**
 * Leaves the project in hand, if any (its controller is disposed: its polls stop), and puts `project` in the
 * store; a project gets a controller once it is in place, so what was just read is not saved back.
 */
function replaceProject(project: Project | null): ProjectController | null {
  open?.dispose();
  open = null;
  useProjectStore.setState({ project });
  if (project) {
    open = createProjectController(project.projectId, {
      store: useProjectStore,
      api,
      toast,
      refreshCredits,
      queryClient: appQueryClient(),
    });
  }
  return open;
}

/**
 * Restores a project (spec "States and transitions"): the draft from its URL, else the local copy, else (a project made by a batch
 * or the public API, decision "Projects without a draft") its state rebuilt from its tasks; links
 * renewed; then its unfinished tasks resume. A local copy with changes the server never got (the page was
 * left before its save went) is newer than the server's: it wins, and is sent. Answers whether the project was
 * opened (the page then applies the stage redirects, also to a project with no draft yet, which belongs on
 * edit-product); a project already open is left as it is, and a restore overtaken by a later one answers false.
 */
export async function openProject(projectId: string): Promise<boolean> {
  if (currentProject()?.projectId === projectId) return false;
  const ticket = ++opening;
  replaceProject(null);
  // The summary is read through its query, which the header reads too: one question, one answer for both.
  const summary = await appQueryClient()
    .fetchQuery(projectSummaryQuery(projectId))
    .catch(() => null);
  const defaults = newProject(projectId, summary?.productLink ?? '');
  const unsent = readUnsentLocalDraft(projectId, defaults);
  const draft =
    unsent ??
    (await serverDraft(projectId, defaults)) ??
    readLocalDraft(projectId, defaults) ??
    (await rebuildProject(defaults, api, currencyOfLanguage(i18n.language)));
  const restored = draft ? await freshUrls(draft) : defaults;
  if (ticket !== opening) return false;
  const controller = replaceProject(restored);
  if (unsent) void controller?.saveDraftNow();
  controller?.resumeTasks();
  return true;
}

export interface NewProjectInput {
  productLink: string;
  /** A name the user chose; without one the project is untitled until its product names it. */
  projectName?: string;
  /** The page HTML the browser extension stored for this link. */
  htmlResKey?: string;
  deviceFingerprint?: string;
}

/** Creates the project and starts analysing its link (spec "States and transitions"); answers the new project's id. */
export async function createProject({ productLink, projectName, htmlResKey, deviceFingerprint }: NewProjectInput): Promise<string> {
  const { projectId, draftUrl } = await api(projectCreate, { body: { projectName, deviceFingerprint } });
  opening++;
  const project = { ...newProject(projectId, productLink), draftUrl, ...(htmlResKey ? { htmlResKey } : {}) };
  await replaceProject(project)?.startAnalysis();
  return projectId;
}

/** Leaves the project: its polls stop. */
export function closeProject(): void {
  opening++;
  replaceProject(null);
}
