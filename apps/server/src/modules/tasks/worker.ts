// A worker (design "Tasks"): claims tasks from the queue and runs them, up to `concurrency` at a time, holding a
// lease on each that a heartbeat renews. Any number of workers, in any number of processes, share one
// PostgreSQL; SKIP LOCKED and the lease make sure no task runs twice at once. A worker that dies leaves its
// tasks' leases to lapse; another worker (or this one, restarted) picks them up again.
import { randomUUID } from 'node:crypto';
import { type ProgressStage, ProgressStage as Stages } from '@reelsmith/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import type { TaskRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { misconfiguredError } from '../../misconfigured.js';
import { outageError } from '../../outage.js';
import { taskDuration } from '../metrics/registry.js';
import type { AnyTaskDefinition, StoredTaskError, TaskLog } from './definition.js';
import { discardOutputs } from './outputs.js';
import {
  cancelBlockedTasks,
  claimTask,
  completeTask,
  failAbandonedTasks,
  failTask,
  releaseTask,
  renewLease,
  reportPartial,
  reportProgress,
  submitted,
} from './queue.js';

const DEFAULT_TIMEOUT_MS = 15 * 60_000;
/** How long a stopping worker waits for its tasks to notice; then it gives them back regardless. */
const SHUTDOWN_GRACE_MS = 5_000;

export interface WorkerOptions {
  concurrency: number;
  /** How long a claim holds without a heartbeat; a worker silent for longer is taken for dead. */
  leaseMs?: number;
  /** How often an idle worker looks for work (submissions in this process wake it at once). */
  pollMs?: number;
  /** With `child` (pino's), each task's lines carry its id, kind and worker; tests pass a bare silent logger. */
  log: TaskLog & { child?: FastifyBaseLogger['child'] };
}

export interface Worker {
  readonly id: string;
  /** Stops claiming, stops the running tasks and gives them back to the queue. */
  stop(): Promise<void>;
}

/** Why a running task's signal aborted. */
type StopReason = 'cancelled' | 'timedOut' | 'lost' | 'shutdown';

/** Waits `ms`, or less when `signal` aborts (a wake-up, a stop); the webhook dispatcher's loop waits with it too. */
export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** What a failed attempt leaves as the task's error. */
function storedError(reason: StopReason | undefined, error: unknown): StoredTaskError {
  if (reason === 'cancelled') return { key: 'taskCancelled' };
  if (reason === 'timedOut') return { key: 'taskTimedOut' };
  // A part of this machine missing at run time (a program, the SoundFont, a file of the install) is the operator's
  // to fix, and said so, even under an AppError a provider wrapped it in (decision "Start-up checks").
  const misconfigured = misconfiguredError(error);
  if (misconfigured) return { key: misconfigured.key };
  if (error instanceof AppError) return { key: error.key, params: error.params };
  // A full disk or the database away is said as such: the user learns it is not the input, and to try again later.
  const outage = outageError(error);
  return { key: outage?.key ?? 'generationFailed' };
}

/**
 * The result the `task.succeeded` webhook event carries: as a task query answers it (fresh links to the outputs), or
 * as stored when the kind cannot present it now; the event is sent either way (decision "Webhooks").
 */
async function eventResult(ctx: AppContext, definition: AnyTaskDefinition, result: unknown, log: TaskLog): Promise<unknown> {
  if (!definition.view) return result;
  try {
    return await definition.view(result, ctx);
  } catch (error) {
    log.warn({ err: error }, 'the webhook event carries the stored result: it could not be presented');
    return result;
  }
}

export function startWorker(ctx: AppContext, definitions: readonly AnyTaskDefinition[], options: WorkerOptions): Worker {
  const { concurrency, leaseMs = 30_000, pollMs = 1_000, log } = options;
  const id = `worker-${randomUUID()}`;
  const byKind = new Map(definitions.map((d) => [d.kind, d]));
  const kinds = [...byKind.keys()];
  const stopping = new AbortController();
  const running = new Map<string, { stop: AbortController; done: Promise<void>; batch: boolean }>();
  /**
   * Batches' tasks may take every slot but one (decision "Batch"): a user's interactive task never waits for a batch's
   * render to end. A worker of one slot runs them too, after any interactive task.
   */
  const batchSlots = Math.max(1, concurrency - 1);
  const batchRunning = () => [...running.values()].filter((r) => r.batch).length;
  let wake = new AbortController();
  const onSubmitted = (kind: string) => {
    if (byKind.has(kind)) wake.abort();
  };
  submitted.on('task', onSubmitted);

  async function run(task: TaskRow, definition: AnyTaskDefinition, stop: AbortController) {
    const reasonOf = () => stop.signal.reason as StopReason | undefined;
    const taskLog: TaskLog = log.child?.({ taskId: task.id, kind: task.kind, worker: id }) ?? log;
    const started = performance.now();
    let outcome: 'success' | 'failure' | 'released' | 'lost' = 'failure';
    /**
     * What a finished attempt made, removed when the task ends FAILURE (refunded) without it: cancelled, or out of
     * time. A result that is only another attempt's to make (lease lost, shutdown) is left alone: that attempt may
     * name the same files.
     */
    const discard = async (result: unknown) => {
      try {
        const removed = await discardOutputs(ctx, task, result);
        if (removed) taskLog.info({ removed }, 'removed the outputs of a result that was not recorded');
      } catch (error) {
        taskLog.error({ err: error }, 'could not remove the outputs of a result that was not recorded');
      }
    };
    taskLog.info({ attempt: task.attempts }, 'task started');
    const heartbeat = setInterval(
      () => {
        renewLease(ctx.db, task.id, id, leaseMs)
          .then((state) => {
            if (state !== 'held') stop.abort(state);
          })
          .catch((error: unknown) => log.warn({ err: error, taskId: task.id }, 'task heartbeat failed'));
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    const timeout = setTimeout(() => stop.abort('timedOut'), definition.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const completionWrites: ((tx: Db) => Promise<void>)[] = [];
    try {
      const result = await definition.run({
        taskId: task.id,
        userId: task.userId,
        projectId: task.projectId,
        input: task.input,
        attempt: task.attempts,
        signal: stop.signal,
        progress: (stage: ProgressStage) => reportProgress(ctx.db, task.id, id, Stages.parse(stage)),
        partial: (result: unknown) => reportPartial(ctx.db, task.id, id, result),
        atCompletion: (write) => {
          completionWrites.push(write);
        },
        ctx,
        log: taskLog,
      });
      // A result that arrives after the task was stopped is not the task's result.
      if (stop.signal.aborted) {
        if (reasonOf() === 'cancelled' || reasonOf() === 'timedOut') await discard(result);
        throw stop.signal.reason;
      }
      const stored = result ?? {};
      const completed = await completeTask(
        ctx.db,
        task.id,
        id,
        stored,
        await eventResult(ctx, definition, stored, taskLog),
        completionWrites,
      );
      if (completed === 'completed') outcome = 'success';
      else if (completed === 'lost') {
        outcome = 'lost';
        taskLog.warn('task finished after losing its lease');
      } else {
        // Cancelled and refunded while the work finished: the result is not the task's, nor is what it made.
        taskLog.info('task finished after it was cancelled; its result is dropped');
        await discard(result);
        // Ended by the cancel already; only a task an older server marked for cancelling is still held, and ends here.
        await failTask(ctx, byKind, task.id, id, { key: 'taskCancelled' });
      }
    } catch (error) {
      const reason = reasonOf();
      if (reason === 'lost') {
        outcome = 'lost';
        taskLog.warn('task lease lost; another worker has it');
      } else if (reason === 'shutdown') {
        outcome = 'released';
        await releaseTask(ctx.db, task.id, id);
      } else {
        if (!reason && !(error instanceof AppError)) taskLog.error({ err: error }, 'task failed');
        else if (!reason && misconfiguredError(error)) taskLog.error({ err: error }, 'task failed: this machine lacks a part it needs');
        // The user reads the error table's message; the operator needs the provider's own answer behind it.
        if (!reason && error instanceof AppError && error.cause) taskLog.warn({ err: error.cause }, error.key);
        await failTask(ctx, byKind, task.id, id, storedError(reason, error));
      }
    } finally {
      clearInterval(heartbeat);
      clearTimeout(timeout);
      const seconds = (performance.now() - started) / 1000;
      taskDuration.observe({ kind: task.kind, outcome }, seconds);
      taskLog.info({ outcome, durationMs: Math.round(seconds * 1000) }, 'task ended');
    }
  }

  function start(task: TaskRow) {
    const definition = byKind.get(task.kind) as AnyTaskDefinition;
    const stop = new AbortController();
    const done = run(task, definition, stop)
      .catch((error: unknown) => log.error({ err: error, taskId: task.id }, 'could not record the end of a task'))
      .finally(() => {
        running.delete(task.id);
        wake.abort();
      });
    running.set(task.id, { stop, done, batch: task.batchRowId !== null });
  }

  async function loop() {
    while (!stopping.signal.aborted) {
      try {
        await failAbandonedTasks(ctx, byKind);
        await cancelBlockedTasks(ctx, byKind);
        while (running.size < concurrency && !stopping.signal.aborted) {
          const task = await claimTask(ctx.db, kinds, id, leaseMs, batchRunning() >= batchSlots);
          if (!task) break;
          start(task);
        }
      } catch (error) {
        log.error({ err: error }, 'the worker could not reach the queue');
      }
      if (wake.signal.aborted) {
        wake = new AbortController();
        continue;
      }
      await sleep(pollMs, AbortSignal.any([wake.signal, stopping.signal]));
    }
  }

  const looping = kinds.length ? loop() : Promise.resolve();
  log.info({ worker: id, concurrency, kinds }, 'worker started');
  return {
    id,
    async stop() {
      stopping.abort();
      submitted.off('task', onSubmitted);
      await looping;
      const left = [...running.entries()];
      for (const [, { stop }] of left) stop.abort('shutdown');
      const grace = new AbortController();
      await Promise.race([Promise.all(left.map(([, r]) => r.done)), sleep(SHUTDOWN_GRACE_MS, grace.signal)]);
      grace.abort();
      // Work that ignores its signal goes on, but can no longer write: the task is back in the queue.
      await Promise.all([...running.keys()].map((taskId) => releaseTask(ctx.db, taskId, id)));
    },
  };
}
