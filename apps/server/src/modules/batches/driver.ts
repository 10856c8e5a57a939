// The batch driver (decision "Batch"): a loop beside the task worker that moves each row of a batch one step at a
// time through the ordinary tasks, submitted as the row's user: a project, `link-analysis`, `link-video` (one
// preview, in the row's template) and, when the batch exports, `export-video`. Charges and refunds are the task
// engine's, as for any user. A row is claimed with a lease (FOR UPDATE SKIP LOCKED, as tasks are), so two processes
// never advance the same row and a process that dies leaves its rows to the others once the lease lapses; each
// task is submitted with an idempotency key of the row's attempt and step, so a step repeated after a crash answers
// the task already submitted instead of charging twice. At most `concurrencyPerUser` rows of one user are in
// flight, so a batch of 500 never floods the FIFO task queue ahead of anyone's interactive task.
import { randomUUID } from 'node:crypto';
import { type BatchOptions, EXPORT_VIDEO_LENGTH_TYPE, MAX_ASSETS_PER_PROJECT, type TASKS, type User } from '@reelsmith/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { type Queryable, queryRows } from '../../db/client.js';
import { fromColumns } from '../../db/rows.js';
import { type BatchRowRow, batches, batchRows, type TaskRow, tasks, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { createProject } from '../projects/service.js';
import type { AnyTaskDefinition, StoredTaskError } from '../tasks/definition.js';
import { cancelTask, submitTask } from '../tasks/queue.js';
import { sleep } from '../tasks/worker.js';
import { toUser } from '../users/service.js';
import { emitEvent } from '../webhooks/events.js';
import { IN_FLIGHT_STATUSES, OPEN_STATUSES, type RowOverrides } from './service.js';
import { batchWork } from './wake.js';

type Log = { info: (...args: unknown[]) => void; warn: (...args: unknown[]) => void; error: (...args: unknown[]) => void };

export interface BatchDriverOptions {
  /** Rows of one user in flight at once (BATCH_CONCURRENCY_PER_USER). */
  concurrencyPerUser: number;
  /** How long a claim on a row holds; a step takes a few queries, so it only matters when a process dies. */
  leaseMs?: number;
  /** How often to look for rows whose task ended; a batch made in this process wakes the driver at once. */
  pollMs?: number;
  log: Log;
}

export interface BatchDriver {
  stop(): Promise<void>;
}

type Analysis = z.infer<(typeof TASKS)['link-analysis']['result']>;
type Previews = z.infer<(typeof TASKS)['link-video']['result']>;

const interval = (ms: number) => sql`(${ms} * interval '1 millisecond')`;
const inList = (statuses: readonly string[]) =>
  sql.join(
    statuses.map((s) => sql`${s}`),
    sql`, `,
  );

/**
 * Claims the oldest row that has something to do: an in-flight row whose task has ended, or a waiting row of a user
 * below the limit. Oldest batch first, so users' batches take turns only through the per-user limit.
 */
async function claimRow(db: Queryable, owner: string, leaseMs: number, limit: number): Promise<BatchRowRow | undefined> {
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`update batch_rows r set lease_owner = ${owner}, lease_until = now() + ${interval(leaseMs)}
      from (
        select r.id from batch_rows r
        left join tasks t on t.id = r.task_id
        where r.status in (${inList(OPEN_STATUSES)})
          and (r.lease_until is null or r.lease_until < now())
          and (
            (r.status <> 'waiting' and (t.id is null or t.status in ('SUCCESS', 'FAILURE')))
            or (r.status = 'waiting' and (
              select count(*) from batch_rows f where f.user_id = r.user_id and f.status in (${inList(IN_FLIGHT_STATUSES)})
            ) < ${limit}
            -- A blocked user's rows start nothing (decision "An operator's block"); the block cancels them.
            and not exists (select 1 from users u where u.id = r.user_id and u.blocked_at is not null))
          )
        order by r.created_at, r.position
        limit 1
        for update of r skip locked
      ) c
      where r.id = c.id
      returning r.*`,
  );
  return row && fromColumns(batchRows, row);
}

/** The row while this driver holds it: the condition of every write it makes (a cancel takes the lease away). */
const heldIn = (row: BatchRowRow, owner: string) => and(eq(batchRows.id, row.id), eq(batchRows.leaseOwner, owner));

export function startBatchDriver(ctx: AppContext, definitions: readonly AnyTaskDefinition[], options: BatchDriverOptions): BatchDriver {
  const { concurrencyPerUser, leaseMs = 30_000, pollMs = 1_000, log } = options;
  const owner = `batch-driver-${randomUUID()}`;
  const byKind = new Map(definitions.map((d) => [d.kind, d]));
  const stopping = new AbortController();
  let wake = new AbortController();
  const onWork = () => wake.abort();
  batchWork.on('work', onWork);

  const definitionOf = (kind: string) => {
    const definition = byKind.get(kind);
    if (!definition) throw new Error(`the batch driver needs the ${kind} task kind`);
    return definition;
  };

  const release = (row: BatchRowRow) =>
    ctx.db
      .update(batchRows)
      .set({ leaseOwner: null, leaseUntil: null })
      .where(and(eq(batchRows.id, row.id), eq(batchRows.leaseOwner, owner)));

  /**
   * Ends the row (done or failed) and, when it was the batch's last open row, the batch, with its `batch.finished`
   * event in the same transaction (decision "Webhooks"). The batch's row is locked first, so of two processes
   * ending a batch's last two rows the second sees the first's row ended and finishes the batch.
   */
  async function endRow(row: BatchRowRow, status: 'done' | 'failed', changes: Partial<BatchRowRow> = {}) {
    await ctx.db.transaction(async (tx) => {
      await tx.select({ id: batches.id }).from(batches).where(eq(batches.id, row.batchId)).for('update');
      const [ended] = await tx
        .update(batchRows)
        .set({ ...changes, status, leaseOwner: null, leaseUntil: null, updatedAt: sql`now()` })
        .where(heldIn(row, owner))
        .returning({ id: batchRows.id });
      if (ended) await finishIfDone(tx, row.batchId);
    });
  }

  const fail = (row: BatchRowRow, error: StoredTaskError) => endRow(row, 'failed', { error });

  /**
   * Moves the row to its next step with the task just submitted. A row cancelled meanwhile is not moved, and the
   * task is cancelled (refunded) too: nothing is left running for a batch the user stopped.
   */
  async function moveOn(row: BatchRowRow, status: BatchRowRow['status'], task: TaskRow, changes: Partial<BatchRowRow> = {}) {
    const [moved] = await ctx.db
      .update(batchRows)
      .set({ ...changes, status, taskId: task.id, leaseOwner: null, leaseUntil: null, updatedAt: sql`now()` })
      .where(heldIn(row, owner))
      .returning({ id: batchRows.id });
    if (!moved) await cancelTask(ctx, byKind, row.userId, task.kind, task.id).catch(() => undefined);
  }

  /** Submits a task of the row's current step as the user, keyed by the row's attempt and step. */
  function submit(row: BatchRowRow, user: User, kind: string, input: unknown) {
    const definition = definitionOf(kind);
    return submitTask(ctx, definition, user, definition.input.parse(input), {
      idempotencyKey: `batch:${row.id}:${row.attempt}:${kind}`,
      projectId: row.projectId ?? undefined,
      batchRowId: row.id,
    });
  }

  /** waiting → analysing, unless the user's limit was reached meanwhile (another process, the same user's other row). */
  async function reserve(row: BatchRowRow): Promise<boolean> {
    return ctx.db.transaction(async (tx) => {
      // One user's reservations one at a time, across processes: the count below cannot be raced past the limit.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`batch:${row.userId}`}))`);
      const [{ inFlight = 0 } = {}] = await tx
        .select({ inFlight: sql<number>`count(*)::int` })
        .from(batchRows)
        .where(and(eq(batchRows.userId, row.userId), inArray(batchRows.status, [...IN_FLIGHT_STATUSES])));
      if (inFlight >= concurrencyPerUser) return false;
      const [reserved] = await tx
        .update(batchRows)
        .set({ status: 'analysing', taskId: null, updatedAt: sql`now()` })
        .where(heldIn(row, owner))
        .returning({ id: batchRows.id });
      return reserved !== undefined;
    });
  }

  /** Starts the row: its project (kept across retries and crashes, as the row remembers it), then its analysis. */
  async function startAnalysis(row: BatchRowRow, user: User) {
    let projectId = row.projectId;
    if (!projectId) {
      const project = await createProject(ctx.db, row.userId, (row.overrides as RowOverrides).name);
      projectId = project.id;
      await ctx.db.update(batchRows).set({ projectId }).where(heldIn(row, owner));
    }
    const held = { ...row, projectId };
    const task = await submit(held, user, 'link-analysis', { projectId, productLink: row.link });
    await moveOn(held, 'analysing', task);
  }

  /** The preview's input from the analysis: the page's product, the row's and the batch's choices, one preview. */
  function previewInput(row: BatchRowRow, options: BatchOptions, analysis: Analysis) {
    const own = row.overrides as RowOverrides;
    const fileIds = [...analysis.productImages, ...analysis.productVideos].flatMap((m) => m.fileId ?? []).slice(0, MAX_ASSETS_PER_PROJECT);
    const productName = (own.name ?? analysis.productName).trim().slice(0, 500);
    if (fileIds.length === 0 || !productName) throw new AppError('noProductFound');
    const voiceId = own.voiceId ?? options.voiceId;
    return {
      projectId: row.projectId,
      productLink: row.link,
      productName,
      productDescription: analysis.productDescription.slice(0, 10_000),
      ...(analysis.productOffer && { productOffer: analysis.productOffer }),
      ...(analysis.productBrand?.trim() && { productBrand: analysis.productBrand.trim().slice(0, 200) }),
      ...(analysis.productRating && { productRating: analysis.productRating }),
      ...(analysis.productFacts && { productFacts: analysis.productFacts }),
      fileIds,
      editorConfig: {
        videoLength: own.videoLength ?? options.videoLength,
        aspectRatio: options.aspectRatio,
        resultNum: 1,
        ...((own.templateId ?? options.templateId) && { templateId: own.templateId ?? options.templateId }),
        ...((own.language ?? options.language) && { language: own.language ?? options.language }),
        ...(voiceId && { voiceId }),
      },
      ...(voiceId && { voiceId }),
    };
  }

  /** Reads the outcome of the row's task and takes the next step. */
  async function advance(row: BatchRowRow, task: TaskRow | undefined, user: User, options: BatchOptions) {
    if (row.status === 'waiting') {
      if (!(await reserve(row))) return release(row);
      return startAnalysis({ ...row, status: 'analysing' }, user);
    }
    if (!task) {
      if (row.status === 'analysing') return startAnalysis(row, user);
      return fail(row, { key: 'generationFailed' });
    }
    if (task.status === 'FAILURE') return fail(row, (task.error as StoredTaskError | null) ?? { key: 'generationFailed' });
    if (row.status === 'analysing') {
      const video = await submit(row, user, 'link-video', previewInput(row, options, task.result as Analysis));
      return moveOn(row, 'rendering', video, { previewTaskId: video.id });
    }
    if (row.status === 'rendering' && options.export) {
      const preview = (task.result as Previews).previewVideos[0];
      if (!preview) return fail(row, { key: 'generationFailed' });
      const exported = await submit(row, user, 'export-video', {
        projectId: row.projectId,
        taskId: task.id,
        resultNum: 1,
        scriptId: preview.scriptId,
        videoLengthType: EXPORT_VIDEO_LENGTH_TYPE,
      });
      return moveOn(row, 'exporting', exported, { exportTaskId: exported.id });
    }
    return endRow(row, 'done');
  }

  /** One step of one row; answers whether there was a row to claim. */
  async function step(): Promise<boolean> {
    const row = await claimRow(ctx.db, owner, leaseMs, concurrencyPerUser);
    if (!row) return false;
    try {
      const [[userRow], [batch], [task]] = await Promise.all([
        ctx.db.select().from(users).where(eq(users.id, row.userId)),
        ctx.db.select({ options: batches.options }).from(batches).where(eq(batches.id, row.batchId)),
        row.taskId ? ctx.db.select().from(tasks).where(eq(tasks.id, row.taskId)) : Promise.resolve([]),
      ]);
      // A user blocked or turned INACTIVE since: the batch stops making things for them, as their keys and session do.
      if (userRow?.status !== 'ACTIVE') await fail(row, { key: 'notActive' });
      else await advance(row, task, toUser(userRow as NonNullable<typeof userRow>), batch?.options as BatchOptions);
    } catch (error) {
      if (error instanceof AppError) await fail(row, { key: error.key, params: error.params });
      else {
        // The database away or a bug: the row is left to its lease and tried again then.
        log.error({ err: error, rowId: row.id }, 'advancing a batch row failed');
        return false;
      }
    }
    return true;
  }

  const loop = (async () => {
    while (!stopping.signal.aborted) {
      let worked = false;
      try {
        worked = await step();
      } catch (error) {
        log.error({ err: error }, 'claiming a batch row failed');
      }
      if (worked) continue;
      await sleep(pollMs, AbortSignal.any([stopping.signal, wake.signal]));
      if (wake.signal.aborted) wake = new AbortController();
    }
  })();

  return {
    async stop() {
      batchWork.off('work', onWork);
      stopping.abort();
      await loop;
    },
  };
}

/**
 * Ends the batch when none of its rows is left open, once (the conditional update), writing `batch.finished` for the
 * user's webhook endpoints in the same transaction.
 */
async function finishIfDone(db: Queryable, batchId: string) {
  const [finished] = await db
    .update(batches)
    .set({ status: 'finished', finishedAt: sql`now()` })
    .where(
      and(
        eq(batches.id, batchId),
        eq(batches.status, 'running'),
        sql`not exists (select 1 from batch_rows r where r.batch_id = ${batchId} and r.status in (${inList(OPEN_STATUSES)}))`,
      ),
    )
    .returning();
  if (finished) await emitBatchFinished(db, finished.id, finished.userId);
}

/** `batch.finished`: the batch's id, status and counts (the rows themselves are a `batch/get` away). */
export async function emitBatchFinished(db: Queryable, batchId: string, userId: string) {
  const counts = await queryRows<{ status: string; n: number }>(
    db,
    sql`select status, count(*)::int as n from batch_rows where batch_id = ${batchId} group by status`,
  );
  const [batch] = await db.select({ status: batches.status }).from(batches).where(eq(batches.id, batchId));
  const of = (status: string) => counts.find((c) => c.status === status)?.n ?? 0;
  await emitEvent(db, userId, 'batch.finished', {
    batchId,
    status: batch?.status,
    rows: counts.reduce((sum, c) => sum + c.n, 0),
    done: of('done'),
    failed: of('failed'),
    cancelled: of('cancelled'),
  });
}
