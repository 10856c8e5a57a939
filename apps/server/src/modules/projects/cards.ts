/**
 * What a project's card shows beside its name (decision "Project cards"): a picture of it, where its work is, and how
 * many videos it has exported. Read from the project's files and tasks when the projects are listed, so nothing
 * has to be kept in step with them.
 */
import type { ProjectSummary, TaskStatus } from '@reelsmith/contract';
import { and, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { files, tasks } from '../../db/schema.js';

type Summary = ProjectSummary;

export async function withCards(ctx: Pick<AppContext, 'db' | 'storage'>, userId: string, summaries: Summary[]): Promise<Summary[]> {
  const ids = summaries.map((summary) => summary.projectId);
  if (ids.length === 0) return summaries;
  const [latest, exported, covers] = await Promise.all([
    latestTasks(ctx, userId, ids),
    exportCounts(ctx, userId, ids),
    coverKeys(ctx, userId, ids),
  ]);
  const coverUrls = new Map(
    await Promise.all([...covers].map(async ([projectId, key]) => [projectId, await ctx.storage.downloadUrl(key)] as const)),
  );
  return summaries.map((summary) => ({
    ...summary,
    coverUrl: coverUrls.get(summary.projectId) ?? summary.coverUrl,
    taskStatus: statusOf(latest.get(summary.projectId), covers.has(summary.projectId)) ?? summary.taskStatus,
    exportCount: exported.get(summary.projectId) ?? 0,
  }));
}

export const withCard = async (ctx: Pick<AppContext, 'db' | 'storage'>, userId: string, summary: Summary): Promise<Summary> =>
  (await withCards(ctx, userId, [summary]))[0] ?? summary;

/**
 * Where the project's work is: its newest task's status, except an analysis that failed on a project that has its
 * pictures since (the product entered by hand, decision "Manual product entry"): that project is a draft, not a failure.
 */
function statusOf(latest: { kind: string; status: TaskStatus } | undefined, hasPictures: boolean): TaskStatus | null {
  if (!latest) return null;
  if (latest.kind === 'link-analysis' && latest.status === 'FAILURE' && hasPictures) return null;
  return latest.status;
}

/** Each project's newest task: its kind and status. */
async function latestTasks({ db }: Pick<AppContext, 'db'>, userId: string, ids: string[]) {
  const rows = await db
    .selectDistinctOn([tasks.projectId], { projectId: tasks.projectId, kind: tasks.kind, status: tasks.status })
    .from(tasks)
    .where(and(eq(tasks.userId, userId), inArray(tasks.projectId, ids)))
    .orderBy(tasks.projectId, desc(tasks.createdAt));
  return new Map(rows.map((row) => [row.projectId as string, { kind: row.kind, status: row.status }]));
}

async function exportCounts({ db }: Pick<AppContext, 'db'>, userId: string, ids: string[]) {
  const rows = await db
    .select({ projectId: tasks.projectId, n: count() })
    .from(tasks)
    .where(and(eq(tasks.userId, userId), inArray(tasks.projectId, ids), eq(tasks.kind, 'export-video'), eq(tasks.status, 'SUCCESS')))
    .groupBy(tasks.projectId);
  return new Map(rows.map((row) => [row.projectId as string, row.n]));
}

/**
 * Each project's picture: the poster of its newest ad (an export or a preview), else the thumbnail of its first
 * product picture, which is the page's main photo.
 */
async function coverKeys({ db }: Pick<AppContext, 'db'>, userId: string, ids: string[]) {
  const ad = sql`(${files.source} = 'generated' and ${files.type} = 'video')`;
  const seconds = sql`extract(epoch from ${files.createdAt})`;
  const rows = await db
    .selectDistinctOn([files.projectId], { projectId: files.projectId, thumbKey: files.thumbKey })
    .from(files)
    .where(and(eq(files.userId, userId), inArray(files.projectId, ids), eq(files.status, 'completed'), isNotNull(files.thumbKey)))
    .orderBy(files.projectId, desc(ad), sql`case when ${ad} then -${seconds} else ${seconds} end`);
  return new Map(rows.map((row) => [row.projectId as string, row.thumbKey as string]));
}
