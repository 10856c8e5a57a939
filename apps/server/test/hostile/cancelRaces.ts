// 11. Cancel racing completion and Idempotency-Key reuse (decisions "Cancel is decided with
// completion" and "An Idempotency-Key names one request").
// Cancel: a task's cancel and its completion race for the task's row; each interleaving is forced (the work waits
// at a gate; on PostgreSQL the racers queue behind the test's own lock on the row). A cancel that answers code 0
// must leave the task cancelled, refunded exactly once and without its outputs; otherwise it is refused as too
// late and changes nothing. Reuse: an Idempotency-Key already used for one request, sent with another body or to
// another kind of task, is refused and changes nothing; the same request again answers the first task.
import { isDeepStrictEqual } from 'node:util';
import { ERRORS, type TaskKind, TaskKind as TaskKinds } from '@reelsmith/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_DEFINITIONS } from '../../src/composition.js';
import type { AppContext } from '../../src/context.js';
import { files, pointsLedger, tasks } from '../../src/db/schema.js';
import { grant } from '../../src/modules/points/ledger.js';
import { startWorker, type Worker } from '../../src/modules/tasks/worker.js';
import { type Browser, testApp } from '../support/app.js';
import type { TestDatabase, TestDb } from '../support/databases.js';
import { waitFor } from '../support/faults.js';
import { activeMember } from '../support/files.js';
import { gatedImageUrl, gatedTaskKind } from '../support/gatedTasks.js';
import { availableOf } from '../support/points.js';
import { holdTaskRow } from '../support/rowLock.js';
import { type Arena, bodySample } from './support/arena.js';
import { API_CALLS, type ApiCall } from './support/calls.js';
import { Campaign, type Refusal } from './support/campaign.js';
import { holdingsOf } from './support/holdings.js';
import { ownRequest } from './support/ownRequests.js';

const CANCEL = 'cancel racing completion';
const REUSE = 'idempotency key reuse';
/** As many tasks as the attack that found it (2 of its 12 ended charged). */
const ROUNDS = 12;
const KIND = 'enlarge-image';
const silent = { info() {}, warn() {}, error() {} };

const callNamed = (name: string) => API_CALLS.find((api) => api.name === name) as ApiCall;
const TOO_LATE = { codes: [ERRORS.taskNotCancellable.code], key: 'taskNotCancellable', locale: 'en' } as const satisfies Refusal;
const REUSED = { codes: [ERRORS.idempotencyKeyReused.code], key: 'idempotencyKeyReused', locale: 'en' } as const satisfies Refusal;

export function cancelRaceAttacks(arena: Arena, testDb: TestDatabase) {
  describe(CANCEL, () => {
    const kind = gatedTaskKind();
    // An app of its own whose enlarge-image is the gated kind, with a worker, on a database of its own: the arena's
    // holds the users' waiting tasks of every kind, which this worker must not run.
    const racing = {} as {
      database: TestDb;
      app: FastifyInstance;
      ctx: AppContext;
      campaign: Campaign;
      worker: Worker;
      browser: Browser;
      userId: string;
    };
    let round = 0;
    beforeAll(async () => {
      const definitions = [...TASK_DEFINITIONS.filter((d) => d.kind !== KIND), kind.definition];
      racing.database = await testDb.open();
      const { app, ctx } = await testApp(racing.database.db, {}, definitions);
      const { browser, userId } = await activeMember({ app, ctx }, 'racer');
      // No heartbeat within a round: the race is between the cancel and the completion only.
      const worker = startWorker(ctx, [kind.definition], { concurrency: 2, leaseMs: 120_000, pollMs: 25, log: silent });
      Object.assign(racing, { app, ctx, campaign: new Campaign({ app, ctx }, arena.campaign.figures), worker, browser, userId });
    });
    afterAll(async () => {
      await racing.worker.stop();
      await racing.app.close();
      await racing.database.close();
    });

    const cancelCall = callNamed(`cancel ${KIND}`);
    const figures = () => arena.campaign.figures;
    const rowOf = async (taskId: string) => (await racing.ctx.db.select().from(tasks).where(eq(tasks.id, taskId)))[0];
    const refundsOf = async (taskId: string) =>
      (
        await racing.ctx.db
          .select()
          .from(pointsLedger)
          .where(and(eq(pointsLedger.taskId, taskId), eq(pointsLedger.operationType, 'REFUND_TASK')))
      ).length;
    const outputOf = async (resKey: string) => (await racing.ctx.db.select().from(files).where(eq(files.resKey, resKey)))[0];

    /** A charged task whose work has stored its output and waits at its gate, not yet completed. */
    async function finishedWork() {
      const before = await availableOf(racing.ctx.db, racing.userId);
      const gate = `hostile-race-${round++}`;
      const { taskId } = (await racing.browser.ok('POST', `/task/v1/${KIND}/submit`, { body: { imageUrl: gatedImageUrl(gate) } })) as {
        taskId: string;
      };
      await kind.gates.reached(kind.doneGate(gate));
      const [output] = await racing.ctx.db
        .select()
        .from(files)
        .where(and(eq(files.userId, racing.userId), eq(files.name, `gated-${taskId.slice(0, 8)}.png`)));
      return { before, gate, taskId, resKey: output?.resKey as string, release: () => kind.gates.release(kind.doneGate(gate)) };
    }

    /** The cancel answered code 0: the task must end cancelled, refunded once, its output gone. */
    async function expectCancelled(task: Awaited<ReturnType<typeof finishedWork>>, what: string) {
      // The library row goes first, then the stored object.
      const removed = async () => !(await outputOf(task.resKey)) && (await racing.ctx.storage.stat(task.resKey)) === null;
      await waitFor(removed, `${what}: the refused completion to remove its output`, 10_000);
      const row = await rowOf(task.taskId);
      const refunds = await refundsOf(task.taskId);
      if (row?.status === 'SUCCESS') figures().note(CANCEL, 'charged after cancel answered 0');
      expect(row, what).toMatchObject({ status: 'FAILURE', error: { key: 'taskCancelled' }, result: null });
      expect(refunds, `${what}: refunds`).toBe(1);
      expect(await availableOf(racing.ctx.db, racing.userId), `${what}: balance`).toBe(task.before);
      expect(await racing.ctx.storage.stat(task.resKey), `${what}: the output's object`).toBeNull();
      figures().note(CANCEL, 'cancelled and refunded once');
    }

    /** The cancel was too late: the task stays SUCCESS, charged, its output kept. */
    async function expectCompleted(task: Awaited<ReturnType<typeof finishedWork>>, what: string) {
      expect((await rowOf(task.taskId))?.status, what).toBe('SUCCESS');
      expect(await refundsOf(task.taskId), `${what}: refunds`).toBe(0);
      expect(await availableOf(racing.ctx.db, racing.userId), `${what}: balance`).toBeLessThan(task.before);
      expect(await outputOf(task.resKey), `${what}: the output`).toBeDefined();
      figures().note(CANCEL, 'too late, stays charged');
    }

    it(`cancels ${ROUNDS} tasks each side of their completion: cancelled and refunded once, or too late and unchanged`, async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const task = await finishedWork();
        if (i % 2 === 0) {
          // The work has finished and its completion is next: the cancel gets there first.
          const answer = await racing.campaign.send(CANCEL, racing.browser, cancelCall, { body: { taskId: task.taskId } });
          expect(answer.body.code, `round ${i}: ${answer.body.message}`).toBe(0);
          expect((answer.body.data as { status: string }).status).toBe('FAILURE');
          task.release();
          await expectCancelled(task, `round ${i}`);
          figures().of(CANCEL).answered++;
        } else {
          task.release();
          await waitFor(async () => (await rowOf(task.taskId))?.status === 'SUCCESS', `round ${i}: the completion`, 10_000);
          await racing.campaign.expectNoChange(CANCEL, `round ${i}: a cancel after the completion`, async () => {
            const answer = await racing.campaign.send(CANCEL, racing.browser, cancelCall, { body: { taskId: task.taskId } });
            racing.campaign.expectRefused(CANCEL, answer, `round ${i}: a cancel after the completion`, TOO_LATE);
          });
          await expectCompleted(task, `round ${i}`);
        }
      }
    });

    it('answers one of many cancels of one running task at the same moment; the others are too late; one refund', async () => {
      const task = await finishedWork();
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => racing.campaign.send(CANCEL, racing.browser, cancelCall, { body: { taskId: task.taskId } })),
      );
      const accepted = answers.filter((a) => a.body.code === 0);
      expect(accepted).toHaveLength(1);
      figures().of(CANCEL).answered++;
      for (const refused of answers.filter((a) => a.body.code !== 0)) {
        racing.campaign.expectRefused(CANCEL, refused, 'a second cancel at the same moment', TOO_LATE);
      }
      task.release();
      await expectCancelled(task, 'many cancels at once');
    });

    // PGlite runs one statement at a time: nothing queues there; the rounds above cover both orders on it.
    if (testDb.name !== 'postgres') return;
    it('orders a cancel and a completion queued on the task row (PostgreSQL): whichever the row serves first decides', async () => {
      const url = racing.database.url as string;
      for (const cancelFirst of [true, false]) {
        const task = await finishedWork();
        const lock = await holdTaskRow(url, task.taskId);
        const queue = async (what: string, go: () => void) => {
          const before = await lock.waiting();
          go();
          await waitFor(async () => (await lock.waiting()) === before + 1, what, 10_000);
        };
        let cancelled: ReturnType<Campaign['send']> | undefined;
        const sendCancel = () => {
          cancelled = racing.campaign.send(CANCEL, racing.browser, cancelCall, { body: { taskId: task.taskId } });
        };
        if (cancelFirst) {
          await queue('the cancel to queue on the row', sendCancel);
          await queue('the completion to queue behind it', task.release);
        } else {
          await queue('the completion to queue on the row', task.release);
          await queue('the cancel to queue behind it', sendCancel);
        }
        await lock.release();
        const answer = await (cancelled as ReturnType<Campaign['send']>);
        if (cancelFirst) {
          expect(answer.body.code, answer.body.message).toBe(0);
          await expectCancelled(task, 'a cancel queued before the completion');
          figures().of(CANCEL).answered++;
        } else {
          racing.campaign.expectRefused(CANCEL, answer, 'a cancel queued behind the completion', TOO_LATE);
          await waitFor(async () => (await rowOf(task.taskId))?.status === 'SUCCESS', 'the completion', 10_000);
          await expectCompleted(task, 'a cancel queued behind the completion');
        }
        figures().note(CANCEL, 'queued on the row');
      }
    });
  });

  describe(REUSE, () => {
    const reuse = {} as { browser: Browser; own: Awaited<ReturnType<typeof holdingsOf>> };
    beforeAll(async () => {
      const { browser, userId } = await activeMember(arena.t, 'reuser');
      // Enough for one task of every kind.
      await grant(arena.t.ctx.db, userId, 10_000, 'RECHARGE', { key: 'hostile-reuse' });
      reuse.browser = browser;
      reuse.own = await holdingsOf(arena.t, browser, 'reuser');
    });
    const figures = () => arena.campaign.figures;
    const submitOf = (kind: TaskKind) => callNamed(`submit ${kind}`);

    it('refuses a key sent again with another body or to another kind, and answers the first task to the same request', async () => {
      const { campaign } = arena;
      const claimed: { kind: TaskKind; key: string; body: Record<string, unknown>; taskId: string }[] = [];
      for (const kind of TaskKinds.options) {
        const api = submitOf(kind);
        const body = ownRequest(api, reuse.own);
        const key = `reuse-${kind}`;
        const first = await campaign.send(REUSE, reuse.browser, api, { body, headers: { 'idempotency-key': key } });
        // A kind the arena cannot run (no provider for it here) claims no key; it is still attacked with the others' keys.
        if (first.body.code !== 0) {
          figures().note(REUSE, 'kinds the arena refuses to run');
          continue;
        }
        figures().of(REUSE).answered++;
        claimed.push({ kind, key, body, taskId: (first.body.data as { taskId: string }).taskId });
      }
      expect(claimed.length, 'kinds whose first submit was taken').toBeGreaterThan(TaskKinds.options.length / 2);

      for (const { kind, key, body, taskId } of claimed) {
        const api = submitOf(kind);
        // Another body the schema takes: the same request with every optional field filled.
        const other = { ...body, ...bodySample(api) };
        expect(isDeepStrictEqual(other, body), `${kind}: another body`).toBe(false);
        await campaign.expectNoChange(REUSE, `${kind}: the key again`, async () => {
          const answer = await campaign.send(REUSE, reuse.browser, api, { body: other, headers: { 'idempotency-key': key } });
          campaign.expectRefused(REUSE, answer, `${kind}: the key with another body`, REUSED);
          // Every other kind with the key, each with a body it would take.
          for (const otherKind of TaskKinds.options.filter((k) => k !== kind)) {
            const otherApi = submitOf(otherKind);
            const answer = await campaign.send(REUSE, reuse.browser, otherApi, {
              body: ownRequest(otherApi, reuse.own),
              headers: { 'idempotency-key': key },
            });
            campaign.expectRefused(REUSE, answer, `${kind}'s key sent to ${otherKind}`, REUSED);
          }
          // The same request, its fields in reverse order: the first task, nothing new.
          const same = Object.fromEntries(Object.entries(body).reverse());
          const replay = await campaign.send(REUSE, reuse.browser, api, { body: same, headers: { 'idempotency-key': key } });
          expect(replay.body, `${kind}: the same request again`).toMatchObject({ code: 0, data: { taskId } });
          campaign.figures.of(REUSE).answered++;
          figures().note(REUSE, 'replays answered the first task');
        });
      }
    });
  });
}
