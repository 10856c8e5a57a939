// Batches as the calls see them (decision "Batch"): pricing and refusing up front, making a batch and its rows,
// retrying and cancelling, and the rows as answered (status, project, the error in the reader's language, links to
// the videos). The rows advance in driver.ts, through the ordinary tasks.
import { randomUUID } from 'node:crypto';
import {
  BATCHES_RUNNING_MAX,
  type Batch,
  type BatchOptions,
  type BatchQuote,
  type BatchRow,
  type BatchRowInput,
  type BatchRowStatus,
  type BatchSummary,
  errorMessage,
  type Locale,
  type SkuCode,
} from '@reelsmith/contract';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Db, Queryable } from '../../db/client.js';
import { type BatchDbRow, type BatchRowRow, batches, batchRows, projects, tasks, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { priceOf } from '../points/prices.js';
import { readAccount } from '../points/queries.js';
import type { StoredTaskError } from '../tasks/definition.js';
import { cancelTask } from '../tasks/queue.js';
import { type ReadRows, readRows } from './rows.js';
import { wakeDriver } from './wake.js';

/** When a user with their batches all running may try again: a batch's rows take minutes. */
const BATCH_BUSY_RETRY_SECONDS = 60;

/** What a batch is made from, as the calls take it. */
type Source = { text?: string; rows?: BatchRowInput[]; options: BatchOptions };

/** A row's own choices, stored beside its link. */
export type RowOverrides = Omit<BatchRowInput, 'link'>;

export const OPEN_STATUSES: readonly BatchRowStatus[] = ['waiting', 'analysing', 'rendering', 'exporting'];
export const IN_FLIGHT_STATUSES: readonly BatchRowStatus[] = ['analysing', 'rendering', 'exporting'];

/**
 * What one row costs: its preview at link-video's price (free: the link-video task has no price) and, when the batch
 * exports, the export at the price of the row's video length, read from the price table as export-video charges it.
 */
async function rowPrices(db: Queryable, options: BatchOptions, rows: readonly RowOverrides[]): Promise<number[]> {
  if (!options.export) return rows.map(() => 0);
  const byLength = new Map<number, number>();
  for (const length of new Set(rows.map((row) => row.videoLength ?? options.videoLength))) {
    byLength.set(length, await priceOf(db, `link2V_${length}s` as SkuCode));
  }
  return rows.map((row) => byLength.get(row.videoLength ?? options.videoLength) ?? 0);
}

/** How many rows, in order, the credits cover. */
function coverable(prices: readonly number[], available: number): number {
  let spent = 0;
  for (const [i, price] of prices.entries()) {
    spent += price;
    if (spent > available) return i;
  }
  return prices.length;
}

interface Priced {
  credits: number;
  creditsPerRow: number;
  availableCredits: number;
  coverableRows: number;
}

async function price(db: Queryable, userId: string, options: BatchOptions, rows: readonly RowOverrides[]): Promise<Priced> {
  const [prices, account, [perRow = 0]] = await Promise.all([
    rowPrices(db, options, rows),
    readAccount(db, userId),
    rowPrices(db, options, [{}]),
  ]);
  return {
    credits: prices.reduce((sum, p) => sum + p, 0),
    creditsPerRow: perRow,
    availableCredits: account.availablePoints,
    coverableRows: coverable(prices, account.availablePoints),
  };
}

/** Refuses, naming how many rows the credits cover, when they cannot cover these rows. */
function refuseUncovered(priced: Priced, rows: number) {
  if (priced.coverableRows >= rows) return;
  throw new AppError('batchNotEnoughCredits', {
    rows,
    needed: priced.credits,
    available: priced.availableCredits,
    coverable: priced.coverableRows,
  });
}

const problemsOf = (read: ReadRows, locale: Locale) =>
  read.problems.map((p) => ({ row: p.row, message: errorMessage(p.key, locale, p.params) }));

export async function quoteBatch(ctx: AppContext, userId: string, source: Source, locale: Locale): Promise<BatchQuote> {
  const read = readRows(source);
  const priced = await price(ctx.db, userId, source.options, read.rows);
  return { rows: read.rows.length, ...priced, problems: problemsOf(read, locale) };
}

const overridesOf = ({ link: _, ...overrides }: BatchRowInput): RowOverrides => overrides;

/** Makes the batch and its rows, all waiting, in one transaction; refused whole for a bad row or too few credits. */
export async function createBatch(ctx: AppContext, userId: string, source: Source, locale: Locale): Promise<Batch> {
  const read = readRows(source);
  const [problem] = read.problems;
  if (problem) throw new AppError(problem.key, problem.params);
  refuseUncovered(await price(ctx.db, userId, source.options, read.rows.map(overridesOf)), read.rows.length);
  const batchId = randomUUID();
  await ctx.db.transaction(async (tx) => {
    // The user's row is the lock: two batches made at once are counted one after the other.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [running] = await tx
      .select({ n: count() })
      .from(batches)
      .where(and(eq(batches.userId, userId), eq(batches.status, 'running')));
    if ((running?.n ?? 0) >= BATCHES_RUNNING_MAX) {
      throw new AppError('batchesBusy', { max: BATCHES_RUNNING_MAX }, { retryAfterSeconds: BATCH_BUSY_RETRY_SECONDS });
    }
    await tx.insert(batches).values({ id: batchId, userId, options: source.options });
    // Inserted in slices: 500 rows of 12 values stay well under PostgreSQL's 65535 parameters either way.
    for (let i = 0; i < read.rows.length; i += 100) {
      await tx.insert(batchRows).values(
        read.rows.slice(i, i + 100).map((row, j) => ({
          id: randomUUID(),
          batchId,
          userId,
          position: i + j + 1,
          link: row.link,
          overrides: overridesOf(row),
        })),
      );
    }
  });
  wakeDriver();
  return getBatch(ctx, userId, batchId, locale);
}

/** The user's batch; another user's is not found. */
export async function ownBatch(db: Queryable, userId: string, batchId: string): Promise<BatchDbRow> {
  const [row] = await db
    .select()
    .from(batches)
    .where(and(eq(batches.id, batchId), eq(batches.userId, userId)));
  if (!row) throw new AppError('notFound');
  return row;
}

/** A stored error in the reader's language. */
export function errorText(error: unknown, locale: Locale): string | null {
  if (!error) return null;
  const stored = error as StoredTaskError;
  return 'key' in stored ? errorMessage(stored.key, locale, stored.params) : stored.message;
}

type VideoResult = { previewVideos?: { resKey: string }[]; exportVideos?: { resKey: string; fileName?: string }[] };

/** The stored key of the row's preview and export, from their tasks' results. */
export interface RowVideos {
  /** The row's project's name (its product's, once analysed); null while untitled or without a project. */
  projectName: string | null;
  previewKey: string | null;
  exportKey: string | null;
  exportName: string | null;
}

/** The batch's rows in order, with the keys of their videos: one query, however many rows. */
export async function rowsWithVideos(db: Db, batchId: string): Promise<Array<BatchRowRow & RowVideos>> {
  const rows = await db.select().from(batchRows).where(eq(batchRows.batchId, batchId)).orderBy(asc(batchRows.position));
  const ids = rows.flatMap((r) => [r.previewTaskId, r.exportTaskId]).filter((id): id is string => id !== null);
  const results = new Map<string, VideoResult>();
  for (let i = 0; i < ids.length; i += 500) {
    const found = await db
      .select({ id: tasks.id, result: tasks.result })
      .from(tasks)
      .where(and(inArray(tasks.id, ids.slice(i, i + 500)), eq(tasks.status, 'SUCCESS')));
    for (const task of found) results.set(task.id, (task.result ?? {}) as VideoResult);
  }
  const projectIds = rows.flatMap((r) => (r.projectId ? [r.projectId] : []));
  const names = new Map<string, string>();
  for (let i = 0; i < projectIds.length; i += 500) {
    const found = await db
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(inArray(projects.id, projectIds.slice(i, i + 500)));
    for (const project of found) if (project.name) names.set(project.id, project.name);
  }
  return rows.map((row) => {
    const projectName = (row.projectId && names.get(row.projectId)) || null;
    const preview = row.previewTaskId ? results.get(row.previewTaskId)?.previewVideos?.[0] : undefined;
    const exported = row.exportTaskId ? results.get(row.exportTaskId)?.exportVideos?.[0] : undefined;
    return {
      ...row,
      projectName,
      previewKey: preview?.resKey ?? null,
      exportKey: exported?.resKey ?? null,
      exportName: exported?.fileName ?? null,
    };
  });
}

function countsOf(statuses: readonly BatchRowStatus[]) {
  const count = (...of: BatchRowStatus[]) => statuses.filter((s) => of.includes(s)).length;
  return {
    total: statuses.length,
    waiting: count('waiting'),
    running: count(...IN_FLIGHT_STATUSES),
    done: count('done'),
    failed: count('failed'),
    cancelled: count('cancelled'),
  };
}

const summaryOf = (batch: BatchDbRow, statuses: readonly BatchRowStatus[]): BatchSummary => ({
  batchId: batch.id,
  status: batch.status,
  options: batch.options as BatchOptions,
  counts: countsOf(statuses),
  createTime: batch.createdAt.toISOString(),
  finishTime: batch.finishedAt?.toISOString() ?? null,
});

export async function getBatch(ctx: AppContext, userId: string, batchId: string, locale: Locale): Promise<Batch> {
  const batch = await ownBatch(ctx.db, userId, batchId);
  const rows = await rowsWithVideos(ctx.db, batchId);
  const link = (key: string | null, filename?: string | null) =>
    key ? ctx.storage.downloadUrl(key, filename ? { filename } : undefined) : Promise.resolve(null);
  const answered: BatchRow[] = await Promise.all(
    rows.map(async (row) => ({
      row: row.position,
      link: row.link,
      name: (row.overrides as RowOverrides).name ?? row.projectName,
      status: row.status,
      projectId: row.projectId,
      error: errorText(row.error, locale),
      previewUrl: await link(row.previewKey),
      exportUrl: await link(row.exportKey, row.exportName),
    })),
  );
  return {
    ...summaryOf(
      batch,
      rows.map((r) => r.status),
    ),
    rows: answered,
  };
}

export async function listBatches(ctx: AppContext, userId: string, page: number, pageSize: number): Promise<BatchSummary[]> {
  const list = await ctx.db
    .select()
    .from(batches)
    .where(eq(batches.userId, userId))
    .orderBy(desc(batches.createdAt), desc(batches.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  if (list.length === 0) return [];
  const statuses = await ctx.db
    .select({ batchId: batchRows.batchId, status: batchRows.status })
    .from(batchRows)
    .where(
      inArray(
        batchRows.batchId,
        list.map((b) => b.id),
      ),
    );
  return list.map((batch) =>
    summaryOf(
      batch,
      statuses.filter((s) => s.batchId === batch.id).map((s) => s.status),
    ),
  );
}

/**
 * Starts the failed rows again, as a new attempt (its tasks get their own idempotency keys), keeping each row's
 * project; priced and refused up front as a new batch is.
 */
export async function retryBatch(ctx: AppContext, userId: string, batchId: string, locale: Locale): Promise<Batch> {
  const batch = await ownBatch(ctx.db, userId, batchId);
  const failed = await ctx.db
    .select({ overrides: batchRows.overrides })
    .from(batchRows)
    .where(and(eq(batchRows.batchId, batchId), eq(batchRows.status, 'failed')));
  if (failed.length === 0) throw new AppError('batchNothingToRetry');
  const options = batch.options as BatchOptions;
  refuseUncovered(
    await price(
      ctx.db,
      userId,
      options,
      failed.map((r) => r.overrides as RowOverrides),
    ),
    failed.length,
  );
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(batchRows)
      .set({
        status: 'waiting',
        attempt: sql`${batchRows.attempt} + 1`,
        error: null,
        taskId: null,
        previewTaskId: null,
        exportTaskId: null,
        leaseOwner: null,
        leaseUntil: null,
        updatedAt: sql`now()`,
      })
      .where(and(eq(batchRows.batchId, batchId), eq(batchRows.status, 'failed')));
    await tx.update(batches).set({ status: 'running', finishedAt: null }).where(eq(batches.id, batchId));
  });
  wakeDriver();
  return getBatch(ctx, userId, batchId, locale);
}

/**
 * Cancels what is left of the batch: waiting rows at once, running rows with their task (cancelled and refunded by
 * the task engine, decision "Cancel is decided with completion"). A driver holding a row finds it cancelled: its
 * writes are conditional on the status it read.
 */
export async function cancelBatch(ctx: AppContext, userId: string, batchId: string, locale: Locale): Promise<Batch> {
  await ownBatch(ctx.db, userId, batchId);
  const open = await ctx.db
    .update(batchRows)
    .set({ status: 'cancelled', leaseOwner: null, leaseUntil: null, updatedAt: sql`now()` })
    .where(and(eq(batchRows.batchId, batchId), inArray(batchRows.status, [...OPEN_STATUSES])))
    .returning({ taskId: batchRows.taskId });
  for (const { taskId } of open) {
    if (!taskId) continue;
    const [task] = await ctx.db.select({ kind: tasks.kind, status: tasks.status }).from(tasks).where(eq(tasks.id, taskId));
    if (task && (task.status === 'SUBMITTED' || task.status === 'IN_PROGRESS')) {
      await cancelTask(ctx, new Map(ctx.tasks.map((d) => [d.kind, d])), userId, task.kind, taskId).catch((error: unknown) => {
        // Ended meanwhile: it stays as it ended, and its row is cancelled anyway.
        if (!(error instanceof AppError && error.key === 'taskNotCancellable')) throw error;
      });
    }
  }
  await ctx.db
    .update(batches)
    .set({ status: 'cancelled', finishedAt: sql`coalesce(${batches.finishedAt}, now())` })
    .where(and(eq(batches.id, batchId), eq(batches.status, 'running')));
  return getBatch(ctx, userId, batchId, locale);
}
