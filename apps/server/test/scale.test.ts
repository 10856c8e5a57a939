// Scale-out as an operator runs it: two ROLE=api and three ROLE=worker processes of `main.ts` on one fresh
// PostgreSQL database and one files directory. 100 tasks from 10 users, some failing: every task runs exactly once,
// every charge and refund is right, the balances are exact, and the processes' metrics and logs tell the same story.
// Then graceful shutdown: SIGTERM on a worker gives its running task to another worker (charged once, never
// refunded), SIGTERM on an API process finishes the upload in flight before the process exits, and a request that
// outlasts SHUTDOWN_TIMEOUT_SECONDS makes the process exit anyway.

import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeImage } from '@reelsmith/media/fixtures';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, waitFor } from '../../../test-support/wait.js';
import { queryRows } from '../src/db/client.js';
import { pointsLedger, tasks } from '../src/db/schema.js';
import { createInviteCodes } from '../src/modules/invites/service.js';
import { auditLedger } from '../src/modules/points/audit.js';
import { setPrice } from '../src/modules/points/prices.js';
import { readAccount } from '../src/modules/points/queries.js';
import { type TestDb, testDatabases } from './support/databases.js';
import { HttpClient, metricSum } from './support/httpClient.js';
import { SCALE_RUNS_TABLE } from './support/scaleTasks.js';
import { freePort, type ServerProcess, startServer, whenHealthy } from './support/serverProcess.js';

const postgres = testDatabases().find((d) => d.name === 'postgres');
if (!postgres) console.warn('scale.test.ts: skipped: TEST_DATABASE_URL is unset (these tests run server processes on PostgreSQL)');

const PRICE = 7;
const USERS = 10;
const TASKS_PER_USER = 10;
const KIND = 'enlarge-image';
const MODULE = join(import.meta.dirname, 'support/scaleTasks.ts');
/** Every fourth task of a user fails (n = 3, 7): its credits come back. */
const fails = (n: number) => n % 4 === 3;

/** A PUT whose first half is sent at once; `finish` sends the rest. */
function uploadInFlight(url: string, headers: Record<string, string>, bytes: Buffer) {
  const half = Math.floor(bytes.length / 2);
  const req = request(url, { method: 'PUT', headers: { ...headers, 'content-length': String(bytes.length) } });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
  req.write(bytes.subarray(0, half));
  return { answer, finish: () => req.end(bytes.subarray(half)), abandon: () => req.destroy() };
}

describe.skipIf(!postgres)('two API and three worker processes on one PostgreSQL', () => {
  let database: TestDb;
  let dataDir: string;
  const apis: ServerProcess[] = [];
  const workers: ServerProcess[] = [];
  const members: Array<{ client: HttpClient; userId: string }> = [];

  const db = () => database.db;
  /** The environment of every process: one database, one files directory, the test kind, JSON logs. */
  const env = (role: string) => ({
    ROLE: role,
    DATABASE_URL: database.url as string,
    DATA_DIR: dataDir,
    SESSION_SECRET: 's'.repeat(32),
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    EXTRA_TASKS_MODULE: MODULE,
    WORKER_CONCURRENCY: '2',
    // Each user submits TASKS_PER_USER at once: this is the engine's throughput, not one user's share.
    TASKS_WAITING_PER_USER: String(TASKS_PER_USER),
    LOG_LEVEL: 'info',
  });

  const runsOf = async (taskIds: string[]) =>
    queryRows<{ task_id: string; pid: number }>(
      db(),
      sql`select task_id, pid from scale_runs where task_id = any(${sql.param(taskIds)}::uuid[])`,
    );
  const rowOf = async (taskId: string) => (await db().select().from(tasks).where(eq(tasks.id, taskId)))[0];
  const scrape = async (server: ServerProcess) => (await fetch(`${server.base}/metrics`)).text();

  beforeAll(async () => {
    database = await (postgres as NonNullable<typeof postgres>).open();
    await db().execute(SCALE_RUNS_TABLE);
    await setPrice(db(), 'imageEnhance', PRICE);
    dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-scale-'));
    for (let i = 0; i < 2; i++) apis.push(startServer(env('api'), await freePort()));
    for (let i = 0; i < 3; i++) workers.push(startServer(env('worker'), await freePort()));
    await Promise.all([...apis, ...workers].map((s) => whenHealthy(s)));

    const codes = await createInviteCodes(db(), { count: USERS, maxUses: 1 });
    for (let u = 0; u < USERS; u++) {
      const client = new HttpClient((apis[u % 2] as ServerProcess).base);
      const { userId } = await client.ok<{ userId: string }>('POST', '/auth/dev-login', { body: { email: `scale-${u}@example.com` } });
      await client.ok('POST', '/users/activate', { query: { inviteCode: codes[u] as string } });
      members.push({ client, userId });
    }
  }, 120_000);

  afterAll(async () => {
    for (const server of [...apis, ...workers]) server.child.kill('SIGKILL');
    await Promise.all([...apis, ...workers].map((s) => s.exited));
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs 100 tasks from 10 users exactly once each, with every charge and refund right', async () => {
    const before = new Map<string, number>();
    for (const m of members) before.set(m.userId, (await readAccount(db(), m.userId)).availablePoints);

    // Every user submits through both API processes at once.
    const submitted = await Promise.all(
      members.flatMap((m, u) =>
        Array.from({ length: TASKS_PER_USER }, async (_, n) => {
          const client = m.client.on((apis[(u + n) % 2] as ServerProcess).base);
          const imageUrl = fails(n) ? `http://scale.test/fail?u=${u}&n=${n}` : `http://scale.test/ok?u=${u}&n=${n}`;
          const { taskId } = await client.ok<{ taskId: string }>('POST', `/task/v1/${KIND}/submit`, { body: { imageUrl } });
          return { taskId, userId: m.userId, fails: fails(n) };
        }),
      ),
    );
    const ids = submitted.map((s) => s.taskId);
    expect(new Set(ids).size).toBe(USERS * TASKS_PER_USER);

    await waitFor(async () => {
      const rows = await db().select({ status: tasks.status }).from(tasks).where(inArray(tasks.id, ids));
      return rows.every((r) => r.status === 'SUCCESS' || r.status === 'FAILURE');
    }, 'every task to end');

    // Exactly one run per task, shared by all three workers.
    const runs = await runsOf(ids);
    expect(runs.map((r) => r.task_id).sort()).toEqual([...ids].sort());
    const workerPids = workers.map((w) => w.child.pid);
    const ranBy = new Set(runs.map((r) => r.pid));
    expect([...ranBy].every((pid) => workerPids.includes(pid))).toBe(true);
    expect(ranBy.size).toBe(3);

    // Each task ended as its input says; a user's query through either API process agrees.
    for (const s of submitted) expect((await rowOf(s.taskId))?.status).toBe(s.fails ? 'FAILURE' : 'SUCCESS');
    const sample = submitted.find((s) => s.fails) as (typeof submitted)[number];
    const owner = members.find((m) => m.userId === sample.userId) as (typeof members)[number];
    expect(
      await owner.client.on((apis[1] as ServerProcess).base).ok('GET', `/task/v1/${KIND}/query`, { query: { taskId: sample.taskId } }),
    ).toEqual({
      taskId: sample.taskId,
      status: 'FAILURE',
      progress: 'parsing',
      error: JSON.stringify({ message: 'Not found.' }),
    });

    // One charge per task, one refund per failed task, balances exact, the ledger's invariants hold.
    const ledger = await db().select().from(pointsLedger).where(inArray(pointsLedger.taskId, ids));
    for (const s of submitted) {
      const rows = ledger.filter((r) => r.taskId === s.taskId);
      expect(rows.filter((r) => r.pointsChange < 0).map((r) => r.pointsChange)).toEqual([-PRICE]);
      expect(rows.filter((r) => r.operationType === 'REFUND_TASK').map((r) => r.pointsChange)).toEqual(s.fails ? [PRICE] : []);
    }
    const failedPerUser = Array.from({ length: TASKS_PER_USER }, (_, n) => fails(n)).filter(Boolean).length;
    for (const m of members) {
      const failed = submitted.filter((s) => s.userId === m.userId && s.fails).length;
      expect(failed).toBe(failedPerUser);
      expect((await readAccount(db(), m.userId)).availablePoints).toBe(
        (before.get(m.userId) as number) - PRICE * (TASKS_PER_USER - failed),
      );
    }
    expect(await auditLedger(db())).toEqual([]);

    // The metrics of the processes add up to the same: charges in the API processes, outcomes in the workers.
    const failedTotal = submitted.filter((s) => s.fails).length;
    const apiMetrics = await Promise.all(apis.map(scrape));
    const workerMetrics = await Promise.all(workers.map(scrape));
    const sum = (texts: string[], name: string, labels: Record<string, string> = {}) =>
      texts.reduce((total, text) => total + metricSum(text, name, labels), 0);
    expect(sum(apiMetrics, 'reelsmith_charges_total', { kind: KIND })).toBe(100);
    expect(sum(apiMetrics, 'reelsmith_charged_credits_total', { kind: KIND })).toBe(100 * PRICE);
    expect(sum(apiMetrics, 'reelsmith_http_requests_total', { route: `/reelsmith/api/task/v1/${KIND}/submit`, status: '200' })).toBe(100);
    expect(sum(workerMetrics, 'reelsmith_task_failures_total', { kind: KIND, error: 'notFound' })).toBe(failedTotal);
    expect(sum(workerMetrics, 'reelsmith_refunds_total', { kind: KIND })).toBe(failedTotal);
    expect(sum(workerMetrics, 'reelsmith_refunded_credits_total', { kind: KIND })).toBe(failedTotal * PRICE);
    expect(sum(workerMetrics, 'reelsmith_task_duration_seconds_count', { kind: KIND, outcome: 'success' })).toBe(100 - failedTotal);
    expect(metricSum(apiMetrics[0] as string, 'reelsmith_tasks', { kind: KIND })).toBe(0);

    // Each worker's JSON log names the tasks it ran; each API log line of a request carries its request id.
    const started = workers.flatMap((w) =>
      w
        .logs()
        .filter((l) => l.msg === 'task started')
        .map((l) => l.taskId),
    );
    expect(started.sort()).toEqual([...ids].sort());
    const ended = workers.flatMap((w) => w.logs().filter((l) => l.msg === 'task ended' && ids.includes(l.taskId as string)));
    expect(ended.every((l) => l.kind === KIND && typeof l.durationMs === 'number' && typeof l.worker === 'string')).toBe(true);
    const requests = apis.flatMap((a) => a.logs().filter((l) => l.msg === 'request completed'));
    expect(requests.length).toBeGreaterThanOrEqual(100);
    expect(requests.every((l) => typeof l.reqId === 'string' && /^[0-9a-f-]{36}$/.test(l.reqId as string))).toBe(true);
  }, 120_000);

  it('gives a task back to the queue when its worker gets SIGTERM; another worker finishes it, charged once and never refunded', async () => {
    const m = members[0] as (typeof members)[number];
    const before = (await readAccount(db(), m.userId)).availablePoints;
    const { taskId } = await m.client.ok<{ taskId: string }>('POST', `/task/v1/${KIND}/submit`, {
      body: { imageUrl: 'http://scale.test/slow?ms=4000' },
    });
    const [first] = await waitFor(async () => {
      const runs = await runsOf([taskId]);
      return runs.length > 0 && runs;
    }, 'the slow task to start');
    const doomed = workers.find((w) => w.child.pid === first?.pid) as ServerProcess;
    doomed.child.kill('SIGTERM');
    expect(await doomed.exited).toBe(0);

    const row = await waitFor(async () => {
      const r = await rowOf(taskId);
      return r?.status === 'SUCCESS' && r;
    }, 'another worker to finish the task');
    const runs = await runsOf([taskId]);
    expect(runs).toHaveLength(2);
    expect(runs[1]?.pid).not.toBe(doomed.child.pid);
    // The released attempt is not counted against the task's attempts.
    expect(row.attempts).toBe(1);
    expect(doomed.logs().some((l) => l.msg === 'task ended' && l.taskId === taskId && l.outcome === 'released')).toBe(true);
    const ledger = await db().select().from(pointsLedger).where(eq(pointsLedger.taskId, taskId));
    expect(ledger.map((r) => r.pointsChange)).toEqual([-PRICE]);
    expect((await readAccount(db(), m.userId)).availablePoints).toBe(before - PRICE);
    expect(await auditLedger(db())).toEqual([]);
  }, 60_000);

  it('finishes an upload in flight when its API process gets SIGTERM, and refuses new connections', async () => {
    const api = apis[0] as ServerProcess;
    const m = members[0] as (typeof members)[number];
    const client = m.client.on(api.base);
    const target = await client.ok<{ uploadUrl: string; resKey: string; headers: Record<string, string> }>('GET', '/file/user/put-url', {
      query: { format: 'png' },
    });
    const png = await makeImage(640, 480, 'png');
    const upload = uploadInFlight(`${api.base}${target.uploadUrl}`, target.headers, png);
    await sleep(200);
    api.child.kill('SIGTERM');
    setTimeout(() => upload.finish(), 1_000);
    // While the upload is in flight the process no longer takes new connections.
    await sleep(600);
    await expect(fetch(`${api.base}/reelsmith/api/health`)).rejects.toThrow();
    const { status } = await upload.answer;
    expect(status).toBe(200);
    expect(await api.exited).toBe(0);
    // The bytes are whole: the other API process registers the upload as an image.
    const asset = await m.client.on((apis[1] as ServerProcess).base).call('POST', '/assert/uploadFileWithUrl', {
      body: { resKey: target.resKey, fileName: 'half-time.png' },
    });
    expect(asset.body).toMatchObject({ code: 0, data: { format: 'png' } });
  }, 60_000);

  it('exits with code 1 when a request outlasts SHUTDOWN_TIMEOUT_SECONDS after SIGTERM', async () => {
    const api = startServer({ ...env('api'), SHUTDOWN_TIMEOUT_SECONDS: '1' }, await freePort());
    apis.push(api);
    await whenHealthy(api);
    const m = members[0] as (typeof members)[number];
    const target = await m.client
      .on(api.base)
      .ok<{ uploadUrl: string; headers: Record<string, string> }>('GET', '/file/user/put-url', { query: { format: 'png' } });
    const upload = uploadInFlight(`${api.base}${target.uploadUrl}`, target.headers, await makeImage(640, 480, 'png'));
    // The process dies with the request open: the client's error is the expected end of it.
    upload.answer.catch(() => {});
    await sleep(200);
    const began = Date.now();
    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(1);
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(api.logs().some((l) => l.msg === 'shutdown took too long; exiting')).toBe(true);
    upload.abandon();
  }, 60_000);
});
