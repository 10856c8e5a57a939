// Cancel racing completion (decision "Cancel is decided with completion"): a cancel that answers "cancelled" must end
// the task cancelled and refunded exactly once, with nothing of its work kept; otherwise it answers that it is too
// late, and the task stays as it ended. Each interleaving is forced: the work waits at a gate the test opens, and on
// PostgreSQL the racing statements queue, in a known order, behind the test's own lock on the task's row.
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/context.js';
import { files, pointsLedger, tasks } from '../src/db/schema.js';
import { setPrice } from '../src/modules/points/prices.js';
import { startWorker, type Worker } from '../src/modules/tasks/worker.js';
import { appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { waitFor } from './support/faults.js';
import { activeMember } from './support/files.js';
import { gatedImageUrl, gatedTaskKind } from './support/gatedTasks.js';
import { availableOf, expectConsistent } from './support/points.js';
import { holdTaskRow } from './support/rowLock.js';

const PRICE = 5;
const KIND = 'enlarge-image';
const silent = { info() {}, warn() {}, error() {} };
/** No heartbeat falls inside a test: the races here are between the cancel and the completion only. */
const LEASE_MS = 120_000;

interface TaskAnswer {
  taskId: string;
  status: string;
  error?: string;
}

let gateNames = 0;

function cancelRaces(testDb: ReturnType<typeof testDatabases>[number]) {
  const kind = gatedTaskKind();
  const t = appOn(testDb, () => ({}), [kind.definition]);
  let workers: Worker[] = [];
  afterEach(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    workers = [];
  });
  const startWorking = () =>
    workers.push(startWorker(t.ctx, [kind.definition], { concurrency: 4, leaseMs: LEASE_MS, pollMs: 25, log: silent }));

  /** A member with a task whose work has finished (its output stored) and waits at its gate, not yet completed. */
  async function finishedWork(t: { app: FastifyInstance; ctx: AppContext }) {
    await setPrice(t.ctx.db, 'imageEnhance', PRICE);
    const { browser, userId } = await activeMember(t, 'canceller');
    const before = await availableOf(t.ctx.db, userId);
    const gate = `race-${gateNames++}`;
    const submitted = await browser.ok('POST', `/task/v1/${KIND}/submit`, { body: { imageUrl: gatedImageUrl(gate) } });
    const { taskId } = submitted as { taskId: string };
    expect(await availableOf(t.ctx.db, userId)).toBe(before - PRICE);
    await kind.gates.reached(kind.doneGate(gate));
    return { browser, userId, before, taskId, gate };
  }

  const rowOf = async (taskId: string) => (await t.ctx.db.select().from(tasks).where(eq(tasks.id, taskId)))[0];
  const refundsOf = (taskId: string) =>
    t.ctx.db
      .select()
      .from(pointsLedger)
      .where(and(eq(pointsLedger.taskId, taskId), eq(pointsLedger.operationType, 'REFUND_TASK')));
  const outputsOf = (userId: string) => t.ctx.db.select().from(files).where(eq(files.userId, userId));
  /** The refused completion has removed its output: the library row first, then the stored object. */
  const outputRemoved = async (userId: string, key: string) =>
    (await outputsOf(userId)).length === 0 && (await t.ctx.storage.stat(key)) === null;
  const cancel = (browser: Browser, taskId: string) => browser.call('POST', `/task/v1/${KIND}/cancel`, { body: { taskId } });

  /** The task ended cancelled: one refund, the credits back, its output gone from the library and the file store. */
  async function expectCancelled(task: { userId: string; before: number; taskId: string }, outputKey: string) {
    expect(await rowOf(task.taskId)).toMatchObject({ status: 'FAILURE', error: { key: 'taskCancelled' }, result: null });
    expect(await refundsOf(task.taskId)).toHaveLength(1);
    expect(await availableOf(t.ctx.db, task.userId)).toBe(task.before);
    expect(await outputsOf(task.userId)).toEqual([]);
    expect(await t.ctx.storage.stat(outputKey)).toBeNull();
  }

  /** The task ended in SUCCESS, charged and never refunded, its output kept. */
  async function expectCompleted(task: { userId: string; before: number; taskId: string }) {
    const row = await rowOf(task.taskId);
    if (!row) throw new Error(`no task ${task.taskId}`);
    expect(row.status).toBe('SUCCESS');
    expect(await refundsOf(task.taskId)).toEqual([]);
    expect(await availableOf(t.ctx.db, task.userId)).toBe(task.before - PRICE);
    const [output] = await outputsOf(task.userId);
    expect((row.result as { images: { resKey: string }[] }).images[0]?.resKey).toBe(output?.resKey);
  }

  it('cancels a task whose work has finished but is not yet completed: cancelled and refunded at once; the completion is refused and its output removed', async () => {
    startWorking();
    const task = await finishedWork(t);
    const [output] = await outputsOf(task.userId);
    const answer = await cancel(task.browser, task.taskId);
    expect(answer.body.code).toBe(0);
    const state = answer.body.data as TaskAnswer;
    expect(state.status).toBe('FAILURE');
    expect(JSON.parse(state.error as string)).toEqual({ message: 'The task was cancelled.' });
    expect(await availableOf(t.ctx.db, task.userId)).toBe(task.before);

    kind.gates.release(kind.doneGate(task.gate));
    // The worker tries to complete, is refused, and removes what the work made.
    await waitFor(() => outputRemoved(task.userId, output?.resKey as string), 'the refused completion to remove its output', 10_000);
    await expectCancelled(task, output?.resKey as string);
    await expectConsistent(t.ctx.db);
  });

  it('answers "too late" to a cancel after the completion: the task stays SUCCESS, charged, nothing refunded', async () => {
    startWorking();
    const task = await finishedWork(t);
    kind.gates.release(kind.doneGate(task.gate));
    await waitFor(async () => (await rowOf(task.taskId))?.status === 'SUCCESS', 'the completion', 10_000);
    const answer = await cancel(task.browser, task.taskId);
    expect(answer.body).toMatchObject({ code: 40900, message: 'Too late to cancel: this task has already finished.', data: null });
    await expectCompleted(task);
  });

  it('refunds once when the same running task is cancelled many times at once: one cancel ends it, the others are too late', async () => {
    startWorking();
    const task = await finishedWork(t);
    const [output] = await outputsOf(task.userId);
    const answers = await Promise.all(Array.from({ length: 6 }, () => cancel(task.browser, task.taskId)));
    expect(answers.map((a) => a.body.code).sort()).toEqual([0, 40900, 40900, 40900, 40900, 40900]);
    kind.gates.release(kind.doneGate(task.gate));
    await waitFor(() => outputRemoved(task.userId, output?.resKey as string), 'the refused completion to remove its output', 10_000);
    await expectCancelled(task, output?.resKey as string);
  });

  if (testDb.name !== 'postgres') return;

  it('postgres: a cancel queued before the completion on the task row wins; the completion, served after it, is refused', async () => {
    startWorking();
    const task = await finishedWork(t);
    const [output] = await outputsOf(task.userId);
    const lock = await holdTaskRow(t.database.url as string, task.taskId);
    const cancelled = cancel(task.browser, task.taskId);
    await waitFor(async () => (await lock.waiting()) === 1, 'the cancel to queue on the row', 10_000);
    kind.gates.release(kind.doneGate(task.gate));
    await waitFor(async () => (await lock.waiting()) === 2, 'the completion to queue behind it', 10_000);
    await lock.release();

    const answer = await cancelled;
    expect(answer.body.code).toBe(0);
    expect((answer.body.data as TaskAnswer).status).toBe('FAILURE');
    await waitFor(() => outputRemoved(task.userId, output?.resKey as string), 'the refused completion to remove its output', 10_000);
    await expectCancelled(task, output?.resKey as string);
    await expectConsistent(t.ctx.db);
  });

  it('postgres: a completion queued before the cancel on the task row wins; the cancel, served after it, answers too late', async () => {
    startWorking();
    const task = await finishedWork(t);
    const lock = await holdTaskRow(t.database.url as string, task.taskId);
    kind.gates.release(kind.doneGate(task.gate));
    await waitFor(async () => (await lock.waiting()) === 1, 'the completion to queue on the row', 10_000);
    const cancelled = cancel(task.browser, task.taskId);
    await waitFor(async () => (await lock.waiting()) === 2, 'the cancel to queue behind it', 10_000);
    await lock.release();

    const answer = await cancelled;
    expect(answer.body).toMatchObject({ code: 40900, data: null });
    await expectCompleted(task);
    await expectConsistent(t.ctx.db);
  });
}

describe.each(testDatabases())('cancel racing completion on $name', cancelRaces);
