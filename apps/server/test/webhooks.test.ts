// Webhooks (decision "Webhooks"): endpoints registered through the API, events written with what they
// tell of, and delivered by the dispatcher to a real HTTP receiver on 127.0.0.1 (allowed through
// OUTBOUND_ALLOW_HOSTS) that checks every signature with the endpoint's secret: retries with backoff, redirects not
// followed, timeouts, the retry window, resend with the same event id, and a dispatcher that died mid-attempt.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERRORS, WEBHOOK_PENDING_MAX, WEBHOOK_RESENDS_PER_MINUTE, type WebhookDelivery, type WebhookEndpoint } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test-support/wait.js';
import { webhookDeliveries } from '../src/db/schema.js';
import { runAdminCommand } from '../src/modules/admin/commands.js';
import { grant } from '../src/modules/points/ledger.js';
import { setPrice } from '../src/modules/points/prices.js';
import { startWorker, type Worker } from '../src/modules/tasks/worker.js';
import {
  claimDelivery,
  type Dispatcher,
  type DispatcherOptions,
  startDispatcher,
  WEBHOOK_DEFAULTS,
} from '../src/modules/webhooks/dispatcher.js';
import { emitEvent } from '../src/modules/webhooks/events.js';
import { DELIVERY_KEEP_MS, sweepDeliveries } from '../src/modules/webhooks/retention.js';
import { verifySignature } from '../src/modules/webhooks/signer.js';
import { appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember } from './support/files.js';
import { imageUrlFor, testTaskKind } from './support/tasks.js';

const silent = { info() {}, warn() {}, error() {} };
/** Fast enough for a test, in the shape of production's: doubling backoff with a cap, a window of retries. */
const FAST: Omit<DispatcherOptions, 'log'> = { pollMs: 25, leaseMs: 5_000, timeoutMs: 5_000, firstBackoffMs: 40, maxBackoffMs: 160 };
const THRESHOLD = 50;

interface Received {
  path: string;
  eventId: string | undefined;
  signature: string | undefined;
  body: string;
  payload: { id: string; type: string; created: number; data: Record<string, unknown> };
}

type Reply = { status: number; location?: string } | 'hang';

/**
 * A webhook receiver on 127.0.0.1: answers each path with the replies the test queued (200 once they run out) and
 * keeps every request, its raw body and headers, for the test to verify as a developer's receiver would.
 */
function receiver() {
  const received: Received[] = [];
  const replies = new Map<string, Reply[]>();
  const hanging: ServerResponse[] = [];
  const state = { received, replies, base: '', host: '' };
  let server: Server;
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '';
        received.push({
          path,
          eventId: req.headers['reelsmith-event-id'] as string | undefined,
          signature: req.headers['reelsmith-signature'] as string | undefined,
          body,
          payload: JSON.parse(body),
        });
        const reply = replies.get(path)?.shift() ?? { status: 200 };
        if (reply === 'hang') {
          hanging.push(res);
          return;
        }
        res
          .writeHead(reply.status, reply.location ? { location: reply.location } : {})
          .end(reply.status >= 400 ? 'receiver says no' : 'ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    state.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    state.base = `http://${state.host}`;
  });
  afterAll(async () => {
    for (const res of hanging) res.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return state;
}

describe.each(testDatabases())('webhooks on $name', (testDb) => {
  const hooks = receiver();
  const kind = testTaskKind();
  const t = appOn(testDb, () => ({ OUTBOUND_ALLOW_HOSTS: hooks.host, WEBHOOK_CREDITS_LOW_THRESHOLD: String(THRESHOLD) }), [
    kind.definition,
  ]);
  let running: (Dispatcher | Worker)[] = [];
  afterEach(async () => {
    await Promise.all(running.map((r) => r.stop()));
    running = [];
  });
  const dispatcher = (options: Partial<DispatcherOptions> = {}) => {
    const d = startDispatcher(t.ctx, { log: silent, ...FAST, ...options });
    running.push(d);
    return d;
  };
  const worker = () => {
    const w = startWorker(t.ctx, [kind.definition], { concurrency: 2, pollMs: 25, log: silent });
    running.push(w);
    return w;
  };

  let members = 0;
  const member = () => activeMember(t, `hooks-${members++}`);
  const endpoint = (browser: Browser, path: string, events = ['task.succeeded', 'task.failed', 'batch.finished', 'credits.low']) =>
    browser.ok('POST', '/webhooks/endpoints/create', { body: { url: `${hooks.base}${path}`, events } }) as Promise<WebhookEndpoint>;
  const deliveries = async (browser: Browser, endpointId: string) =>
    (
      (await browser.ok('POST', '/webhooks/deliveries/list', { body: { endpointId, page: 1, pageSize: 100 } })) as {
        list: WebhookDelivery[];
      }
    ).list;
  const at = (path: string) => hooks.received.filter((r) => r.path === path);
  const settled = (browser: Browser, endpointId: string, n = 1) =>
    waitFor(async () => {
      const list = await deliveries(browser, endpointId);
      return list.length >= n && list.every((d) => d.status !== 'PENDING') && list;
    }, 'the deliveries to end');

  it('registers endpoints with their rules, said in the caller’s language', async () => {
    const { browser } = await member();
    const created = await endpoint(browser, '/rules', ['task.succeeded', 'task.succeeded']);
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.events).toEqual(['task.succeeded']);
    expect(await browser.ok('GET', '/webhooks/endpoints/list')).toEqual([created]);

    const refused = async (url: string, locale = 'en') =>
      (
        await browser.call('POST', '/webhooks/endpoints/create', {
          body: { url, events: ['task.failed'] },
          headers: { 'accept-language': locale },
        })
      ).body;
    expect(await refused('ftp://example.com/hook')).toMatchObject({
      code: ERRORS.webhookUrlInvalid.code,
      message: ERRORS.webhookUrlInvalid.en,
    });
    expect(await refused('not a url', 'zh')).toMatchObject({ code: ERRORS.webhookUrlInvalid.code, message: ERRORS.webhookUrlInvalid.zh });
    for (const url of ['http://localhost:8080/hook', 'http://10.1.2.3/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest']) {
      expect(await refused(url, 'pt'), url).toMatchObject({ code: ERRORS.webhookUrlBlocked.code, message: ERRORS.webhookUrlBlocked.pt });
    }
    for (let i = 1; i < 10; i++) await endpoint(browser, `/rules-${i}`);
    const eleventh = await refused('https://hooks.example/eleventh');
    expect(eleventh).toMatchObject({
      code: ERRORS.webhookEndpointsLimit.code,
      message: 'You can have at most 10 webhook endpoints. Delete one you no longer use, then try again.',
    });

    expect(await browser.ok('POST', '/webhooks/endpoints/delete', { body: { endpointId: created.endpointId } })).toEqual({});
    expect((await browser.ok('GET', '/webhooks/endpoints/list')) as unknown[]).toHaveLength(9);
    const again = await browser.call('POST', '/webhooks/endpoints/delete', { body: { endpointId: created.endpointId } });
    expect(again.body.code).toBe(ERRORS.notFound.code);
  });

  it('sends a signed event for a task that succeeds and one that fails, and logs each delivery', async () => {
    await setPrice(t.ctx.db, 'imageEnhance', 1);
    const { browser, userId } = await member();
    const hook = await endpoint(browser, '/tasks', ['task.succeeded', 'task.failed']);
    worker();
    dispatcher();
    const ok = (await browser.ok('POST', '/task/v1/enlarge-image/submit', { body: { imageUrl: imageUrlFor('ok') } })) as { taskId: string };
    const bad = (await browser.ok('POST', '/task/v1/enlarge-image/submit', { body: { imageUrl: imageUrlFor('app-error') } })) as {
      taskId: string;
    };
    const log = await settled(browser, hook.endpointId, 2);

    const got = at('/tasks');
    expect(got).toHaveLength(2);
    for (const r of got) {
      expect(verifySignature(hook.secret, r.signature, r.body), 'the receiver verifies the signature').toBe(true);
      expect(verifySignature('whsec_another', r.signature, r.body)).toBe(false);
      expect(verifySignature(hook.secret, r.signature, `${r.body} `)).toBe(false);
      expect(r.eventId).toBe(r.payload.id);
      expect(Object.keys(r.payload)).toEqual(['id', 'type', 'created', 'data']);
    }
    const succeeded = got.find((r) => r.payload.type === 'task.succeeded');
    expect(succeeded?.payload.data).toEqual({
      taskId: ok.taskId,
      kind: 'enlarge-image',
      projectId: null,
      status: 'SUCCESS',
      // As a task query answers it: the kind's view of the stored result.
      result: { images: [{ resKey: `k/${ok.taskId}`, url: `http://files.test/${ok.taskId}?fresh` }] },
    });
    const failed = got.find((r) => r.payload.type === 'task.failed');
    expect(failed?.payload.data).toEqual({
      taskId: bad.taskId,
      kind: 'enlarge-image',
      projectId: null,
      status: 'FAILURE',
      error: { code: 'notFound', message: 'Not found.' },
    });

    expect(log.map((d) => d.status)).toEqual(['DELIVERED', 'DELIVERED']);
    for (const d of log) {
      expect(d).toMatchObject({ attempts: 1, statusCode: 200, error: null, nextAttemptAt: null });
      expect(d.latencyMs).toBeGreaterThanOrEqual(0);
    }
    expect(new Set(log.map((d) => d.eventId))).toEqual(new Set(got.map((r) => r.eventId)));
    // Another user's endpoints hear nothing of it.
    const other = await member();
    const theirs = await endpoint(other.browser, '/others');
    await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: 'b1' });
    expect(await deliveries(other.browser, theirs.endpointId)).toEqual([]);
  });

  it('retries a failing receiver with backoff until it answers 2xx, recording every attempt', async () => {
    const { browser, userId } = await member();
    const hook = await endpoint(browser, '/flaky');
    hooks.replies.set('/flaky', [{ status: 500 }, { status: 503 }, { status: 200 }]);
    dispatcher();
    await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: 'flaky' });
    const [delivery] = await settled(browser, hook.endpointId);
    expect(delivery).toMatchObject({ status: 'DELIVERED', attempts: 3, statusCode: 200, error: null });
    // The answer ended the endpoint's run of failures.
    expect(await browser.ok('GET', '/webhooks/endpoints/list')).toEqual([{ ...hook, failingSince: null }]);
    const got = at('/flaky');
    expect(got.map((r) => r.eventId)).toEqual([delivery?.eventId, delivery?.eventId, delivery?.eventId]);
    // Each attempt is signed afresh and verifies.
    for (const r of got) expect(verifySignature(hook.secret, r.signature, r.body)).toBe(true);
  });

  it('records the last failure while retrying, then gives up when the retry window has passed', async () => {
    const { browser, userId } = await member();
    const hook = await endpoint(browser, '/down');
    hooks.replies.set(
      '/down',
      Array.from({ length: 50 }, () => ({ status: 500 })),
    );
    dispatcher({ retryForMs: 300 });
    await emitEvent(t.ctx.db, userId, 'credits.low', { available: 1, threshold: THRESHOLD });
    const [delivery] = await settled(browser, hook.endpointId);
    expect(delivery).toMatchObject({ status: 'FAILED', statusCode: 500, error: 'HTTP 500: receiver says no', nextAttemptAt: null });
    expect(delivery?.attempts).toBeGreaterThanOrEqual(2);
    expect(at('/down')).toHaveLength(delivery?.attempts ?? 0);
  });

  it('never follows a redirect, and counts a timeout as a failed attempt', async () => {
    const { browser, userId } = await member();
    const redirected = await endpoint(browser, '/redirect');
    hooks.replies.set('/redirect', [
      { status: 302, location: 'http://169.254.169.254/latest/meta-data' },
      { status: 307, location: `${hooks.base}/landing` },
    ]);
    const slow = await endpoint(browser, '/slow');
    hooks.replies.set('/slow', ['hang']);
    dispatcher({ firstBackoffMs: 60_000, timeoutMs: 1_500 });
    await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: 'redirects' });
    const failedOnce = (endpointId: string) =>
      waitFor(async () => {
        const [d] = await deliveries(browser, endpointId);
        return d && d.attempts === 1 && d.error !== null && d;
      }, 'a failed attempt');
    const [r, s] = await Promise.all([failedOnce(redirected.endpointId), failedOnce(slow.endpointId)]);
    expect(r).toMatchObject({ status: 'PENDING', statusCode: 302 });
    expect(r.error).toContain('redirects are not followed');
    expect(s).toMatchObject({ status: 'PENDING', statusCode: null, error: 'No answer within 1500 ms' });
    expect(at('/landing')).toEqual([]);
  });

  it('refuses at each attempt a name that resolves to a private address', async () => {
    const { browser, userId } = await member();
    const hook = (await browser.ok('POST', '/webhooks/endpoints/create', {
      body: { url: 'http://hooks.rebinding.test/hook', events: ['batch.finished'] },
    })) as WebhookEndpoint;
    dispatcher({ lookup: async () => [{ address: '10.0.0.7', family: 4 }], firstBackoffMs: 60_000 });
    await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: 'rebinding' });
    // The attempt is counted when it is claimed and its outcome written when it ends: wait for the outcome.
    const d = await waitFor(
      async () => (await deliveries(browser, hook.endpointId)).find((x) => x.attempts === 1 && x.error !== null),
      'the attempt',
    );
    expect(d).toMatchObject({ status: 'PENDING', statusCode: null });
    expect(d.error).toContain('is not a public address');
  });

  it('resends an event as a new delivery with the same event id and payload', async () => {
    const { browser, userId } = await member();
    const hook = await endpoint(browser, '/resend');
    dispatcher();
    await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: 'again' });
    const [first] = await settled(browser, hook.endpointId);
    const resent = (await browser.ok('POST', '/webhooks/deliveries/resend', {
      body: { deliveryId: first?.deliveryId },
    })) as WebhookDelivery;
    expect(resent).toMatchObject({ eventId: first?.eventId, event: 'batch.finished', status: 'PENDING', attempts: 0 });
    expect(resent.deliveryId).not.toBe(first?.deliveryId);
    const log = await settled(browser, hook.endpointId, 2);
    expect(log.map((d) => d.deliveryId)).toEqual([resent.deliveryId, first?.deliveryId]);
    const [a, b] = at('/resend');
    expect(b?.eventId).toBe(a?.eventId);
    expect(b?.payload).toEqual(a?.payload);
    // Someone else's delivery cannot be resent.
    const other = await member();
    const theirs = await other.browser.call('POST', '/webhooks/deliveries/resend', { body: { deliveryId: first?.deliveryId } });
    expect(theirs.body.code).toBe(ERRORS.notFound.code);
  });

  it('sends nothing to an endpoint its owner turned off, and resumes when it is turned on again', async () => {
    const { browser, userId } = await member();
    const hook = await endpoint(browser, '/paused');
    // Another endpoint of the same user shows when the dispatcher has been through the due deliveries.
    const witness = await endpoint(browser, '/paused-witness');
    await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: 'before-off' });
    const update = (who: Browser, enabled: boolean) =>
      who.call('POST', '/webhooks/endpoints/update', { body: { endpointId: hook.endpointId, enabled } });
    const off = (await update(browser, false)).body.data as WebhookEndpoint;
    expect(off).toMatchObject({ endpointId: hook.endpointId, url: hook.url, disabledAt: expect.any(String), disabledReason: 'owner' });
    expect(await browser.ok('GET', '/webhooks/endpoints/list')).toEqual([off, { ...witness, disabledAt: null, disabledReason: null }]);
    // Turning it off again keeps when it was first turned off.
    expect((await update(browser, false)).body.data).toEqual(off);

    // While off, no event is written for it, and the one pending waits unsent.
    expect(await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: 'while-off' })).toBe(1);
    dispatcher();
    await settled(browser, witness.endpointId, 2);
    expect(at('/paused')).toEqual([]);
    const [waiting] = await deliveries(browser, hook.endpointId);
    expect(await deliveries(browser, hook.endpointId)).toHaveLength(1);
    expect(waiting).toMatchObject({ status: 'PENDING', attempts: 0 });
    const resend = await browser.call('POST', '/webhooks/deliveries/resend', {
      body: { deliveryId: waiting?.deliveryId },
      headers: { 'accept-language': 'zh' },
    });
    expect(resend.body).toMatchObject({ code: ERRORS.webhookEndpointDisabled.code, message: ERRORS.webhookEndpointDisabled.zh });

    // Only its owner turns it on or off.
    const other = await member();
    for (const enabled of [true, false]) expect((await update(other.browser, enabled)).body.code).toBe(ERRORS.notFound.code);

    // On again: what waited is sent, and new events reach it.
    expect((await update(browser, true)).body.data).toEqual({ ...off, disabledAt: null, disabledReason: null });
    await settled(browser, hook.endpointId);
    await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: 'on-again' });
    const log = await settled(browser, hook.endpointId, 2);
    expect(log.map((d) => d.status)).toEqual(['DELIVERED', 'DELIVERED']);
    expect(at('/paused').map((r) => r.payload.data.batchId)).toEqual(['before-off', 'on-again']);
  });

  it('counts an endpoint that is off towards the limit, so turning it on never passes it', async () => {
    const { browser } = await member();
    const first = await endpoint(browser, '/held-0');
    await browser.ok('POST', '/webhooks/endpoints/update', { body: { endpointId: first.endpointId, enabled: false } });
    for (let i = 1; i < 10; i++) await endpoint(browser, `/held-${i}`);
    const eleventh = await browser.call('POST', '/webhooks/endpoints/create', {
      body: { url: `${hooks.base}/held-10`, events: ['task.failed'] },
    });
    expect(eleventh.body.code).toBe(ERRORS.webhookEndpointsLimit.code);
  });

  it('delivers what a dispatcher that died had claimed, once its lease lapses', async () => {
    const { browser, userId } = await member();
    const hook = await endpoint(browser, '/restart');
    await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: 'restart' });
    // A dispatcher claims the delivery and dies before sending it.
    // (Deliveries of earlier tests that are due are claimed on the way: their attempts too wait for the lease.)
    const claim = () => claimDelivery(t.ctx.db, 'webhooks-dead', 300, WEBHOOK_DEFAULTS.perUser);
    let claimed = await claim();
    while (claimed && claimed.endpointId !== hook.endpointId) claimed = await claim();
    expect(claimed?.endpointId).toBe(hook.endpointId);
    dispatcher();
    const [d] = await settled(browser, hook.endpointId);
    expect(d).toMatchObject({ status: 'DELIVERED', attempts: 2 });
    expect(at('/restart')).toHaveLength(1);
    const [row] = await t.ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, d?.deliveryId as string));
    expect(row?.leaseOwner).toBeNull();
  });

  it('two dispatchers never send the same delivery twice', async () => {
    const { browser, userId } = await member();
    const hook = await endpoint(browser, '/pair');
    for (let i = 0; i < 20; i++) await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: `pair-${i}` });
    dispatcher({ concurrency: 3 });
    dispatcher({ concurrency: 3 });
    const log = await settled(browser, hook.endpointId, 20);
    expect(log.every((d) => d.status === 'DELIVERED' && d.attempts === 1)).toBe(true);
    const ids = at('/pair').map((r) => r.eventId);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
  });

  it('an endpoint that never answers holds one sender of its owner’s: another user’s event goes out at once', async () => {
    // Finding F1: one user's black holes, resent again and again, delayed everyone's webhooks by minutes.
    const flooder = await member();
    const holes = [
      await endpoint(flooder.browser, '/hole-a'),
      await endpoint(flooder.browser, '/hole-b'),
      await endpoint(flooder.browser, '/hole-c'),
    ];
    for (const hole of ['/hole-a', '/hole-b', '/hole-c'])
      hooks.replies.set(
        hole,
        Array.from({ length: 40 }, () => 'hang' as const),
      );
    for (let i = 0; i < 12; i++) await emitEvent(t.ctx.db, flooder.userId, 'batch.finished', { batchId: `flood-${i}` });
    dispatcher({ concurrency: 4, timeoutMs: 3_000, firstBackoffMs: 60_000 });
    // The flooder's attempts are in flight: one per endpoint, two for the user, however many are due.
    await waitFor(() => hooks.received.filter((r) => r.path.startsWith('/hole-')).length >= 2, 'the black holes to be tried');
    const victim = await member();
    const theirs = await endpoint(victim.browser, '/victim');
    await emitEvent(t.ctx.db, victim.userId, 'batch.finished', { batchId: 'victim' });
    const [delivered] = await settled(victim.browser, theirs.endpointId);
    expect(delivered).toMatchObject({ status: 'DELIVERED', attempts: 1 });
    // It went out while the flooder's first attempts were still waiting for an answer: none has timed out yet.
    const flooded = (await Promise.all(holes.map((h) => deliveries(flooder.browser, h.endpointId)))).flat();
    expect(flooded.filter((d) => d.error !== null)).toEqual([]);
    expect(hooks.received.filter((r) => r.path.startsWith('/hole-')).length).toBe(2);
    // Their deliveries go with them, so the tests after this one meet no black hole.
    for (const hole of holes) await flooder.browser.ok('POST', '/webhooks/endpoints/delete', { body: { endpointId: hole.endpointId } });
  });

  it('caps resends to an endpoint a minute and while its backlog is full, with Retry-After', async () => {
    const { browser, userId } = await member();
    const hook = await endpoint(browser, '/capped');
    await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: 'capped' });
    const [first] = await deliveries(browser, hook.endpointId);
    const resend = (headers: Record<string, string> = {}) =>
      browser.call('POST', '/webhooks/deliveries/resend', { body: { deliveryId: first?.deliveryId }, headers });
    for (let i = 0; i < WEBHOOK_RESENDS_PER_MINUTE; i++) expect((await resend()).body.code).toBe(0);
    const refused = await resend({ 'accept-language': 'pt-BR' });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.body).toEqual({
      code: ERRORS.webhookResendsTooFast.code,
      message: ERRORS.webhookResendsTooFast.pt.replace('{{max}}', String(WEBHOOK_RESENDS_PER_MINUTE)),
      data: null,
    });
    expect(await deliveries(browser, hook.endpointId)).toHaveLength(WEBHOOK_RESENDS_PER_MINUTE + 1);

    // Another endpoint, its backlog full of events nobody has sent yet: a resend would only lengthen it.
    const other = await member();
    const full = await endpoint(other.browser, '/backlog');
    for (let i = 0; i < WEBHOOK_PENDING_MAX; i++) await emitEvent(t.ctx.db, other.userId, 'batch.finished', { batchId: `backlog-${i}` });
    const [waiting] = await deliveries(other.browser, full.endpointId);
    const backlog = await other.browser.call('POST', '/webhooks/deliveries/resend', { body: { deliveryId: waiting?.deliveryId } });
    expect(backlog.status).toBe(429);
    expect(backlog.body.code).toBe(ERRORS.webhookBacklogFull.code);
    expect(await deliveries(other.browser, full.endpointId)).toHaveLength(WEBHOOK_PENDING_MAX);
  });

  it('turns off an endpoint whose every attempt failed for the set time, says why, and gives it a fresh start when turned on', async () => {
    const { browser, userId } = await member();
    const hook = await endpoint(browser, '/failing');
    hooks.replies.set(
      '/failing',
      Array.from({ length: 30 }, () => ({ status: 500 })),
    );
    dispatcher({ turnOffAfterMs: 300, turnOffAfterFailures: 4, firstBackoffMs: 40, maxBackoffMs: 80 });
    for (let i = 0; i < 3; i++) await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: `failing-${i}` });
    const off = await waitFor(async () => {
      const [e] = (await browser.ok('GET', '/webhooks/endpoints/list')) as WebhookEndpoint[];
      return e?.disabledAt ? e : undefined;
    }, 'the endpoint to be turned off');
    expect(off).toMatchObject({ disabledReason: 'failing', failingSince: expect.any(String) });
    expect(Date.parse(off.disabledAt as string) - Date.parse(off.failingSince as string)).toBeGreaterThanOrEqual(300);
    // Off, nothing more is sent to it; what was pending waits.
    const sent = at('/failing').length;
    expect(sent).toBeGreaterThanOrEqual(4);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(at('/failing')).toHaveLength(sent);
    expect((await deliveries(browser, hook.endpointId)).some((d) => d.status === 'PENDING')).toBe(true);
    // Its owner fixed it and turns it on: a fresh record, and what waited is sent.
    hooks.replies.set('/failing', []);
    const on = (await browser.ok('POST', '/webhooks/endpoints/update', {
      body: { endpointId: hook.endpointId, enabled: true },
    })) as WebhookEndpoint;
    expect(on).toMatchObject({ disabledAt: null, disabledReason: null, failingSince: null });
    const log = await settled(browser, hook.endpointId, 3);
    expect(log.every((d) => d.status === 'DELIVERED')).toBe(true);
  });

  it('sends nothing of a blocked user’s, and sends it once the block is lifted', async () => {
    const { browser, userId } = await member();
    const email = ((await browser.ok('GET', '/users/me')) as { email: string }).email;
    const hook = await endpoint(browser, '/blocked');
    const witness = await member();
    const seen = await endpoint(witness.browser, '/not-blocked');
    await runAdminCommand(t.ctx, { command: 'users status', email, status: 'INACTIVE' });
    await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: 'while-blocked' });
    dispatcher();
    await emitEvent(t.ctx.db, witness.userId, 'batch.finished', { batchId: 'witness' });
    await settled(witness.browser, seen.endpointId);
    const [waiting] = await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.endpointId));
    expect(waiting).toMatchObject({ status: 'PENDING', attempts: 0 });
    expect(at('/blocked')).toEqual([]);
    await runAdminCommand(t.ctx, { command: 'users status', email, status: 'ACTIVE' });
    await waitFor(() => at('/blocked').length === 1, 'the delivery after the block is lifted');
  });

  it('keeps the delivery log 30 days: ended deliveries older go with their payloads, pending ones stay', async () => {
    const { browser, userId } = await member();
    const hook = await endpoint(browser, '/kept');
    await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: 'old-delivered' });
    await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: 'old-failed' });
    await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: 'old-pending' });
    await emitEvent(t.ctx.db, userId, 'batch.finished', { batchId: 'recent' });
    expect(await deliveries(browser, hook.endpointId)).toHaveLength(4);
    const rows = await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.endpointId));
    const idOf = (batchId: string) => rows.find((r) => (r.payload as { data: { batchId: string } }).data.batchId === batchId)?.id as string;
    const old = new Date(Date.now() - DELIVERY_KEEP_MS - 60_000);
    await t.ctx.db
      .update(webhookDeliveries)
      .set({ status: 'DELIVERED', createdAt: old })
      .where(eq(webhookDeliveries.id, idOf('old-delivered')));
    await t.ctx.db
      .update(webhookDeliveries)
      .set({ status: 'FAILED', createdAt: old })
      .where(eq(webhookDeliveries.id, idOf('old-failed')));
    await t.ctx.db
      .update(webhookDeliveries)
      .set({ createdAt: old })
      .where(eq(webhookDeliveries.id, idOf('old-pending')));
    expect(await sweepDeliveries(t.ctx.db)).toBe(2);
    const left = await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.endpointId));
    expect(left.map((r) => (r.payload as { data: { batchId: string } }).data.batchId).sort()).toEqual(['old-pending', 'recent']);
  });

  it('sends credits.low once per crossing of the threshold, not on every charge below it', async () => {
    await setPrice(t.ctx.db, 'imageEnhance', 20);
    const { browser, userId } = await member();
    const hook = await endpoint(browser, '/credits', ['credits.low']);
    const submit = () => browser.ok('POST', '/task/v1/enlarge-image/submit', { body: { imageUrl: imageUrlFor('ok') } });
    // 100 sign-up credits: 80, 60, 40 (crossed), 20, 0.
    for (let i = 0; i < 5; i++) await submit();
    await grant(t.ctx.db, userId, 60, 'RECHARGE', { key: 'credits-low-topup' });
    // 60 again: 40 (crossed again).
    await submit();
    dispatcher();
    const log = await settled(browser, hook.endpointId, 2);
    expect(log).toHaveLength(2);
    const got = at('/credits')
      .map((r) => r.payload.data)
      .sort((x, y) => Number(y.available) - Number(x.available));
    expect(got).toEqual([
      { available: 40, threshold: THRESHOLD },
      { available: 40, threshold: THRESHOLD },
    ]);
  });
});
