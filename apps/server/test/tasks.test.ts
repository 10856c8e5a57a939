import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { sleep, waitFor } from '../../../test-support/wait.js';
import type { AppContext } from '../src/context.js';
import { pointsLedger, tasks } from '../src/db/schema.js';
import { createInviteCodes } from '../src/modules/invites/service.js';
import { refund } from '../src/modules/points/ledger.js';
import { setPrice } from '../src/modules/points/prices.js';
import { claimTask, completeTask } from '../src/modules/tasks/queue.js';
import { startWorker, type Worker } from '../src/modules/tasks/worker.js';
import { appOn, Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { availableOf, expectConsistent } from './support/points.js';
import { type Behaviour, imageUrlFor, testTaskKind } from './support/tasks.js';

const PRICE = 7;
const KIND = 'enlarge-image';
const silent = { info() {}, warn() {}, error() {} };
interface TaskAnswer {
  taskId: string;
  status: string;
  progress?: string;
  error?: string;
  images?: { resKey: string; url: string }[];
}

let users = 0;
/** A signed-in, activated user with the sign-up credits, the price of the test kind set. */
async function memberOf(t: { app: FastifyInstance; ctx: AppContext }) {
  await setPrice(t.ctx.db, 'imageEnhance', PRICE);
  const browser = new Browser(t.app);
  const { userId } = await browser.devLogin(`tasks-${users++}@example.com`);
  const [code] = await createInviteCodes(t.ctx.db, { count: 1, maxUses: 1 });
  await browser.ok('POST', '/users/activate', { query: { inviteCode: code as string } });
  return { browser, userId };
}

describe.each(testDatabases())('the task engine on $name', (testDb) => {
  const kind = testTaskKind();
  const t = appOn(testDb, () => ({}), [kind.definition]);
  let workers: Worker[] = [];
  afterEach(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    workers = [];
  });

  const worker = (leaseMs = 400) => {
    const w = startWorker(t.ctx, [kind.definition], { concurrency: 2, leaseMs, pollMs: 25, log: silent });
    workers.push(w);
    return w;
  };

  const member = () => memberOf(t);

  const submit = (b: Browser, behaviour: Behaviour, headers: Record<string, string> = {}) =>
    b.call('POST', `/task/v1/${KIND}/submit`, { body: { imageUrl: imageUrlFor(behaviour) }, headers });
  const submitted = async (b: Browser, behaviour: Behaviour) => {
    const res = await submit(b, behaviour);
    expect(res.body).toMatchObject({ code: 0, data: { taskId: expect.any(String), status: 'SUBMITTED' } });
    return (res.body.data as { taskId: string }).taskId;
  };
  const query = async (b: Browser, taskId: string, locale = 'en') =>
    (await b.ok('GET', `/task/v1/${KIND}/query`, { query: { taskId }, headers: { 'accept-language': locale } })) as TaskAnswer;
  const settled = (b: Browser, taskId: string, statuses = ['SUCCESS', 'FAILURE']) =>
    waitFor(async () => {
      const answer = await query(b, taskId);
      return statuses.includes(answer.status) && answer;
    }, `task ${taskId} to reach ${statuses}`);
  const refundsOf = async (taskId: string) =>
    t.ctx.db
      .select()
      .from(pointsLedger)
      .where(and(eq(pointsLedger.taskId, taskId), eq(pointsLedger.operationType, 'REFUND_TASK')));
  const rowOf = async (taskId: string) => (await t.ctx.db.select().from(tasks).where(eq(tasks.id, taskId)))[0];

  it('charges the price as the task is submitted; a worker runs it to SUCCESS with its result and progress', async () => {
    const { browser, userId } = await member();
    const before = await availableOf(t.ctx.db, userId);
    const taskId = await submitted(browser, 'ok');
    expect(await availableOf(t.ctx.db, userId)).toBe(before - PRICE);
    expect(await query(browser, taskId)).toEqual({ taskId, status: 'SUBMITTED' });

    worker();
    const done = await settled(browser, taskId);
    expect(done).toEqual({
      taskId,
      status: 'SUCCESS',
      progress: 'rendering',
      images: [{ resKey: `k/${taskId}`, url: `http://files.test/${taskId}?fresh` }],
    });
    expect((await rowOf(taskId))?.result).toEqual({ images: [{ resKey: `k/${taskId}`, url: `http://files.test/${taskId}` }] });
    expect(kind.runs.get(taskId)).toBe(1);
    expect(await availableOf(t.ctx.db, userId)).toBe(before - PRICE);
    expect(await refundsOf(taskId)).toEqual([]);
  });

  it('answers what a running task has made so far, with fresh links, and nothing of it once the task fails', async () => {
    const { browser } = await member();
    const taskId = await submitted(browser, 'partial');
    worker();
    await waitFor(async () => ((await query(browser, taskId)).images?.length ?? 0) > 0, 'the first image shown');
    expect(await query(browser, taskId)).toEqual({
      taskId,
      status: 'IN_PROGRESS',
      progress: 'parsing',
      images: [{ resKey: `k/${taskId}/1`, url: `http://files.test/${taskId}/1?fresh` }],
    });
    await browser.ok('POST', `/task/v1/${KIND}/cancel`, { body: { taskId } });
    const ended = await settled(browser, taskId);
    expect(ended.status).toBe('FAILURE');
    expect(ended.images).toBeUndefined();
  });

  it('refuses a task the credits do not cover, writing no task and no charge', async () => {
    const { browser, userId } = await member();
    await setPrice(t.ctx.db, 'imageEnhance', 100_000);
    const before = await availableOf(t.ctx.db, userId);
    const res = await submit(browser, 'ok');
    expect(res.body.code).toBe(402);
    expect(await t.ctx.db.select().from(tasks).where(eq(tasks.userId, userId))).toEqual([]);
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
  });

  it('refuses an invalid input with a field-named error, writing nothing', async () => {
    const { browser, userId } = await member();
    const res = await browser.call('POST', `/task/v1/${KIND}/submit`, { body: { imageUrl: 'file:///etc/passwd', extra: 1 } });
    expect(res.body.code).toBe(40000);
    expect(res.body.message).toMatch(/imageUrl|extra/);
    expect(await t.ctx.db.select().from(tasks).where(eq(tasks.userId, userId))).toEqual([]);
  });

  it("ends a failed task FAILURE with its message in the reader's language and exactly one refund", async () => {
    const { browser, userId } = await member();
    const before = await availableOf(t.ctx.db, userId);
    const taskId = await submitted(browser, 'app-error');
    worker();
    const failed = await settled(browser, taskId);
    expect(failed.status).toBe('FAILURE');
    expect(JSON.parse(failed.error as string)).toEqual({ message: 'Not found.' });
    expect(JSON.parse((await query(browser, taskId, 'zh')).error as string)).toEqual({ message: '未找到。' });
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
    await refund(t.ctx.db, taskId);
    expect(await refundsOf(taskId)).toHaveLength(1);
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
    expect(kind.failedHooks).toContain(taskId);
  });

  it('reports an unexpected error as "Generation failed", refunded', async () => {
    const { browser, userId } = await member();
    const before = await availableOf(t.ctx.db, userId);
    const taskId = await submitted(browser, 'bug');
    worker();
    const failed = await settled(browser, taskId);
    expect(JSON.parse(failed.error as string)).toEqual({ message: 'Generation failed' });
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
  });

  it('submits once and charges once for one Idempotency-Key, even for requests at the same moment', async () => {
    const { browser, userId } = await member();
    const before = await availableOf(t.ctx.db, userId);
    const answers = await Promise.all(Array.from({ length: 5 }, () => submit(browser, 'ok', { 'idempotency-key': 'click-1' })));
    const ids = new Set(answers.map((a) => (a.body.data as { taskId: string }).taskId));
    expect(ids.size).toBe(1);
    expect(await availableOf(t.ctx.db, userId)).toBe(before - PRICE);
    expect(await t.ctx.db.select().from(tasks).where(eq(tasks.userId, userId))).toHaveLength(1);
  });

  it('cancels a queued task with a refund; a finished task cannot be cancelled', async () => {
    const { browser, userId } = await member();
    const before = await availableOf(t.ctx.db, userId);
    const taskId = await submitted(browser, 'ok');
    const cancelled = (await browser.ok('POST', `/task/v1/${KIND}/cancel`, { body: { taskId } })) as TaskAnswer;
    expect(cancelled.status).toBe('FAILURE');
    expect(JSON.parse(cancelled.error as string)).toEqual({ message: 'The task was cancelled.' });
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
    const again = await browser.call('POST', `/task/v1/${KIND}/cancel`, { body: { taskId } });
    expect(again.body.code).toBe(40900);
    worker();
    await sleep(200);
    expect(kind.runs.get(taskId)).toBeUndefined();
    expect(await refundsOf(taskId)).toHaveLength(1);
  });

  it('ends a running task at once when it is cancelled, with one refund', async () => {
    const { browser, userId } = await member();
    const before = await availableOf(t.ctx.db, userId);
    const taskId = await submitted(browser, 'hang');
    const w = worker(300);
    await settled(browser, taskId, ['IN_PROGRESS']);
    const cancelled = (await browser.ok('POST', `/task/v1/${KIND}/cancel`, { body: { taskId } })) as TaskAnswer;
    expect(cancelled.status).toBe('FAILURE');
    expect(JSON.parse(cancelled.error as string)).toEqual({ message: 'The task was cancelled.' });
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
    expect(kind.failedHooks).toContain(taskId);
    await w.stop();
    expect(await refundsOf(taskId)).toHaveLength(1);
    expect(await rowOf(taskId)).toMatchObject({ status: 'FAILURE', error: { key: 'taskCancelled' } });
  });

  it('stops a task that runs past its time limit, with a refund', async () => {
    const { browser, userId } = await member();
    const before = await availableOf(t.ctx.db, userId);
    const taskId = await submitted(browser, 'hang');
    worker();
    const failed = await settled(browser, taskId);
    expect(JSON.parse(failed.error as string).message).toMatch(/took too long/);
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
  });

  it('runs a task again when the lease of the worker that claimed it lapses (the worker died)', async () => {
    const { browser } = await member();
    const taskId = await submitted(browser, 'ok');
    const claimed = await claimTask(t.ctx.db, [KIND], 'a-worker-that-dies', 150);
    expect(claimed?.id).toBe(taskId);
    worker();
    const done = await settled(browser, taskId);
    expect(done.status).toBe('SUCCESS');
    expect(kind.runs.get(taskId)).toBe(1);
    expect((await rowOf(taskId))?.attempts).toBe(2);
  });

  const cancelAll = (b: Browser, taskIds: string[]) =>
    Promise.all(taskIds.map((taskId) => b.ok('POST', `/task/v1/${KIND}/cancel`, { body: { taskId } })));

  it('serves users in turn: the next worker takes the task of a user with none running before another user’s older ones', async () => {
    const flooder = await member();
    const other = await member();
    const first = await submitted(flooder.browser, 'ok');
    const waiting = [await submitted(flooder.browser, 'ok'), await submitted(flooder.browser, 'ok')];
    const theirs = await submitted(other.browser, 'ok');
    // Held by workers that do not finish them here: the flooder has one running, the other user none.
    expect((await claimTask(t.ctx.db, [KIND], 'worker-1', 60_000))?.id).toBe(first);
    expect((await claimTask(t.ctx.db, [KIND], 'worker-2', 60_000))?.id).toBe(theirs);
    // Both have one running now: the oldest waiting task is next.
    expect((await claimTask(t.ctx.db, [KIND], 'worker-3', 60_000))?.id).toBe(waiting[0]);
    await cancelAll(flooder.browser, [first, ...waiting]);
    await cancelAll(other.browser, [theirs]);
  });

  it('serves users in turn on one slot too: once a flooder’s task ends, another user’s task goes before the flooder’s older one', async () => {
    const flooder = await member();
    const other = await member();
    const first = await submitted(flooder.browser, 'ok');
    const waiting = await submitted(flooder.browser, 'ok');
    expect((await claimTask(t.ctx.db, [KIND], 'only-worker', 60_000))?.id).toBe(first);
    const theirs = await submitted(other.browser, 'ok');
    expect(await completeTask(t.ctx.db, first, 'only-worker', { ok: true })).toBe('completed');
    // Neither has a task running now: the user served longest ago (never) goes first, however old the flooder's is.
    expect((await claimTask(t.ctx.db, [KIND], 'only-worker', 60_000))?.id).toBe(theirs);
    expect((await claimTask(t.ctx.db, [KIND], 'only-worker', 60_000))?.id).toBe(waiting);
    await cancelAll(flooder.browser, [waiting]);
    await cancelAll(other.browser, [theirs]);
  });

  it('refuses a task past the user’s share of waiting ones with 429 and Retry-After, charging nothing, and holds no one else back', async () => {
    const { browser, userId } = await member();
    const limit = t.ctx.settings.tasksWaitingPerUser;
    const mine: string[] = [];
    for (let i = 0; i < limit; i++) mine.push(await submitted(browser, 'ok'));
    const before = await availableOf(t.ctx.db, userId);
    const refused = await submit(browser, 'ok');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.body).toEqual({
      code: 429,
      message: `You already have ${limit} of these waiting or in progress. Please wait for one to finish, then try again.`,
      data: null,
    });
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
    expect(await t.ctx.db.select().from(tasks).where(eq(tasks.userId, userId))).toHaveLength(limit);
    const other = await member();
    const theirs = await submitted(other.browser, 'ok');
    // One ended, room for one more.
    await cancelAll(browser, mine.slice(0, 1));
    const next = await submitted(browser, 'ok');
    await cancelAll(browser, [...mine.slice(1), next]);
    await cancelAll(other.browser, [theirs]);
  });

  it('fails a task whose workers keep dying once its attempts are spent, with one refund', async () => {
    const { browser, userId } = await member();
    const before = await availableOf(t.ctx.db, userId);
    const taskId = await submitted(browser, 'ok');
    for (let attempt = 1; attempt <= 3; attempt++) {
      await waitFor(() => claimTask(t.ctx.db, [KIND], `dying-worker-${attempt}`, 50), `claim ${attempt}`);
    }
    await sleep(80);
    worker();
    const failed = await settled(browser, taskId);
    expect(JSON.parse(failed.error as string).message).toMatch(/interrupted too many times/);
    expect(kind.runs.get(taskId)).toBeUndefined();
    expect(await refundsOf(taskId)).toHaveLength(1);
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
    expect(kind.failedHooks).toContain(taskId);
  });

  it("answers another user's task as not found, for reading and cancelling", async () => {
    const owner = await member();
    const stranger = await member();
    const taskId = await submitted(owner.browser, 'ok');
    for (const res of [
      await stranger.browser.call('GET', `/task/v1/${KIND}/query`, { query: { taskId } }),
      await stranger.browser.call('POST', `/task/v1/${KIND}/cancel`, { body: { taskId } }),
    ]) {
      expect(res.body.code).toBe(404);
    }
    expect((await query(owner.browser, taskId)).status).toBe('SUBMITTED');
    await owner.browser.ok('POST', `/task/v1/${KIND}/cancel`, { body: { taskId } });
  });

  it('gives a running task back to the queue, uncounted, when its worker stops', async () => {
    const { browser } = await member();
    const taskId = await submitted(browser, 'hang');
    const w = worker();
    await settled(browser, taskId, ['IN_PROGRESS']);
    await w.stop();
    expect(await rowOf(taskId)).toMatchObject({ status: 'SUBMITTED', attempts: 0, leaseOwner: null });
    await browser.ok('POST', `/task/v1/${KIND}/cancel`, { body: { taskId } });
  });

  it('never runs one task twice with two workers side by side, and the ledger adds up', async () => {
    // Two users, six tasks each: within each one's share of waiting tasks.
    const browsers = [(await member()).browser, (await member()).browser];
    const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => submitted(browsers[i % 2] as Browser, 'slow')));
    // Leases long enough never to lapse on a loaded machine: this is about claiming (SKIP LOCKED), and a lapsed
    // lease rightly lets the other worker run the task again (the lease tests cover that).
    worker(10_000);
    worker(10_000);
    for (const [i, id] of ids.entries()) expect((await settled(browsers[i % 2] as Browser, id)).status).toBe('SUCCESS');
    for (const id of ids) expect(kind.runs.get(id)).toBe(1);
    await expectConsistent(t.ctx.db);
  });
});

const HERE = dirname(fileURLToPath(import.meta.url));
const postgres = testDatabases().find((d) => d.name === 'postgres');

/** Worker processes on PostgreSQL, killed and counted from outside (design "Tasks": many workers, one queue). */
describe.runIf(postgres)('worker processes on postgres', () => {
  const kind = testTaskKind();
  const t = appOn(postgres as NonNullable<typeof postgres>, () => ({}), [kind.definition]);
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  /** Starts a worker process; `ran` collects the task ids it started, one entry per run. */
  async function workerProcess(env: Record<string, string>) {
    const url = (t as unknown as { database: { url: string } }).database.url;
    // node itself (not the tsx wrapper, which runs the script in a child), so SIGKILL kills the worker.
    const child = spawn(process.execPath, ['--import', 'tsx', join(HERE, 'support/workerProcess.ts')], {
      env: { ...process.env, DATABASE_URL: url, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const ran: string[] = [];
    let ready = false;
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) {
        if (line === 'ready') ready = true;
        if (line.startsWith('ran ')) ran.push(line.slice(4));
      }
    });
    await waitFor(async () => ready, 'the worker process to start', 30_000);
    return { child, ran };
  }

  const member = () => memberOf(t);
  const statusOf = async (taskId: string) => (await t.ctx.db.select().from(tasks).where(eq(tasks.id, taskId)))[0];

  it('finishes a task whose worker was killed with SIGKILL mid-task, charged once and never refunded twice', async () => {
    const { browser, userId } = await member();
    const before = await availableOf(t.ctx.db, userId);
    const crashing = await workerProcess({ HANG: '1', LEASE_MS: '600' });
    const res = await browser.ok('POST', `/task/v1/${KIND}/submit`, { body: { imageUrl: imageUrlFor('ok') } });
    const { taskId } = res as { taskId: string };
    await waitFor(async () => crashing.ran.includes(taskId), 'the task to start in the doomed worker');
    crashing.child.kill('SIGKILL');
    expect((await statusOf(taskId))?.status).toBe('IN_PROGRESS');

    const restarted = await workerProcess({ LEASE_MS: '600' });
    const row = await waitFor(async () => {
      const r = await statusOf(taskId);
      return r?.status === 'SUCCESS' && r;
    }, 'the task to finish after the restart');
    expect(row.attempts).toBe(2);
    expect(restarted.ran).toEqual([taskId]);
    expect(await availableOf(t.ctx.db, userId)).toBe(before - PRICE);
    await expectConsistent(t.ctx.db);
  });

  it('never runs one task twice with two worker processes on one PostgreSQL', async () => {
    // Four users, six tasks each: within each one's share of waiting tasks.
    const members = await Promise.all(Array.from({ length: 4 }, () => member()));
    const [a, b] = await Promise.all([workerProcess({}), workerProcess({})]);
    const ids = await Promise.all(
      Array.from({ length: 24 }, async (_, n) => {
        const { browser } = members[n % 4] as (typeof members)[number];
        const res = await browser.ok('POST', `/task/v1/${KIND}/submit`, { body: { imageUrl: imageUrlFor('slow', n) } });
        return (res as { taskId: string }).taskId;
      }),
    );
    await waitFor(
      async () => {
        const rows = await t.ctx.db.select({ status: tasks.status }).from(tasks).where(eq(tasks.kind, KIND));
        return rows.every((r) => r.status === 'SUCCESS' || r.status === 'FAILURE');
      },
      'every task to finish',
      60_000,
    );
    const runs = [...(a as { ran: string[] }).ran, ...(b as { ran: string[] }).ran];
    expect(runs.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    expect(a?.ran.length).toBeGreaterThan(0);
    expect(b?.ran.length).toBeGreaterThan(0);
    for (const id of ids) expect((await statusOf(id))?.status).toBe('SUCCESS');
  });
});
