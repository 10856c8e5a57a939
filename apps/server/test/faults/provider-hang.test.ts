// Fault: a provider that hangs. A server process of `main.ts` makes its pictures with fal.ai, whose queue
// here is a fake vendor on 127.0.0.1 that behaves as the prompt says: `silent` accepts the connection and never
// sends a byte, `stuck` takes the job and never finishes it, `ok` makes the picture. With short PROVIDER_*_TIMEOUT
// settings each hanging task ends FAILURE with the error table's message, refunded once; the vendor is told to
// cancel the stuck job and the silent connection is closed; and the worker (one task at a time) goes on to the next.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '@reelsmith/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceOf } from '../../src/modules/points/prices.js';
import { fakeVendor, json, outputPng } from '../providers/fakeVendor.js';
import type { TestDb } from '../support/databases.js';
import {
  availableOf,
  expectLedgerConsistent,
  faultDatabase,
  ledgerOf,
  printFigures,
  serverEnv,
  signUp,
  taskEnded,
  waitFor,
} from '../support/faults.js';
import { freePort, type ServerProcess, startServer, whenHealthy } from '../support/serverProcess.js';

const MODEL = 'fal-ai/flux/dev';
const APP = 'fal-ai/flux';
const REQUEST_TIMEOUT_SECONDS = 1;
const GENERATION_TIMEOUT_SECONDS = 2;
const figures: Record<string, string | number> = {};

describe('a generation provider that hangs', () => {
  const fal = fakeVendor();
  let database: TestDb;
  let dataDir: string;
  let server: ServerProcess;
  const db = () => database.db;
  /** When the product closed the silent vendor's connection, and which stuck jobs it asked to cancel. */
  const silentClosed: number[] = [];
  const cancelled: string[] = [];

  beforeAll(async () => {
    let jobs = 0;
    fal.handlers.set(`POST /${MODEL}`, async (req, res) => {
      const { prompt } = JSON.parse(req.body.toString()) as { prompt: string };
      // Accepted, then not a byte: the product must give up on its own.
      if (prompt === 'silent') return void res.on('close', () => silentClosed.push(Date.now()));
      const id = `${prompt}-${++jobs}`;
      const path = `/${APP}/requests/${id}`;
      fal.handlers.set(`GET ${path}/status`, (_r, status) => json(status, 200, { status: prompt === 'ok' ? 'COMPLETED' : 'IN_PROGRESS' }));
      fal.handlers.set(`PUT ${path}/cancel`, (_r, cancel) => {
        cancelled.push(id);
        json(cancel, 200, { status: 'CANCELLATION_REQUESTED' });
      });
      const png = await outputPng();
      fal.handlers.set(`GET ${path}`, (_r, result) =>
        json(result, 200, { images: [{ url: `data:image/png;base64,${png.toString('base64')}` }] }),
      );
      json(res, 200, { request_id: id, status_url: `${fal.base}${path}/status`, response_url: `${fal.base}${path}` });
    });

    database = await faultDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-fault-provider-'));
    server = startServer(
      serverEnv(database.url as string, dataDir, {
        WORKER_CONCURRENCY: '1',
        FAL_KEY: 'fal-test-key',
        FAL_BASE_URL: fal.base,
        PROVIDER_TEXT_TO_IMAGE: `fal:${MODEL}`,
        PROVIDER_REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_SECONDS),
        PROVIDER_TIMEOUT_SECONDS: String(GENERATION_TIMEOUT_SECONDS),
        PROVIDER_POLL_MS: '100',
      }),
      await freePort(),
    );
    await whenHealthy(server);
  }, 120_000);

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    printFigures('provider that hangs', figures);
  });

  it('fails each hanging task with the timeout message, refunds it once, and goes on to the next task', async () => {
    const { client, userId } = await signUp(db(), server.base, 'hang@example.com');
    const price = await priceOf(db(), 'imageGen');
    const before = await availableOf(db(), userId);

    // Submitted together: the worker runs one at a time, so `ok` waits behind the two that hang.
    const ids: Record<string, string> = {};
    for (const prompt of ['silent', 'stuck', 'ok']) {
      ids[prompt] = (await client.ok<{ taskId: string }>('POST', '/image/generate', { body: { prompt, ratio: '1:1' } })).taskId;
    }
    const rows = await Promise.all(Object.values(ids).map((id) => taskEnded(db(), id, 60_000)));
    const [silent, stuck, ok] = rows as [(typeof rows)[number], (typeof rows)[number], (typeof rows)[number]];
    const seconds = (row: (typeof rows)[number]) => ((row.finishedAt as Date).getTime() - (row.startedAt as Date).getTime()) / 1000;

    const timedOut = JSON.stringify({ message: errorMessage('providerTimedOut', 'en') });
    for (const [prompt, row] of [
      ['silent', silent],
      ['stuck', stuck],
    ] as const) {
      expect(row.status).toBe('FAILURE');
      const answer = await client.ok<{ status: string; error: string }>('GET', '/task/v1/text-to-image/query', {
        query: { taskId: ids[prompt] as string },
      });
      expect(answer).toMatchObject({ status: 'FAILURE', error: timedOut });
      expect((await ledgerOf(db(), row.id)).map((r) => r.change)).toEqual([-price, price]);
    }
    figures['seconds until the silent vendor task ended (request timeout 1 s)'] = seconds(silent).toFixed(2);
    figures['seconds until the never-finishing job task ended (generation timeout 2 s)'] = seconds(stuck).toFixed(2);

    // The vendor was left alone: the silent connection closed by us, the stuck job asked to stop.
    await waitFor(() => silentClosed.length === 1, 'the silent connection to be closed');
    expect(cancelled).toEqual([expect.stringMatching(/^stuck-/)]);

    // The worker went on: the next task, behind the two that hung, made its picture.
    expect(ok.status, JSON.stringify(ok.error)).toBe('SUCCESS');
    expect((ok.startedAt as Date).getTime()).toBeGreaterThanOrEqual((stuck.finishedAt as Date).getTime());
    expect((await ledgerOf(db(), ok.id)).map((r) => r.change)).toEqual([-price]);

    // Nothing charged without a result: only the picture made is paid for, and the ledger adds up.
    expect(await availableOf(db(), userId)).toBe(before - price);
    await expectLedgerConsistent(db());
    const refunds = (await Promise.all(rows.map((r) => ledgerOf(db(), r.id)))).flat().filter((r) => r.type === 'REFUND_TASK');
    figures.refunds = `${refunds.length} (of 2 failed tasks)`;
    figures['credits charged in the end'] = before - (await availableOf(db(), userId));
  }, 120_000);
});
