// GET /metrics and request ids on one app (both databases): Prometheus text outside the envelope, the token when
// set, HTTP series by route pattern, the queue read from the database, and charges, failures and refunds counted
// once their transactions committed.
import { describe, expect, it } from 'vitest';
import { createInviteCodes } from '../src/modules/invites/service.js';
import { setPrice } from '../src/modules/points/prices.js';
import { startWorker } from '../src/modules/tasks/worker.js';
import { appOn, Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { metricSum } from './support/httpClient.js';
import { imageUrlFor, testTaskKind } from './support/tasks.js';

const KIND = 'enlarge-image';
const PRICE = 5;
const TOKEN = 'metrics-token-for-tests';
const silent = { info() {}, warn() {}, error() {} };

describe.each(testDatabases())('metrics and request ids on $name', (testDb) => {
  const kind = testTaskKind();
  const t = appOn(testDb, () => ({ METRICS_TOKEN: TOKEN }), [kind.definition]);
  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('answers Prometheus text only with the bearer token of METRICS_TOKEN', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer not-the-token-at-all' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer');
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toMatch(/^# TYPE reelsmith_tasks gauge$/m);
    expect(res.body).toMatch(/^# TYPE reelsmith_process_resident_memory_bytes gauge$/m);
  });

  it('counts charges, the queue, failures and refunds, and requests by route pattern', async () => {
    await setPrice(t.ctx.db, 'imageEnhance', PRICE);
    const browser = new Browser(t.app);
    await browser.devLogin('metrics@example.com');
    const [code] = await createInviteCodes(t.ctx.db, { count: 1, maxUses: 1 });
    await browser.ok('POST', '/users/activate', { query: { inviteCode: code as string } });
    const before = await scrape();
    const count = (text: string, name: string, labels: Record<string, string> = {}) => metricSum(text, name, { kind: KIND, ...labels });

    const ids: string[] = [];
    for (const behaviour of ['ok', 'app-error', 'app-error'] as const) {
      const { taskId } = (await browser.ok('POST', `/task/v1/${KIND}/submit`, { body: { imageUrl: imageUrlFor(behaviour) } })) as {
        taskId: string;
      };
      ids.push(taskId);
    }
    const queued = await scrape();
    expect(count(queued, 'reelsmith_charges_total') - count(before, 'reelsmith_charges_total')).toBe(3);
    expect(count(queued, 'reelsmith_charged_credits_total') - count(before, 'reelsmith_charged_credits_total')).toBe(3 * PRICE);
    expect(count(queued, 'reelsmith_tasks', { status: 'SUBMITTED' })).toBe(3);
    expect(metricSum(queued, 'reelsmith_task_oldest_waiting_seconds')).toBeGreaterThan(0);

    const worker = startWorker(t.ctx, [kind.definition], { concurrency: 3, leaseMs: 400, pollMs: 25, log: silent });
    const until = Date.now() + 10_000;
    let after = await scrape();
    while (count(after, 'reelsmith_tasks') > 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await scrape();
    }
    // A task's counters move just after its transaction commits, a moment after the queue shows it ended:
    // scraped again once the worker has stopped, which waits for its tasks to finish.
    await worker.stop();
    after = await scrape();
    expect(count(after, 'reelsmith_tasks')).toBe(0);
    expect(metricSum(after, 'reelsmith_task_oldest_waiting_seconds')).toBe(0);
    const delta = (name: string, labels: Record<string, string> = {}) => count(after, name, labels) - count(before, name, labels);
    expect(delta('reelsmith_task_failures_total', { error: 'notFound' })).toBe(2);
    expect(delta('reelsmith_refunds_total')).toBe(2);
    expect(delta('reelsmith_refunded_credits_total')).toBe(2 * PRICE);
    expect(delta('reelsmith_task_duration_seconds_count', { outcome: 'success' })).toBe(1);
    expect(delta('reelsmith_task_duration_seconds_count', { outcome: 'failure' })).toBe(2);

    for (const taskId of ids) await browser.ok('GET', `/task/v1/${KIND}/query`, { query: { taskId } });
    const route = '/reelsmith/api/task/v1/enlarge-image/query';
    const read = await scrape();
    expect(metricSum(read, 'reelsmith_http_requests_total', { method: 'GET', route, status: '200' })).toBeGreaterThanOrEqual(3);
    expect(metricSum(read, 'reelsmith_http_request_duration_seconds_count', { method: 'GET', route })).toBeGreaterThanOrEqual(3);
    expect(read).not.toContain(ids[0]);
  });

  it('names each request: the proxy’s X-Request-Id when it is a plain token, else a new UUID', async () => {
    const health = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/reelsmith/api/health', headers });
    expect((await health({ 'x-request-id': 'proxy-7f3a9c.42' })).headers['x-request-id']).toBe('proxy-7f3a9c.42');
    const first = (await health({ 'x-request-id': 'bad id\twith spaces' })).headers['x-request-id'];
    const second = (await health()).headers['x-request-id'];
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toMatch(/^[0-9a-f-]{36}$/);
    expect(first).not.toBe(second);
  });
});
