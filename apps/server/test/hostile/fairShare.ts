// 18. What one user can take from the others (decisions "Fair share of the workers", "Fair webhook delivery" and
// "Storage quota"). Fair share: a user fills their share of the queue with work that never ends and floods a webhook
// endpoint that never answers with resends; another user's task then waits at most one task's time, and its webhook
// arrives at once; the flood past the share is refused with 429 and Retry-After, charging nothing. Storage
// accounting: what a user stores besides files counts or is bounded: a draft past the quota and a fourth running
// batch are refused, changing nothing.
import { ERRORS, WEBHOOK_RESENDS_PER_MINUTE, type WebhookDelivery, type WebhookEndpoint } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../../test-support/wait.js';
import { storedObjects, tasks } from '../../src/db/schema.js';
import { setPrice } from '../../src/modules/points/prices.js';
import { readAccount } from '../../src/modules/points/queries.js';
import { startWorker } from '../../src/modules/tasks/worker.js';
import { startDispatcher } from '../../src/modules/webhooks/dispatcher.js';
import { emitEvent } from '../../src/modules/webhooks/events.js';
import { appOn } from '../support/app.js';
import type { TestDatabase } from '../support/databases.js';
import { activeMember } from '../support/files.js';
import { imageUrlFor, testTaskKind } from '../support/tasks.js';
import type { Arena } from './support/arena.js';
import { API_CALLS, type ApiCall } from './support/calls.js';
import type { Refusal } from './support/campaign.js';

const FAIR = 'fair share';
const STORAGE = 'storage accounting';
/** The flooder's share of the queue in this run. */
const SHARE = 3;

const callNamed = (name: string) => API_CALLS.find((api) => api.name === name) as ApiCall;
const FULL = { codes: [ERRORS.storageQuotaExceeded.code], key: 'storageQuotaExceeded', locale: 'en' } as const satisfies Refusal;
const BATCHES = { codes: [ERRORS.batchesBusy.code], key: 'batchesBusy', locale: 'en' } as const satisfies Refusal;
const silent = { info() {}, warn() {}, error() {} };

export function fairShareAttacks(arena: Arena, testDb: TestDatabase) {
  describe(FAIR, () => {
    // An app of its own, with a worker and a dispatcher, and a task kind whose work can be made to never end.
    const kind = testTaskKind();
    const own = appOn(testDb, () => ({ TASKS_WAITING_PER_USER: String(SHARE), OUTBOUND_ALLOW_HOSTS: arena.site.host }), [kind.definition]);
    let letGo = () => {};
    afterAll(() => letGo());

    it('a flooder with endless tasks and a black-hole webhook delays another user’s task by one task’s time and its webhook not at all', async () => {
      const { figures } = arena.campaign;
      const { site } = arena;
      // Free, as previews are: the flood costs its sender nothing but their share.
      await setPrice(own.ctx.db, 'imageEnhance', 0);
      const flooder = await activeMember(own, 'flooder');
      const other = await activeMember(own, 'bystander');
      const held = new Promise<void>((resolve) => {
        letGo = resolve;
      });
      site.routes.set('/fair-hole', { type: 'text/plain', body: Buffer.from('late'), heldUntil: held });
      site.routes.set('/fair-other', { type: 'text/plain', body: Buffer.from('ok') });
      const endpoint = async (browser: typeof flooder.browser, path: string) =>
        (await browser.ok('POST', '/webhooks/endpoints/create', {
          body: { url: `${site.base}${path}`, events: ['task.succeeded', 'task.failed', 'batch.finished'] },
        })) as WebhookEndpoint;
      const hole = await endpoint(flooder.browser, '/fair-hole');
      await endpoint(other.browser, '/fair-other');

      for (const call of ['POST /task/v1/enlarge-image/submit', 'POST /webhooks/deliveries/resend']) figures.of(FAIR).calls.add(call);
      const dispatcher = startDispatcher(own.ctx, { log: silent, pollMs: 20 });
      let worker: ReturnType<typeof startWorker> | undefined;
      try {
        // The black hole engaged: an event reaches it and is held; then every resend allowed, and one more, refused.
        await emitEvent(own.ctx.db, flooder.userId, 'batch.finished', { batchId: 'flood' });
        await waitFor(() => (site.arrivals.get('/fair-hole') ?? 0) >= 1, 'the black hole to be tried');
        const [first] = (
          (await flooder.browser.ok('POST', '/webhooks/deliveries/list', {
            body: { endpointId: hole.endpointId, page: 1, pageSize: 1 },
          })) as { list: WebhookDelivery[] }
        ).list;
        for (let i = 0; i <= WEBHOOK_RESENDS_PER_MINUTE; i++) {
          figures.of(FAIR).requests++;
          const answer = await flooder.browser.call('POST', '/webhooks/deliveries/resend', { body: { deliveryId: first?.deliveryId } });
          if (i < WEBHOOK_RESENDS_PER_MINUTE) expect(answer.body.code).toBe(0);
          else {
            expect(answer.status).toBe(429);
            expect(answer.body.code).toBe(ERRORS.webhookResendsTooFast.code);
            figures.note(FAIR, 'resends refused past the cap');
          }
          figures.of(FAIR).answered++;
        }

        // The flood: work that never ends until its time is up, submitted until the share refuses it.
        const submit = (browser: typeof flooder.browser, behaviour: 'hang' | 'ok', n: number) =>
          browser.call('POST', '/task/v1/enlarge-image/submit', { body: { imageUrl: imageUrlFor(behaviour, n), scale: 2, n: 1 } });
        const accepted: string[] = [];
        for (let n = 0; n < SHARE + 5; n++) {
          figures.of(FAIR).requests++;
          const answer = await submit(flooder.browser, 'hang', n);
          if (answer.body.code === 0) accepted.push((answer.body.data as { taskId: string }).taskId);
          else {
            expect(answer.status).toBe(429);
            expect(answer.body.code).toBe(ERRORS.tasksBusy.code);
            expect(answer.headers['retry-after']).toBe('30');
            figures.note(FAIR, 'submits refused past the share');
          }
          figures.of(FAIR).answered++;
        }
        expect(accepted).toHaveLength(SHARE);
        // The workers start once the flood is queued: on a loaded machine the submits above can take longer than one
        // task's time, and a flood task that had already timed out would let the waiting one in before the other user.
        worker = startWorker(own.ctx, [kind.definition], { concurrency: 2, pollMs: 20, log: silent });
        await waitFor(() => kind.runs.size >= 2, 'both workers to hold the flood');
        const waitingId = accepted.find((id) => !kind.runs.has(id));
        expect(waitingId, 'one flood task still waiting').toBeDefined();

        // The other user's task waits for one of the flooder's to end, then goes before the flooder's waiting one.
        const submitted = Date.now();
        const theirs = await submit(other.browser, 'ok', 99);
        const taskId = (theirs.body.data as { taskId: string }).taskId;
        const row = await waitFor(async () => {
          const [found] = await own.ctx.db.select().from(tasks).where(eq(tasks.id, taskId));
          return found?.status === 'SUCCESS' ? found : undefined;
        }, 'the other user’s task');
        const waited = Date.now() - submitted;
        const [waiting] = await own.ctx.db
          .select()
          .from(tasks)
          .where(eq(tasks.id, waitingId as string));
        expect(
          waiting?.startedAt === null || (waiting?.startedAt as Date) >= (row.startedAt as Date),
          'the flooder’s waiting task went first',
        ).toBe(true);
        // Its webhook goes out while the black hole holds one of the flooder's two senders.
        await waitFor(() => (site.arrivals.get('/fair-other') ?? 0) >= 1, 'the other user’s webhook');
        const webhookAfter = Date.now() - (row.finishedAt as Date).getTime();
        expect(site.arrivals.get('/fair-hole')).toBe(1);
        figures.of(FAIR).requests += 2;
        figures.of(FAIR).answered += 2;
        figures.note(FAIR, 'other user’s task waited ms', waited);
        figures.note(FAIR, 'its webhook after ms', Math.max(0, webhookAfter));
        expect((await readAccount(own.ctx.db, flooder.userId)).usedPoints).toBe(0);
      } finally {
        letGo();
        await Promise.all([worker?.stop(), dispatcher.stop()]);
      }
    });
  });

  describe(STORAGE, () => {
    it('refuses a draft past the quota and a batch past the running ones, changing nothing', async () => {
      const { campaign, t } = arena;
      const member = await activeMember(t, 'keeper');
      const { projectId } = (await member.browser.ok('POST', '/project/createProject', { body: { projectName: 'keeper' } })) as {
        projectId: string;
      };
      // A draft counts at its size: one saved shows in the statistics.
      const draft = '{"note":"草稿"}';
      const saved = await campaign.send(STORAGE, member.browser, callNamed('projectSaveDraft'), {
        body: { projectId, draftContent: draft },
      });
      expect(saved.body.code).toBe(0);
      campaign.figures.of(STORAGE).answered++;
      const stats = (await member.browser.ok('GET', '/assert/statistics')) as { bytes: number };
      expect(stats.bytes).toBe(Buffer.byteLength(draft));

      const room = 100;
      const filler = `u/${member.userId}/filler.mp4`;
      await t.ctx.db
        .insert(storedObjects)
        .values({ key: filler, userId: member.userId, kind: 'file', size: t.ctx.settings.storageQuotaBytes - room - stats.bytes });
      const batch = { body: { text: `${arena.site.base}/keeper-product` } };
      for (let i = 0; i < 3; i++) {
        expect((await campaign.send(STORAGE, member.browser, callNamed('batchCreate'), batch)).body.code).toBe(0);
        campaign.figures.of(STORAGE).answered++;
      }
      try {
        await campaign.expectNoChange(STORAGE, 'storing past the quota and the running batches', async () => {
          const big = await campaign.send(STORAGE, member.browser, callNamed('projectSaveDraft'), {
            body: { projectId, draftContent: 'x'.repeat(room + stats.bytes + 1) },
          });
          campaign.expectRefused(STORAGE, big, 'a draft past the quota', FULL);
          campaign.figures.note(STORAGE, 'drafts refused past the quota');
          const fourth = await campaign.send(STORAGE, member.browser, callNamed('batchCreate'), batch);
          campaign.expectRefused(STORAGE, fourth, 'a fourth running batch', BATCHES);
          campaign.figures.note(STORAGE, 'batches refused past the running ones');
        });
      } finally {
        await t.ctx.db.delete(storedObjects).where(eq(storedObjects.key, filler));
      }
    });
  });
}
