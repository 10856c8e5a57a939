// Fault: PostgreSQL restarted mid-request. A ROLE=api and a ROLE=worker process of `main.ts` run on a
// private PostgreSQL cluster (never the shared one) while simulated users browse, create projects and submit paid
// tasks that run for seconds. The cluster is restarted (pg_ctl restart -m fast), then stopped immediately (a crash)
// and started again. Requests during an outage get an envelope error at once, never a hang or a dropped connection;
// both processes stay up and serve again without being restarted; every task ends (SUCCESS, or FAILURE with its
// refund); a submit retried with its Idempotency-Key is never charged twice; the ledger adds up.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '@reelsmith/contract';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, queryRows } from '../../src/db/client.js';
import { tasks } from '../../src/db/schema.js';
import { setPrice } from '../../src/modules/points/prices.js';
import { availableOf, expectLedgerConsistent, ledgerOf, printFigures, serverEnv, signUp, sleep, waitFor } from '../support/faults.js';
import type { HttpClient } from '../support/httpClient.js';
import { type PrivatePostgres, startPrivatePostgres } from '../support/privatePostgres.js';
import { SCALE_RUNS_TABLE } from '../support/scaleTasks.js';
import { freePort, printed, type ServerProcess, startServer, whenHealthy } from '../support/serverProcess.js';

const KIND = 'enlarge-image';
const PRICE = 3;
const USERS = 3;
/** A request not answered within this is a hang. */
const HANG_MS = 15_000;
/** How long the immediate stop keeps the database away. */
const OUTAGE_MS = 2_000;
/** How often each member submits a paid task that works for TASK_MS. */
const SUBMIT_EVERY_MS = 400;
const TASK_MS = 800;
const figures: Record<string, string | number> = {};
const submitBody = (key: string) => ({ imageUrl: `http://scale.test/slow?ms=${TASK_MS}&key=${key}` });

interface Outcome {
  phase: string;
  action: string;
  /** 'ok', the envelope's code, 'hang' or 'network' (no answer: the process dropped the connection or is gone). */
  result: 'ok' | number | 'hang' | 'network' | 'not an envelope';
  status: number;
  message: string;
  ms: number;
}

describe('PostgreSQL restarted under an API and a worker process', () => {
  let cluster: PrivatePostgres;
  let database: Database;
  let dataDir: string;
  let api: ServerProcess;
  let worker: ServerProcess;
  const members: Array<{ client: HttpClient; userId: string; before: number }> = [];
  const db = () => database.db;

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-fault-pg-'));
    const env = (role: string) =>
      serverEnv(cluster.url, dataDir, {
        ROLE: role,
        EXTRA_TASKS_MODULE: join(import.meta.dirname, '../support/scaleTasks.ts'),
        WORKER_CONCURRENCY: '4',
        TASK_LEASE_SECONDS: '2',
        // Members keep submitting while the database is away and nothing runs: this is about the outage, not about
        // one user's share of waiting tasks (decision "Fair share of the workers").
        TASKS_WAITING_PER_USER: '1000',
      });
    api = startServer(env('api'), await freePort());
    await whenHealthy(api);
    worker = startServer(env('worker'), await freePort());
    await whenHealthy(worker);
    database = await openDatabase({ databaseUrl: cluster.url });
    await db().execute(SCALE_RUNS_TABLE);
    await setPrice(db(), 'imageEnhance', PRICE);
    for (let u = 0; u < USERS; u++) {
      const member = await signUp(db(), api.base, `pg-fault-${u}@example.com`);
      members.push({ ...member, before: await availableOf(db(), member.userId) });
    }
  }, 120_000);

  afterAll(async () => {
    // A process that did not live through the outages says why.
    for (const server of [api, worker]) if (server && server.child.exitCode !== null) console.error(printed(server).slice(-30).join('\n'));
    for (const server of [api, worker]) server?.child.kill('SIGKILL');
    await Promise.all([api, worker].filter(Boolean).map((s) => s.exited));
    await database?.close();
    await cluster?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    printFigures('PostgreSQL restarted mid-request', figures);
  });

  it('answers envelope errors during the outages, serves again without a restart, ends every task and charges each once', async () => {
    const outcomes: Outcome[] = [];
    /** Every submit by its Idempotency-Key, with the task id once one was answered. */
    const submits = new Map<string, { member: (typeof members)[number]; taskId?: string }>();
    let phase = 'before';
    let running = true;
    let n = 0;

    /** One request as a user makes it, its outcome recorded with the phase it was sent in. */
    async function act(member: (typeof members)[number], action: 'me' | 'balance' | 'project' | 'submit'): Promise<void> {
      const began = performance.now();
      const sentIn = phase;
      const record = (result: Outcome['result'], status = 0, message = '') =>
        outcomes.push({ phase: sentIn, action, result, status, message, ms: performance.now() - began });
      const signal = AbortSignal.timeout(HANG_MS);
      const key = `submit-${++n}`;
      const { client } = member;
      try {
        let answer: Awaited<ReturnType<HttpClient['call']>>;
        if (action === 'me') answer = await client.call('GET', '/users/me', { signal });
        else if (action === 'balance') answer = await client.call('GET', '/points/account', { signal });
        else if (action === 'project')
          answer = await client.call('POST', '/project/createProject', { body: { projectName: `Lamp ${n}` }, signal });
        else {
          submits.set(key, { member });
          answer = await client.call('POST', `/task/v1/${KIND}/submit`, {
            body: submitBody(key),
            headers: { 'idempotency-key': key },
            signal,
          });
          if (answer.body.code === 0) (submits.get(key) as { taskId?: string }).taskId = (answer.body.data as { taskId: string }).taskId;
        }
        record(answer.body.code === 0 ? 'ok' : answer.body.code, answer.status, answer.body.message);
      } catch (error) {
        if (signal.aborted) record('hang');
        else if (error instanceof SyntaxError) record('not an envelope');
        else record('network', 0, String((error as Error).cause ?? error));
      }
    }

    // Per member: two browsers reading and creating projects without pause, and a steady stream of paid tasks.
    const loops = members.flatMap((member) => [
      ...[0, 1].map(async (l) => {
        const reads = ['me', 'balance', 'project'] as const;
        for (let i = l; running; i++) {
          await act(member, reads[i % reads.length] as (typeof reads)[number]);
          await sleep(20);
        }
      }),
      (async () => {
        while (running) {
          await act(member, 'submit');
          await sleep(SUBMIT_EVERY_MS);
        }
      })(),
    ]);

    /** Until both processes answer their health probe (the API's and the worker's own database checks). */
    async function recovery(): Promise<void> {
      await Promise.all(
        [api, worker].map((server) =>
          waitFor(
            async () => (await fetch(`${server.base}/reelsmith/api/health`).then((r) => r.json() as Promise<{ code: number }>)).code === 0,
            `${server === api ? 'the API' : 'the worker'} to reach the database again`,
            30_000,
          ),
        ),
      );
    }

    /** Runs a step and keeps how long it took as a figure. */
    const timed = async (figure: string, step: () => Promise<unknown>) => {
      const began = performance.now();
      await step();
      figures[figure] = Math.round(performance.now() - began);
    };
    await sleep(1_000);
    phase = 'restart -m fast';
    await timed('pg_ctl restart -m fast took (ms)', () => cluster.restartFast());
    await timed('recovery after the fast restart: both processes healthy again (ms)', recovery);
    phase = 'between';
    await sleep(1_500);

    phase = 'immediate stop';
    await cluster.stopImmediate();
    await sleep(OUTAGE_MS);
    phase = 'start after the crash';
    await timed('pg_ctl start after the immediate stop took (ms)', () => cluster.start());
    await timed('recovery after the immediate stop: both processes healthy again (ms)', recovery);
    phase = 'after';
    await sleep(1_500);
    running = false;
    await Promise.all(loops);

    // The processes lived through both: never restarted, still the same.
    expect(api.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();

    // Every request had an answer: no hang, no dropped connection, and each error an envelope saying the service is
    // briefly unavailable (503).
    const failed = outcomes.filter((o) => o.result !== 'ok');
    const unavailable = errorMessage('serviceUnavailable', 'en');
    expect(failed.filter((o) => typeof o.result !== 'number')).toEqual([]);
    expect(failed.filter((o) => o.status !== 503 || o.message !== unavailable)).toEqual([]);
    expect(failed.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.phase === 'after').every((o) => o.result === 'ok')).toBe(true);
    for (const p of ['restart -m fast', 'immediate stop', 'start after the crash']) {
      const inPhase = outcomes.filter((o) => o.phase === p);
      const errors = inPhase.filter((o) => o.result !== 'ok');
      figures[`requests during "${p}"`] =
        `${inPhase.length}, of which failed ${errors.length}, slowest failure ${Math.round(Math.max(0, ...errors.map((o) => o.ms)))} ms`;
    }
    figures['requests in all'] = `${outcomes.length}, failed ${failed.length}, hung 0, dropped 0`;

    // Submits that failed are retried with their Idempotency-Key: each key ends as exactly one task.
    for (const [key, submit] of submits) {
      if (submit.taskId) continue;
      const answer = await submit.member.client.ok<{ taskId: string }>('POST', `/task/v1/${KIND}/submit`, {
        body: submitBody(key),
        headers: { 'idempotency-key': key },
      });
      submit.taskId = answer.taskId;
    }
    const ids = [...submits.values()].map((s) => s.taskId as string);
    expect(new Set(ids).size).toBe(submits.size);

    // Every task ends; the tasks whose work or end the outages broke ran again or failed with their refund.
    const rows = await waitFor(
      async () => {
        const found = await db().select().from(tasks).where(inArray(tasks.id, ids));
        return found.length === ids.length && found.every((r) => r.status === 'SUCCESS' || r.status === 'FAILURE') && found;
      },
      'every task to end',
      60_000,
    );
    for (const row of rows) {
      const changes = (await ledgerOf(db(), row.id)).map((r) => r.change);
      expect(changes).toEqual(row.status === 'SUCCESS' ? [-PRICE] : [-PRICE, PRICE]);
    }
    const userTasks = await db()
      .select()
      .from(tasks)
      .where(
        inArray(
          tasks.userId,
          members.map((m) => m.userId),
        ),
      );
    expect(userTasks.map((t) => t.id).sort()).toEqual([...ids].sort());

    // Balances: what each member had, less one price per task that did not fail; the ledger adds up.
    for (const m of members) {
      const paid = rows.filter((r) => r.userId === m.userId && r.status === 'SUCCESS').length;
      expect(await availableOf(db(), m.userId)).toBe(m.before - PRICE * paid);
    }
    await expectLedgerConsistent(db());
    figures.tasks = `${rows.length}: ${rows.filter((r) => r.status === 'SUCCESS').length} SUCCESS, ${rows.filter((r) => r.status === 'FAILURE').length} FAILURE (refunded once each)`;
    figures['tasks started again because an outage broke their attempt'] = rows.filter((r) => r.attempts > 1).length;
    figures['submits retried with their Idempotency-Key after the outage'] =
      [...submits.keys()].length - outcomes.filter((o) => o.action === 'submit' && o.result === 'ok').length;
    expect(rows.filter((r) => r.status === 'FAILURE').every((r) => r.error !== null)).toBe(true);
  }, 120_000);

  it('fails only the transaction whose connection is cut between two statements; the pool serves on', async () => {
    // The moment the restart above hits only by chance, made certain: the server ends this backend while the
    // transaction waits between statements. An unheard 'error' on the connection would end this process (and the test run).
    const own = await openDatabase({ databaseUrl: cluster.url });
    const killer = await openDatabase({ databaseUrl: cluster.url });
    try {
      const cut = own.db.transaction(async (tx) => {
        const [row] = await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
        await killer.db.execute(sql`select pg_terminate_backend(${row?.pid})`);
        await waitFor(
          async () => (await queryRows(killer.db, sql`select 1 from pg_stat_activity where pid = ${row?.pid}`)).length === 0,
          'the backend to end',
        );
        // Its socket's end reaches this process a moment later, while the transaction is idle.
        await sleep(200);
        await tx.execute(sql`select 1`);
      });
      await expect(cut).rejects.toThrow();
      expect(await queryRows(own.db, sql`select 2 as two`)).toEqual([{ two: 2 }]);
    } finally {
      await own.close();
      await killer.close();
    }
  });
});
