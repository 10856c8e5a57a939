import { randomUUID } from 'node:crypto';
import { ERRORS, errorMessage, SkuCode } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pointsLedger, pointsLedgerLots, pointsLots, tasks } from '../src/db/schema.js';
import { AppError } from '../src/errors.js';
import { sweepExpiredCredits } from '../src/modules/points/expiry.js';
import { charge, chargeForTask, expireDueCredits, grant, refund } from '../src/modules/points/ledger.js';
import { operationTypeOfSku, priceOf, setPrice, skuCodeOf } from '../src/modules/points/prices.js';
import { listHistory, readAccount } from '../src/modules/points/queries.js';
import { testDatabases } from './support/databases.js';
import { availableOf, databaseOn, days, expectConsistent, newUser } from './support/points.js';

const T0 = new Date('2031-03-10T12:00:00Z');

/** The AppError a promise fails with. */
async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('SKU codes', () => {
  it('each SKU is charged as the tool it prices', () => {
    const types = Object.fromEntries(SkuCode.options.map((sku) => [sku, operationTypeOfSku(sku)]));
    expect(types).toEqual({
      imageGen: 'TEXT_TO_IMAGE',
      imageGenV2: 'TEXT_TO_IMAGE',
      imageTryOn: 'VIRTUAL_TRY_ON',
      imageBg: 'AI_BACKGROUND',
      extendImg: 'EXTEND_IMAGE',
      imageEnhance: 'UPSCALE_IMAGE',
      link2V_15s: 'LINK_TO_VIDEO',
      link2V_30s: 'LINK_TO_VIDEO',
      link2V_45s: 'LINK_TO_VIDEO',
      videoTemplate_basic: 'TEMPLATE_TO_VIDEO',
      videoTemplate_pro: 'TEMPLATE_TO_VIDEO',
      t2Video_std_5s: 'TEXT_TO_VIDEO',
      t2Video_std_10s: 'TEXT_TO_VIDEO',
      t2Video_pro_5s: 'TEXT_TO_VIDEO',
      t2Video_pro_10s: 'TEXT_TO_VIDEO',
      img2Video_std_5s: 'IMAGE_TO_VIDEO',
      img2Video_std_10s: 'IMAGE_TO_VIDEO',
      img2Video_pro_5s: 'IMAGE_TO_VIDEO',
      img2Video_pro_10s: 'IMAGE_TO_VIDEO',
      img2VideoLocal_std_5s: 'IMAGE_TO_VIDEO',
      img2VideoLocal_std_10s: 'IMAGE_TO_VIDEO',
      img2VideoLocal_pro_5s: 'IMAGE_TO_VIDEO',
      img2VideoLocal_pro_10s: 'IMAGE_TO_VIDEO',
      avatarVideo: 'AVATAR_VIDEO',
      productHolding: 'PRODUCT_HOLDING',
    });
  });

  it('an unknown code is refused with a message naming it', () => {
    expect(() => skuCodeOf('noSuchSku')).toThrow(expect.objectContaining({ key: 'unknownSku', params: { sku: 'noSuchSku' } }));
    expect(skuCodeOf('imageBg')).toBe('imageBg');
  });
});

describe.each(testDatabases())('credits ledger on $name', (testDb) => {
  const t = databaseOn(testDb);

  it('the migration prices every SKU code above zero', async () => {
    for (const sku of SkuCode.options) expect(await priceOf(t.db, sku)).toBeGreaterThan(0);
    expect(await priceOf(t.db, 'link2V_15s')).toBe(30);
  });

  it('a grant adds a lot and a gained record; a replay of its key answers the first row and changes nothing', async () => {
    const user = await newUser(t.db);
    const first = await grant(t.db, user, 50, 'PROMOTION', { key: 'promo-1', referenceId: 'spring', now: T0 });
    expect(first).toMatchObject({ userId: user, operationType: 'PROMOTION', pointsChange: 50, referenceId: 'spring', taskId: null });
    const again = await grant(t.db, user, 70, 'PROMOTION', { key: 'promo-1', now: T0 });
    expect(again).toEqual(first);
    expect(await readAccount(t.db, user)).toMatchObject({ totalPoints: 50, availablePoints: 50, usedPoints: 0, expiredPoints: 0 });
    expect(await t.db.select().from(pointsLots).where(eq(pointsLots.userId, user))).toEqual([
      expect.objectContaining({ operationType: 'PROMOTION', amount: 50, remaining: 50, expiresAt: null }),
    ]);
    expect(await listHistory(t.db, user, { page: 1, pageSize: 40, operationType: 'gained' })).toEqual([
      { referenceId: 'spring', operationType: 'PROMOTION', pointsChange: 50, createTime: T0.toISOString() },
    ]);
    await expectConsistent(t.db);
  });

  it('a key used again for another kind of operation is a conflict, not a replay', async () => {
    const user = await newUser(t.db);
    await grant(t.db, user, 100, 'RECHARGE', { key: 'k', now: T0 });
    expect((await failure(grant(t.db, user, 100, 'PROMOTION', { key: 'k', now: T0 }))).key).toBe('conflict');
    expect((await failure(charge(t.db, user, 'imageGen', 1, { taskId: 'task-k', key: 'k', now: T0 }))).key).toBe('conflict');
    await charge(t.db, user, 'imageGen', 1, { taskId: 'task-a', key: 'c', now: T0 });
    expect((await failure(charge(t.db, user, 'imageGen', 1, { taskId: 'task-b', key: 'c', now: T0 }))).key).toBe('conflict');
    expect(await availableOf(t.db, user)).toBe(96);
  });

  it('a charge costs price × count and is named after the tool; a replay charges once, whatever the price now', async () => {
    const user = await newUser(t.db);
    await grant(t.db, user, 200, 'RECHARGE', { key: 'r', now: T0 });
    const first = await charge(t.db, user, 'imageGenV2', 3, { taskId: 'task-1', key: 'submit-1', now: T0 });
    expect(first).toMatchObject({ operationType: 'TEXT_TO_IMAGE', pointsChange: -18, referenceId: 'task-1', taskId: 'task-1' });
    await setPrice(t.db, 'imageGenV2', 9);
    try {
      expect(await charge(t.db, user, 'imageGenV2', 3, { taskId: 'task-1', key: 'submit-1', now: T0 })).toEqual(first);
      expect(await charge(t.db, user, 'imageGenV2', 1, { taskId: 'task-2', key: 'submit-2', now: T0 })).toMatchObject({ pointsChange: -9 });
    } finally {
      await setPrice(t.db, 'imageGenV2', 6);
    }
    expect(await readAccount(t.db, user)).toMatchObject({ totalPoints: 200, availablePoints: 173, usedPoints: 27, expiredPoints: 0 });
    await expectConsistent(t.db);
  });

  it('a free SKU charges nothing and writes nothing', async () => {
    const user = await newUser(t.db);
    await setPrice(t.db, 'imageBg', 0);
    try {
      expect(await charge(t.db, user, 'imageBg', 5, { taskId: 'free', key: 'free', now: T0 })).toBeNull();
    } finally {
      await setPrice(t.db, 'imageBg', 2);
    }
    expect(await t.db.select().from(pointsLedger).where(eq(pointsLedger.userId, user))).toEqual([]);
  });

  it('not enough credits: a 402 naming what is needed and available, and nothing changes', async () => {
    const never = await newUser(t.db);
    const error = await failure(charge(t.db, never, 'imageGen', 1, { taskId: 'x', key: 'x', now: T0 }));
    expect(error).toMatchObject({ key: 'notEnoughCredits', params: { needed: 4, available: 0 } });
    expect(ERRORS[error.key].code).toBe(402);
    const user = await newUser(t.db);
    await grant(t.db, user, 25, 'PROMOTION', { key: 'p', now: T0 });
    const short = await failure(charge(t.db, user, 'link2V_15s', 1, { taskId: 'y', key: 'y', now: T0 }));
    expect(errorMessage(short.key, 'en', short.params)).toBe('Not enough credits: 30 needed, 25 available.');
    expect(await readAccount(t.db, user)).toMatchObject({ totalPoints: 25, availablePoints: 25, usedPoints: 0, expiredPoints: 0 });
    expect(await listHistory(t.db, user, { page: 1, pageSize: 40, operationType: 'used' })).toEqual([]);
  });

  it('spends the earliest-expiring lot first and never-expiring credits last; a charge over several lots is one row', async () => {
    const user = await newUser(t.db);
    await grant(t.db, user, 10, 'RECHARGE', { key: 'forever', now: T0 });
    await grant(t.db, user, 10, 'PROMOTION', { key: 'late', expiresAt: days(T0, 20), now: T0 });
    await grant(t.db, user, 10, 'SIGNUP', { key: 'soon', expiresAt: days(T0, 5), now: T0 });
    const row = await charge(t.db, user, 'imageGen', 4, { taskId: 'multi', key: 'multi', now: T0 });
    expect(row).toMatchObject({ pointsChange: -16 });
    const lots = await t.db.select().from(pointsLots).where(eq(pointsLots.userId, user));
    const remaining = Object.fromEntries(lots.map((l) => [l.operationType, l.remaining]));
    expect(remaining).toEqual({ SIGNUP: 0, PROMOTION: 4, RECHARGE: 10 });
    const changes = await t.db
      .select()
      .from(pointsLedgerLots)
      .where(eq(pointsLedgerLots.ledgerId, row?.id ?? 0));
    expect(changes.map((c) => c.pointsChange).sort()).toEqual([-10, -6]);
    expect(await listHistory(t.db, user, { page: 1, pageSize: 40, operationType: 'used' })).toEqual([
      { referenceId: 'multi', operationType: 'TEXT_TO_IMAGE', pointsChange: -16, createTime: T0.toISOString() },
    ]);
    await expectConsistent(t.db);
  });

  it('a refund writes one REFUND_TASK row however often (and however concurrently) it is asked, into the lots charged', async () => {
    const user = await newUser(t.db);
    await grant(t.db, user, 10, 'SIGNUP', { key: 's', expiresAt: days(T0, 30), now: T0 });
    await grant(t.db, user, 100, 'RECHARGE', { key: 'r', now: T0 });
    await charge(t.db, user, 't2Video_std_5s', 1, { taskId: 'video-1', key: 'v1', now: T0 });
    const refunds = await Promise.all(Array.from({ length: 5 }, () => refund(t.db, 'video-1', T0)));
    expect(new Set(refunds.map((r) => r?.id)).size).toBe(1);
    expect(refunds[0]).toMatchObject({ operationType: 'REFUND_TASK', pointsChange: 20, referenceId: 'video-1', taskId: 'video-1' });
    expect(await refund(t.db, 'video-1', days(T0, 1))).toEqual(refunds[0]);
    const lots = await t.db.select().from(pointsLots).where(eq(pointsLots.userId, user));
    expect(Object.fromEntries(lots.map((l) => [l.operationType, l.remaining]))).toEqual({ SIGNUP: 10, RECHARGE: 100 });
    expect(await readAccount(t.db, user)).toMatchObject({ totalPoints: 110, availablePoints: 110, usedPoints: 0, expiredPoints: 0 });
    await expectConsistent(t.db);
  });

  it('refunding a task that was never charged does nothing', async () => {
    expect(await refund(t.db, 'no-such-task', T0)).toBeNull();
  });

  it('a refund into a lot that has expired meanwhile returns the credits and expires them at once', async () => {
    const user = await newUser(t.db);
    await grant(t.db, user, 100, 'SIGNUP', { key: 'signup', expiresAt: days(T0, 30), now: T0 });
    await grant(t.db, user, 50, 'RECHARGE', { key: 'recharge', now: T0 });
    // Submitted on day 29: the sign-up lot pays 70 of it.
    await charge(t.db, user, 'link2V_45s', 1, { taskId: 'late-task', key: 'late', now: days(T0, 29) });
    await sweepExpiredCredits(t.db, days(T0, 31));
    expect(await readAccount(t.db, user)).toMatchObject({ totalPoints: 150, availablePoints: 50, usedPoints: 70, expiredPoints: 30 });
    // It fails on day 31: the 70 go back to the sign-up lot, which is past its expiry.
    await refund(t.db, 'late-task', days(T0, 31));
    expect(await readAccount(t.db, user)).toMatchObject({ totalPoints: 150, availablePoints: 50, usedPoints: 0, expiredPoints: 100 });
    const history = await listHistory(t.db, user, { page: 1, pageSize: 40, operationType: 'used' });
    expect(history.map((r) => [r.operationType, r.pointsChange])).toEqual([
      ['EXPIRATION', -70],
      ['EXPIRATION', -30],
      ['LINK_TO_VIDEO', -70],
    ]);
    expect(await sweepExpiredCredits(t.db, days(T0, 32))).toBe(0);
    await expectConsistent(t.db);
  });

  it('sign-up credits expire after 30 days: one EXPIRATION row, even with sweeps running at once', async () => {
    const user = await newUser(t.db);
    await grant(t.db, user, 100, 'SIGNUP', { key: 'signup', expiresAt: days(T0, 30), now: T0 });
    await charge(t.db, user, 'imageTryOn', 1, { taskId: 'try-on', key: 'try-on', now: days(T0, 3) });
    expect(await expireDueCredits(t.db, user, new Date(days(T0, 30).getTime() - 1))).toBe(0);
    await Promise.all([1, 2, 3].map(() => sweepExpiredCredits(t.db, days(T0, 30))));
    await sweepExpiredCredits(t.db, days(T0, 40));
    const expirations = await t.db.select().from(pointsLedger).where(eq(pointsLedger.userId, user));
    expect(expirations.filter((r) => r.operationType === 'EXPIRATION').map((r) => r.pointsChange)).toEqual([-92]);
    expect(await readAccount(t.db, user)).toMatchObject({ totalPoints: 100, availablePoints: 0, usedPoints: 8, expiredPoints: 92 });
    await expectConsistent(t.db);
  });

  it('a charge never spends credits past their expiry, even before the sweep has expired them', async () => {
    const user = await newUser(t.db);
    await grant(t.db, user, 100, 'SIGNUP', { key: 'signup', expiresAt: days(T0, 30), now: T0 });
    await grant(t.db, user, 5, 'PROMOTION', { key: 'promo', now: T0 });
    const error = await failure(charge(t.db, user, 'imageGenV2', 1, { taskId: 'after', key: 'after', now: days(T0, 30) }));
    expect(error.params).toEqual({ needed: 6, available: 5 });
    expect(await availableOf(t.db, user)).toBe(105);
    await charge(t.db, user, 'imageGen', 1, { taskId: 'small', key: 'small', now: days(T0, 31) });
    await sweepExpiredCredits(t.db, days(T0, 31));
    expect(await readAccount(t.db, user)).toMatchObject({ totalPoints: 105, availablePoints: 1, usedPoints: 4, expiredPoints: 100 });
    await expectConsistent(t.db);
  });
});

describe.each(testDatabases())('a task charged for two SKUs on $name (decision "Presenter in link to video")', (testDb) => {
  const t = databaseOn(testDb);
  const task = (userId: string) => ({
    id: randomUUID(),
    userId,
    kind: 'export-video',
    projectId: null,
    input: {},
    status: 'SUBMITTED' as const,
    idempotencyKey: null,
    batchRowId: null,
    maxAttempts: 3,
  });
  const price = { sku: 'link2V_15s', count: 1, also: [{ sku: 'avatarVideo', count: 6 }] } as const;

  it('writes the task and both charges, one ledger row each, and a failure refunds them both', async () => {
    const user = await newUser(t.db);
    await grant(t.db, user, 100, 'PROMOTION', { key: 'promo', now: T0 });
    const row = task(user);
    const charged = await chargeForTask(t.db, row, price, { taskId: row.id, key: `task:${row.id}`, now: T0 });
    const each = { export: await priceOf(t.db, 'link2V_15s'), presenter: 6 * (await priceOf(t.db, 'avatarVideo')) };
    expect(charged.credits).toBe(each.export + each.presenter);
    expect(charged.task.id).toBe(row.id);
    const rows = await t.db.select().from(pointsLedger).where(eq(pointsLedger.taskId, row.id));
    expect(rows.map((r) => [r.operationType, r.pointsChange]).sort()).toEqual(
      [
        ['AVATAR_VIDEO', -each.presenter],
        ['LINK_TO_VIDEO', -each.export],
      ].sort(),
    );
    expect(await availableOf(t.db, user)).toBe(100 - each.export - each.presenter);
    await refund(t.db, row.id, T0);
    expect(await availableOf(t.db, user)).toBe(100);
    await expectConsistent(t.db);
  });

  it('short of credits for the second, writes neither the task nor the first charge, and names the whole price', async () => {
    const user = await newUser(t.db);
    const whole = (await priceOf(t.db, 'link2V_15s')) + 6 * (await priceOf(t.db, 'avatarVideo'));
    await grant(t.db, user, whole - 1, 'PROMOTION', { key: 'promo', now: T0 });
    const row = task(user);
    const refused = await failure(chargeForTask(t.db, row, price, { taskId: row.id, key: `task:${row.id}`, now: T0 }));
    expect(refused.key).toBe('notEnoughCredits');
    expect(refused.params).toEqual({ needed: whole, available: whole - 1 });
    expect(await t.db.select().from(tasks).where(eq(tasks.id, row.id))).toEqual([]);
    expect(await t.db.select().from(pointsLedger).where(eq(pointsLedger.taskId, row.id))).toEqual([]);
    expect(await availableOf(t.db, user)).toBe(whole - 1);
    await expectConsistent(t.db);
  });
});
