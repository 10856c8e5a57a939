// The task queue (design "Tasks"): the `tasks` table and every change of a task's state. Submitting inserts the task
// SUBMITTED in the transaction that charges for it; workers claim, renew and end tasks only through these
// functions, and only while they hold the task's lease (`lease_owner`), so a worker that lost its lease (it
// stalled past it and another took over) can no longer change the task. A task ends exactly once: SUCCESS, or
// FAILURE with exactly one refund. Cancelling and completing are both one conditional update of the task's row, so
// the database decides which came first and the other finds the task ended (decision "Cancel is decided with
// completion").
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { ProgressStage, User } from '@reelsmith/contract';
import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { type Db, type Queryable, queryRows } from '../../db/client.js';
import { fromColumns } from '../../db/rows.js';
import { type NewTaskRow, type TaskRow, tasks } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { chargedCredits, charges, refundedCredits, refunds, taskFailures } from '../metrics/registry.js';
import { chargeForTask, refund } from '../points/ledger.js';
import { realWorkOf } from '../points/standIns.js';
import { emitCreditsLowAfterCharge, emitTaskEnded } from '../webhooks/events.js';
import { type AnyTaskDefinition, needsOf, type StoredTaskError, type TaskDefinition } from './definition.js';

const DEFAULT_MAX_ATTEMPTS = 3;

/** Submissions in this process wake its worker at once instead of at its next poll. */
export const submitted = new EventEmitter();

export interface SubmitOptions {
  /**
   * A client's Idempotency-Key: submitting the same request again with it answers the first task, charging
   * nothing; another request with it is refused (idempotencyKeyReused).
   */
  idempotencyKey?: string | undefined;
  projectId?: string | undefined;
  /** The batch row the task advances: claimed after interactive tasks (decision "Batch"). */
  batchRowId?: string | undefined;
}

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown) =>
  ((error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code) === UNIQUE_VIOLATION;

/**
 * The task a key already submitted, when this is the same request again: the same kind and an equal input. The
 * stored input is the request's body as the contract parsed it, never changed afterwards, so it is the request's
 * fingerprint; jsonb equality ignores the order and spacing of the JSON (decision "An Idempotency-Key names one
 * request"). A key of another request is the client's mistake, not a retry: refused, so it never answers a task
 * the caller did not ask for.
 */
async function replayOf(db: Queryable, userId: string, kind: string, key: string, input: unknown): Promise<TaskRow | undefined> {
  const [found] = await db
    .select({ task: tasks, sameRequest: sql<boolean>`${tasks.kind} = ${kind} and ${tasks.input} = ${JSON.stringify(input)}::jsonb` })
    .from(tasks)
    .where(and(eq(tasks.userId, userId), eq(tasks.idempotencyKey, key)));
  if (!found) return undefined;
  if (!found.sameRequest) throw new AppError('idempotencyKeyReused');
  return found.task;
}

/** When a user at their cap may try again: about the time a preview takes here. */
const BUSY_RETRY_SECONDS = 30;

/**
 * Refuses a task past the user's share (decision "Fair share of the workers"): the tasks of this kind they have
 * waiting or running, free previews included and a batch's rows aside (batches have their own cap), at most
 * TASKS_WAITING_PER_USER. Counted before the charge; two submits at the same instant may both pass the count, so the
 * cap may be passed by the requests in flight at that moment, never by a flood.
 */
async function checkShare(ctx: AppContext, userId: string, kind: string) {
  const limit = ctx.settings.tasksWaitingPerUser;
  const [row] = await ctx.db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(tasks)
    .where(
      and(eq(tasks.userId, userId), eq(tasks.kind, kind), inArray(tasks.status, ['SUBMITTED', 'IN_PROGRESS']), isNull(tasks.batchRowId)),
    );
  if ((row?.count ?? 0) >= limit) throw new AppError('tasksBusy', { limit }, { retryAfterSeconds: BUSY_RETRY_SECONDS });
}

/**
 * Submits a task: checks it (`accept`), then inserts it SUBMITTED and charges its price in one subtransaction of
 * the ledger's group commit, so a task exists exactly when it is paid for. Fails with notEnoughCredits (nothing written) when the credits
 * do not cover it.
 */
export async function submitTask<I>(
  ctx: AppContext,
  definition: TaskDefinition<I>,
  user: User,
  input: I,
  options: SubmitOptions = {},
): Promise<TaskRow> {
  const { idempotencyKey } = options;
  if (idempotencyKey) {
    const replay = await replayOf(ctx.db, user.userId, definition.kind, idempotencyKey, input);
    if (replay) return replay;
  }
  // Before the kind's own checks, which may write (a project named after its product): a tool this server cannot
  // run is refused, uncharged, whatever its input (decision "Start-up checks").
  if ((await ctx.parts.missing(needsOf(definition, ctx))).length) throw new AppError('toolUnavailable');
  if (!options.batchRowId) await checkShare(ctx, user.userId, definition.kind);
  await definition.accept?.(ctx, user, input);
  // What the sandbox stands in for is not charged (decision "Stand-ins are free").
  const price = realWorkOf((await definition.price?.(input, ctx, user)) ?? null, ctx.providers);
  const workload = (await definition.workload?.(input, ctx, user)) ?? null;
  const id = randomUUID();
  const values: NewTaskRow = {
    id,
    userId: user.userId,
    kind: definition.kind,
    projectId: options.projectId ?? null,
    input: input as object,
    status: 'SUBMITTED',
    idempotencyKey: idempotencyKey ?? null,
    batchRowId: options.batchRowId ?? null,
    workload,
    maxAttempts: definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
  };
  try {
    let row: TaskRow;
    if (price) {
      const charged = await chargeForTask(ctx.db, values, price, { taskId: id, key: `task:${id}` });
      row = charged.task;
      // Counted once committed, so the counters agree with the ledger.
      if (charged.credits > 0) {
        charges.inc({ kind: row.kind });
        chargedCredits.inc({ kind: row.kind }, charged.credits);
        await creditsLowAfter(ctx, row.userId, charged.entryId, charged.credits);
      }
    } else {
      row = (await ctx.db.insert(tasks).values(values).returning())[0] as TaskRow;
    }
    submitted.emit('task', row.kind);
    return row;
  } catch (error) {
    // Two requests with one key at the same moment: the second insert loses the race and answers the first
    // (or is refused, when it was another request).
    if (idempotencyKey && isUniqueViolation(error)) {
      const replay = await replayOf(ctx.db, user.userId, definition.kind, idempotencyKey, input);
      if (replay) return replay;
    }
    throw error;
  }
}

/**
 * The `credits.low` webhook event when this charge crossed the threshold (decision "Webhooks"). The task is charged
 * and stored already, so a failure here must not fail its submission; the event is the one thing lost.
 */
async function creditsLowAfter(ctx: AppContext, userId: string, entryId: number | null, credits: number) {
  if (entryId === null) return;
  await emitCreditsLowAfterCharge(ctx.db, userId, entryId, credits, ctx.settings.webhookCreditsLowThreshold).catch(() => false);
}

/** The user's task of this kind; another user's task, or one of another kind, is not found. */
export async function readTask(db: Db, userId: string, kind: string, taskId: string): Promise<TaskRow> {
  const [row] = await db
    .select()
    .from(tasks)
    .where(and(eq(tasks.id, taskId), eq(tasks.userId, userId), eq(tasks.kind, kind)));
  if (!row) throw new AppError('notFound');
  return row;
}

const interval = (ms: number) => sql`(${ms} * interval '1 millisecond')`;

/**
 * Claims the oldest task of these kinds that is waiting, or whose worker's lease has lapsed (it died) and that
 * has attempts left: IN_PROGRESS under this worker's lease, one more attempt. SKIP LOCKED lets workers claim
 * side by side without ever taking the same task. Times are the database's, the one clock all workers share.
 * Interactive tasks come before batches' (decision "Batch"); with `interactiveOnly` a batch's are not claimed.
 */
export async function claimTask(
  db: Db,
  kinds: readonly string[],
  owner: string,
  leaseMs: number,
  interactiveOnly = false,
): Promise<TaskRow | undefined> {
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`update tasks t
      set status = 'IN_PROGRESS', lease_owner = ${owner}, lease_until = now() + ${interval(leaseMs)},
          attempts = t.attempts + 1, started_at = coalesce(t.started_at, now())
      from (
        select w.id from tasks w
        left join (
          select user_id, count(*) as running from tasks
          where status = 'IN_PROGRESS' and lease_until >= now()
          group by user_id
        ) r on r.user_id = w.user_id
        -- When the user was last served: a worker freeing every slot at once, or a single slot, still serves users in turn.
        left join lateral (select max(s.started_at) as last_start from tasks s where s.user_id = w.user_id) l on true
        join users u on u.id = w.user_id
        where w.kind = any(${sql.param([...kinds])}::text[])
          -- A blocked user's tasks never run (decision "An operator's block"): cancelBlockedTasks ends them.
          and u.blocked_at is null
          and w.cancel_requested is null
          and w.attempts < w.max_attempts
          and (w.status = 'SUBMITTED' or (w.status = 'IN_PROGRESS' and w.lease_until < now()))
          and (${!interactiveOnly} or w.batch_row_id is null)
        -- Interactive before batch rows; then the user with the fewest tasks running now, so one user's queue never
        -- holds every worker while another waits (decision "Fair share of the workers"); then the user served longest
        -- ago; then the oldest.
        order by w.batch_row_id is not null, coalesce(r.running, 0), l.last_start nulls first, w.created_at
        limit 1
        for update of w skip locked
      ) c
      where t.id = c.id
      returning t.*`,
  );
  return row && fromColumns(tasks, row);
}

/** Whether this worker still holds the task: the condition of every write a worker makes. */
const heldBy = (taskId: string, owner: string) => and(eq(tasks.id, taskId), eq(tasks.leaseOwner, owner), eq(tasks.status, 'IN_PROGRESS'));

/** Why a worker no longer holds a task: the user cancelled it, or its lease went to another worker. */
async function whyNotHeld(db: Db, taskId: string): Promise<'cancelled' | 'lost'> {
  const [row] = await db.select({ cancelRequested: tasks.cancelRequested }).from(tasks).where(eq(tasks.id, taskId));
  return row?.cancelRequested ? 'cancelled' : 'lost';
}

/**
 * Extends this worker's lease. Answers 'cancelled' when the user cancelled the task, 'lost' when the worker no
 * longer holds it otherwise, else 'held'.
 */
export async function renewLease(db: Db, taskId: string, owner: string, leaseMs: number): Promise<'held' | 'lost' | 'cancelled'> {
  const [row] = await db
    .update(tasks)
    .set({ leaseUntil: sql`now() + ${interval(leaseMs)}` })
    .where(heldBy(taskId, owner))
    .returning({ cancelRequested: tasks.cancelRequested });
  if (!row) return whyNotHeld(db, taskId);
  // A request to stop left by a server from before cancel ended running tasks itself.
  return row.cancelRequested ? 'cancelled' : 'held';
}

export async function reportProgress(db: Db, taskId: string, owner: string, stage: ProgressStage): Promise<void> {
  await db.update(tasks).set({ progress: stage }).where(heldBy(taskId, owner));
}

/** Keeps a running task's result so far, while this worker holds it. */
export async function reportPartial(db: Db, taskId: string, owner: string, result: unknown): Promise<void> {
  await db.update(tasks).set({ result }).where(heldBy(taskId, owner));
}

/**
 * Ends the task in SUCCESS, unless it ended first: answers 'completed', or why the result cannot be the task's
 * ('cancelled': the user cancelled it, and was refunded; 'lost': another worker has it). One conditional update:
 * a cancel that got to the row first leaves it FAILURE (or, from an older server, marked), and this writes nothing.
 * The `task.succeeded` webhook event is written in the same transaction, so it exists exactly when the success does;
 * it carries `eventResult`, the result as a task query answers it (decision "Webhooks"). So are the kind's own
 * `writes` (TaskJob.atCompletion), after the update succeeded: a result that is not the task's writes none of them.
 */
export async function completeTask(
  db: Db,
  taskId: string,
  owner: string,
  result: unknown,
  eventResult: unknown = result,
  writes: readonly ((tx: Db) => Promise<void>)[] = [],
): Promise<'completed' | 'cancelled' | 'lost'> {
  const completed = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(tasks)
      .set({ status: 'SUCCESS', result: result as object, finishedAt: sql`now()`, leaseOwner: null, leaseUntil: null })
      .where(and(heldBy(taskId, owner), isNull(tasks.cancelRequested)))
      .returning();
    if (!row) return false;
    await emitTaskEnded(tx, row, eventResult);
    for (const write of writes) await write(tx as unknown as Db);
    return true;
  });
  return completed ? 'completed' : whyNotHeld(db, taskId);
}

/**
 * Ends a task in FAILURE with its refund and the kind's `failed` clean-up, in one transaction, so a crash
 * leaves either all of it or none. `condition` says which state the task must still be in; false when it no
 * longer was (someone else ended it).
 */
async function failWhere(
  ctx: AppContext,
  definitions: ReadonlyMap<string, AnyTaskDefinition>,
  taskId: string,
  condition: ReturnType<typeof and>,
  error: StoredTaskError,
  cancelled = false,
): Promise<boolean> {
  const ended = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(tasks)
      .set({
        status: 'FAILURE',
        error,
        finishedAt: sql`now()`,
        leaseOwner: null,
        leaseUntil: null,
        // Tells the worker still running it why its lease is gone (whyNotHeld).
        ...(cancelled && { cancelRequested: sql`now()` }),
      })
      .where(and(eq(tasks.id, taskId), condition))
      .returning();
    if (!row) return undefined;
    const refunded = await refund(tx, taskId);
    // The `task.failed` webhook event, committed with the failure and its refund (decision "Webhooks").
    await emitTaskEnded(tx, row);
    await definitions.get(row.kind)?.failed?.({ ...ctx, db: tx as unknown as Db }, { taskId, userId: row.userId, input: row.input }, error);
    return { kind: row.kind, refunded: refunded?.pointsChange ?? 0 };
  });
  if (!ended) return false;
  // Counted once committed: a transaction that rolled back ended nothing.
  taskFailures.inc({ kind: ended.kind, error: 'key' in error ? error.key : 'message' });
  if (ended.refunded > 0) {
    refunds.inc({ kind: ended.kind });
    refundedCredits.inc({ kind: ended.kind }, ended.refunded);
  }
  return true;
}

/** Ends the task this worker holds in FAILURE (see failWhere). */
export const failTask = (
  ctx: AppContext,
  definitions: ReadonlyMap<string, AnyTaskDefinition>,
  taskId: string,
  owner: string,
  error: StoredTaskError,
) => failWhere(ctx, definitions, taskId, heldBy(taskId, owner), error);

/** Gives a task back to the queue at once, uncounted: this worker is shutting down and did not finish it. */
export async function releaseTask(db: Db, taskId: string, owner: string): Promise<void> {
  await db
    .update(tasks)
    .set({ status: 'SUBMITTED', leaseOwner: null, leaseUntil: null, attempts: sql`greatest(${tasks.attempts} - 1, 0)` })
    .where(heldBy(taskId, owner));
}

/**
 * Fails the tasks whose lease lapsed and that may not run again: out of attempts (their workers kept dying),
 * or cancelled while their worker died. Answers how many it ended.
 */
export async function failAbandonedTasks(ctx: AppContext, definitions: ReadonlyMap<string, AnyTaskDefinition>): Promise<number> {
  const due = await queryRows<{ id: string; cancelled: boolean }>(
    ctx.db,
    sql`select id, cancel_requested is not null as cancelled from tasks
      where status = 'IN_PROGRESS' and lease_until < now() and (attempts >= max_attempts or cancel_requested is not null)
      order by created_at limit 100`,
  );
  let ended = 0;
  for (const { id, cancelled } of due) {
    const lapsed = sql`${tasks.status} = 'IN_PROGRESS' and ${tasks.leaseUntil} < now()`;
    if (await failWhere(ctx, definitions, id, lapsed, { key: cancelled ? 'taskCancelled' : 'taskInterrupted' })) ended++;
  }
  return ended;
}

/** Ends, with their refunds and as a user's cancel does, the unfinished tasks `whose` selects; answers how many. */
async function cancelUnfinished(ctx: AppContext, definitions: ReadonlyMap<string, AnyTaskDefinition>, whose: SQL): Promise<number> {
  const due = await queryRows<{ id: string }>(
    ctx.db,
    sql`select t.id from tasks t join users u on u.id = t.user_id
      where t.status in ('SUBMITTED', 'IN_PROGRESS') and ${whose}
      order by t.created_at limit 1000`,
  );
  let ended = 0;
  const unfinished = inArray(tasks.status, ['SUBMITTED', 'IN_PROGRESS']);
  for (const { id } of due) {
    if (await failWhere(ctx, definitions, id, unfinished, { key: 'taskCancelled' }, true)) ended++;
  }
  return ended;
}

/** The operator's `tasks cancel`: every task of the user still waiting or running, refunded. */
export const cancelTasksOf = (ctx: AppContext, definitions: ReadonlyMap<string, AnyTaskDefinition>, userId: string) =>
  cancelUnfinished(ctx, definitions, sql`t.user_id = ${userId}`);

/**
 * The tasks of blocked users (decision "An operator's block"), which no worker claims: run with the sweep of
 * abandoned tasks, it ends any that a blocked user's batch or API call submitted as the block was written.
 */
export const cancelBlockedTasks = (ctx: AppContext, definitions: ReadonlyMap<string, AnyTaskDefinition>) =>
  cancelUnfinished(ctx, definitions, sql`u.blocked_at is not null`);

/**
 * Cancels the user's task, waiting or running: it ends FAILURE at once with its refund, in the one conditional
 * update that a completion also races for (decision "Cancel is decided with completion"). A running task's worker
 * finds it ended (its completion is refused; its heartbeat stops the work) and removes what the work made. A task
 * that ended first cannot be cancelled: too late, it stays as it ended.
 */
export async function cancelTask(
  ctx: AppContext,
  definitions: ReadonlyMap<string, AnyTaskDefinition>,
  userId: string,
  kind: string,
  taskId: string,
): Promise<TaskRow> {
  await readTask(ctx.db, userId, kind, taskId);
  const unfinished = inArray(tasks.status, ['SUBMITTED', 'IN_PROGRESS']);
  if (!(await failWhere(ctx, definitions, taskId, unfinished, { key: 'taskCancelled' }, true))) throw new AppError('taskNotCancellable');
  return readTask(ctx.db, userId, kind, taskId);
}
