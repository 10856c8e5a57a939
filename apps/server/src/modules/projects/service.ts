import { randomUUID } from 'node:crypto';
import {
  type Locale,
  PROJECT_NAME_MAX,
  type ProjectSummary,
  type ProjectTask,
  ProjectTaskKind,
  type TASKS,
  type VideoChoices,
} from '@reelsmith/contract';
import { and, asc, count, desc, eq, inArray, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { type ProjectRow, projects, type TaskRow, tasks } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { hold, recordKey, release } from '../files/storedObjects.js';

/** Every query here is scoped to its owner: another user's project answers "not found", never its data. */
const owned = (userId: string, projectId: string) => and(eq(projects.userId, userId), eq(projects.id, projectId));

/**
 * What an untitled project is called, in the reader's language (decision "Projects named after the product"): it is
 * stored without a name, so each reader sees it in theirs and the product's name can tell it from a name the user
 * chose.
 */
export const UNTITLED_PROJECT: Record<Locale, string> = {
  en: 'Untitled project',
  zh: '未命名项目',
  pt: 'Projeto sem título',
};

const toSummary = (row: ProjectRow, locale: Locale): ProjectSummary => ({
  projectId: row.id,
  projectName: row.name || UNTITLED_PROJECT[locale],
  productLink: row.productLink,
  coverUrl: row.coverUrl,
  taskStatus: row.taskStatus,
  exportCount: 0,
  createTime: row.createdAt.toISOString(),
  updateTime: row.updatedAt.toISOString(),
});

/** A project; without `name` it is untitled until its product is known (`nameAfterProduct`). */
export async function createProject(db: Db, userId: string, name: string | undefined, deviceFingerprint?: string) {
  const [row] = await db
    .insert(projects)
    .values({ id: randomUUID(), userId, name: name ?? '', deviceFingerprint: deviceFingerprint ?? null })
    .returning();
  if (!row) throw new Error('project insert returned nothing');
  return row;
}

export async function getProject(db: Db, userId: string, projectId: string): Promise<ProjectRow> {
  const [row] = await db.select().from(projects).where(owned(userId, projectId)).limit(1);
  if (!row) throw new AppError('notFound');
  return row;
}

export const getProjectSummary = async (db: Db, userId: string, projectId: string, locale: Locale) =>
  toSummary(await getProject(db, userId, projectId), locale);

/** Changes the caller's project, or answers "not found" when it is not theirs. */
async function updateOwned(
  db: Db,
  userId: string,
  projectId: string,
  change: Pick<Partial<ProjectRow>, 'name' | 'nameFollowsProduct' | 'draft'>,
) {
  const [row] = await db
    .update(projects)
    .set({ ...change, updatedAt: new Date() })
    .where(owned(userId, projectId))
    .returning({ id: projects.id });
  if (!row) throw new AppError('notFound');
}

/** The user's own name: from now on the product's renames leave it alone. */
export const renameProject = (db: Db, userId: string, projectId: string, name: string) =>
  updateOwned(db, userId, projectId, { name, nameFollowsProduct: false });

/** A product's name as a project's: trimmed and cut to PROJECT_NAME_MAX characters (whole characters, not halves of one). */
export const projectNameOf = (productName: string): string =>
  Array.from(productName.trim().replace(/\s+/g, ' ')).slice(0, PROJECT_NAME_MAX).join('').trim();

/**
 * Names the user's untitled project after its product, and a project named so after the product's new name; a
 * name the user gave (at creation or by renaming) is kept, and a project that is not theirs is left alone. Answers
 * whether it was named.
 */
export async function nameAfterProduct(db: Db, userId: string, projectId: string, productName: string): Promise<boolean> {
  const name = projectNameOf(productName);
  if (!name) return false;
  const named = await db
    .update(projects)
    .set({ name, nameFollowsProduct: true, updatedAt: new Date() })
    .where(and(owned(userId, projectId), or(eq(projects.name, ''), eq(projects.nameFollowsProduct, true))))
    .returning({ id: projects.id });
  return named.length > 0;
}

export async function listProjects(db: Db, userId: string, page: number, pageSize: number, sort: 'newest' | 'oldest', locale: Locale) {
  const order = sort === 'newest' ? [desc(projects.createdAt), desc(projects.id)] : [asc(projects.createdAt), asc(projects.id)];
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(projects)
      .where(eq(projects.userId, userId))
      .orderBy(...order)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(projects).where(eq(projects.userId, userId)),
  ]);
  return { list: rows.map((row) => toSummary(row, locale)), total: total?.n ?? 0 };
}

/** The caller's projects among these ids, in the order asked; ids of others' projects are simply absent. */
export async function getProjectsByIds(db: Db, userId: string, projectIds: string[], locale: Locale) {
  const rows = await db
    .select()
    .from(projects)
    .where(and(eq(projects.userId, userId), inArray(projects.id, projectIds)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return projectIds.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toSummary(row, locale)] : [];
  });
}

/** Deletes all the given projects or none: one that is not the caller's makes the whole call "not found". */
export async function deleteProjects(db: Db, userId: string, projectIds: string[]) {
  const unique = [...new Set(projectIds)];
  await db.transaction(async (tx) => {
    const deleted = await tx
      .delete(projects)
      .where(and(eq(projects.userId, userId), inArray(projects.id, unique)))
      .returning({ id: projects.id });
    // Throwing rolls the deletion back.
    if (deleted.length !== unique.length) throw new AppError('notFound');
    // Their drafts leave the quota with them.
    await release(
      tx,
      deleted.map(({ id }) => recordKey(userId, 'draft', id)),
    );
  });
}

/**
 * Saves the project's draft, counted in the user's storage quota at its size in bytes (decision "Storage quota"):
 * a draft that does not fit is refused with "Your storage is full…" and the draft before it is kept.
 */
export async function saveDraft(db: Db, quotaBytes: number, userId: string, projectId: string, draft: string) {
  await db.transaction(async (tx) => {
    await updateOwned(tx as unknown as Db, userId, projectId, { draft });
    await hold(tx, quotaBytes, recordKey(userId, 'draft', projectId), Buffer.byteLength(draft, 'utf8'));
  });
}

type VideoInput = z.infer<(typeof TASKS)['link-video']['input']>;
type ScriptUpdateInput = z.infer<(typeof TASKS)['script-update']['input']>;

/** What the editor needs of a task besides its query's answer: a video's choices, a script update's preview. */
function toProjectTask(row: TaskRow): ProjectTask {
  const task: ProjectTask = {
    taskId: row.id,
    kind: row.kind as ProjectTask['kind'],
    status: row.status,
    createTime: row.createdAt.toISOString(),
  };
  if (row.kind === 'link-video') {
    const { productName, productDescription, diyScript, diyScriptContent, editorConfig } = row.input as VideoInput;
    const choices: VideoChoices = { productName, productDescription, diyScript, diyScriptContent, editorConfig };
    return { ...task, choices };
  }
  if (row.kind === 'script-update') return { ...task, scriptId: (row.input as ScriptUpdateInput).scriptId };
  return task;
}

/**
 * The link-to-video tasks of the caller's project, newest first (decision "Projects without a draft"); another user's
 * project answers "not found".
 */
export async function listProjectTasks(db: Db, userId: string, projectId: string): Promise<ProjectTask[]> {
  await getProject(db, userId, projectId);
  const rows = await db
    .select()
    .from(tasks)
    .where(and(eq(tasks.userId, userId), eq(tasks.projectId, projectId), inArray(tasks.kind, ProjectTaskKind.options)))
    .orderBy(desc(tasks.createdAt), desc(tasks.id));
  return rows.map(toProjectTask);
}
