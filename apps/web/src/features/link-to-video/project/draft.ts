import { DRAFT_STORAGE_PREFIX } from '@reelsmith/contract';
import { emptyProduct, type Project } from './types';

/** Local storage key of a project's draft (spec "Business constants"). */
export const draftKey = (projectId: string) => `${DRAFT_STORAGE_PREFIX}${projectId}`;

export const serializeDraft = (project: Project): string => JSON.stringify(project);

/**
 * A draft read back, or null when it is not one of ours: it must at least name the project it belongs to,
 * and fields added since it was written take their defaults.
 */
export function parseDraft(text: string | null | undefined, projectId: string, defaults: Project): Project | null {
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return null;
    // A draft written before the name left it still carries one: the summary's is the project's (decision "Server
    // data in queries"), so that one is dropped.
    const { projectName: _named, ...draft } = parsed as Partial<Project> & { projectName?: unknown };
    if (draft.projectId !== projectId) return null;
    // A product saved before a field of it existed (the offer, the brand) gets that field's default.
    return {
      ...defaults,
      ...draft,
      product: draft.product ? { ...emptyProduct(), ...draft.product } : (draft.product ?? defaults.product),
    };
  } catch {
    return null;
  }
}

export function readLocalDraft(projectId: string, defaults: Project): Project | null {
  try {
    return parseDraft(localStorage.getItem(draftKey(projectId)), projectId, defaults);
  } catch {
    return null;
  }
}

/**
 * Marks a local copy the server does not have yet. Server saves wait a moment for more changes, and a reload
 * in that moment finds the server's copy behind the local one: the mark says which of the two is newer.
 */
const unsentKey = (projectId: string) => `projectDraftUnsent-${projectId}`;

/** Writes the draft locally when it differs from the stored copy; answers whether it changed. */
export function writeLocalDraft(project: Project): boolean {
  const content = serializeDraft(project);
  const key = draftKey(project.projectId);
  try {
    if (localStorage.getItem(key) === content) return false;
    localStorage.setItem(key, content);
    localStorage.setItem(unsentKey(project.projectId), '1');
  } catch {
    // A full or disabled storage leaves the server copy as the only one.
  }
  return true;
}

/** The server has stored `content`: when it is still the local copy, the two agree again. */
export function localDraftSent(projectId: string, content: string): void {
  try {
    if (localStorage.getItem(draftKey(projectId)) === content) localStorage.removeItem(unsentKey(projectId));
  } catch {
    // Nothing was marked.
  }
}

/** The local copy, when it holds changes the server has not stored. */
export function readUnsentLocalDraft(projectId: string, defaults: Project): Project | null {
  try {
    return localStorage.getItem(unsentKey(projectId)) ? readLocalDraft(projectId, defaults) : null;
  } catch {
    return null;
  }
}
