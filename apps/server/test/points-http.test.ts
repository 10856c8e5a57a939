import { ERRORS, type PointsAccount, type PointsRecord, SkuCode } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pointsLots } from '../src/db/schema.js';
import { createInviteCodes } from '../src/modules/invites/service.js';
import { grant } from '../src/modules/points/ledger.js';
import { priceOf } from '../src/modules/points/prices.js';
import { appOn, Browser, testApp } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { DAY_MS, expectConsistent } from './support/points.js';

describe.each(testDatabases())('points API on $name', (testDb) => {
  const t = appOn(testDb);

  /** A browser signed in as a new user, activated with an operator's code unless told otherwise. */
  async function signedIn(email: string, { active = true, app = t.app } = {}) {
    const browser = new Browser(app);
    const user = await browser.devLogin(email);
    if (active) {
      const [code] = await createInviteCodes(t.ctx.db, { count: 1, maxUses: 1 });
      expect(await browser.ok('POST', '/users/activate', { query: { inviteCode: code as string } })).toBe(true);
    }
    return { browser, userId: user.userId };
  }

  const history = (b: Browser, operationType: string, page = 1, pageSize = 40) =>
    b.ok('POST', '/points/list', { body: { page, pageSize, operationType } }) as Promise<PointsRecord[]>;

  it('activation grants the sign-up credits, valid for 30 days, in the account and the history', async () => {
    const { browser, userId } = await signedIn('starter@example.com');
    const account = (await browser.ok('GET', '/points/account')) as PointsAccount;
    expect(account).toEqual({
      totalPoints: 100,
      availablePoints: 100,
      usedPoints: 0,
      expiredPoints: 0,
      // The user is told the sign-up credits expire, and when: 30 days from activation.
      expiring: [{ operationType: 'SIGNUP', points: 100, expiresAt: expect.any(String) }],
    });
    const daysLeft = (Date.parse(account.expiring[0]?.expiresAt ?? '') - Date.now()) / DAY_MS;
    expect(daysLeft).toBeGreaterThan(29.9);
    expect(daysLeft).toBeLessThanOrEqual(30);
    const gained = await history(browser, 'gained');
    expect(gained).toEqual([
      { referenceId: expect.any(String), operationType: 'SIGNUP', pointsChange: 100, createTime: expect.any(String) },
    ]);
    expect(Math.abs(Date.parse(gained[0]?.createTime ?? '') - Date.now())).toBeLessThan(60_000);
    const [lot] = await t.ctx.db.select().from(pointsLots).where(eq(pointsLots.userId, userId));
    const days = ((lot?.expiresAt?.getTime() ?? 0) - (lot?.createdAt.getTime() ?? 0)) / DAY_MS;
    expect(days).toBe(30);
    expect(await history(browser, 'used')).toEqual([]);
  });

  it('SIGNUP_CREDITS sets the size of the grant; 0 grants nothing', async () => {
    const big = await testApp(t.database.db, { SIGNUP_CREDITS: '250' });
    const none = await testApp(t.database.db, { SIGNUP_CREDITS: '0' });
    try {
      const a = await signedIn('generous@example.com', { app: big.app });
      expect(await a.browser.ok('GET', '/points/account')).toMatchObject({ availablePoints: 250 });
      const b = await signedIn('stingy@example.com', { app: none.app });
      expect(await b.browser.ok('GET', '/points/account')).toEqual({
        totalPoints: 0,
        availablePoints: 0,
        usedPoints: 0,
        expiredPoints: 0,
        expiring: [],
      });
      expect(await history(b.browser, 'gained')).toEqual([]);
    } finally {
      await big.app.close();
      await none.app.close();
    }
  });

  it('the account, refresh, history and invite page are for active users: 401 signed out, 403 inactive', async () => {
    const { browser } = await signedIn('waiting@example.com', { active: false });
    const calls = [
      ['GET', '/points/account', undefined],
      ['POST', '/points/refresh', undefined],
      ['POST', '/points/list', { page: 1, pageSize: 40, operationType: 'used' }],
      ['GET', '/referral/info', undefined],
    ] as const;
    for (const [method, path, body] of calls) {
      const inactive = await browser.call(method, path, { body });
      expect(inactive.status).toBe(403);
      expect(inactive.body).toEqual({ code: 403, message: ERRORS.notActive.en, data: null });
      expect((await new Browser(t.app).call(method, path, { body })).status).toBe(401);
    }
  });

  it('skuPrice answers every SKU code to any signed-in user, and unknownSku for anything else', async () => {
    const { browser } = await signedIn('pricing@example.com', { active: false });
    // Every SKU at its listed price, or free where the sandbox's stand-in does the work (decision "Stand-ins are free").
    for (const skuCode of SkuCode.options) {
      const data = (await browser.ok('GET', '/points/skuPrice', { query: { skuCode } })) as {
        skuCode: string;
        price: number;
        standIn: boolean;
      };
      expect(data.skuCode).toBe(skuCode);
      expect(data.price).toBe(data.standIn ? 0 : await priceOf(t.ctx.db, skuCode));
      expect(data.price > 0 || data.standIn).toBe(true);
    }
    expect(await browser.ok('GET', '/points/skuPrice', { query: { skuCode: 'imageEnhance' } })).toEqual({
      skuCode: 'imageEnhance',
      price: 2,
      standIn: false,
    });
    expect(await browser.ok('GET', '/points/skuPrice', { query: { skuCode: 'imageGen' } })).toEqual({
      skuCode: 'imageGen',
      price: 0,
      standIn: true,
    });
    const signedOut = await new Browser(t.app).call('GET', '/points/skuPrice', { query: { skuCode: 'imageGen' } });
    expect(signedOut.body).toMatchObject({ code: 401 });
    const bad = await browser.call('GET', '/points/skuPrice', { query: { skuCode: 'noSuchSku' } });
    expect(bad.body).toEqual({ code: ERRORS.unknownSku.code, message: 'Unknown price code: noSuchSku', data: null });
    expect((await browser.call('GET', '/points/skuPrice')).body.code).toBe(ERRORS.validation.code);
  });

  it('pages through 130 records 40 at a time, newest first, none twice; gained and used apart', async () => {
    const { browser, userId } = await signedIn('pager@example.com');
    const base = Date.parse('2021-05-01T00:00:00Z');
    // Every other pair shares a time, so the order also rests on the tie-break.
    for (let i = 0; i < 129; i++) {
      await grant(t.ctx.db, userId, 1 + i, 'PROMOTION', {
        key: `page-${i}`,
        referenceId: `promo-${i}`,
        now: new Date(base + Math.floor(i / 2) * 1000),
      });
    }
    const pages = [];
    for (let page = 1; page <= 5; page++) pages.push(await history(browser, 'gained', page));
    expect(pages.map((p) => p.length)).toEqual([40, 40, 40, 10, 0]);
    const all = pages.flat();
    expect(new Set(all.map((r) => r.referenceId)).size).toBe(130);
    // The sign-up grant is the newest (made now); then the promotions from the last to the first.
    expect(all[0]?.operationType).toBe('SIGNUP');
    expect(all.slice(1).map((r) => r.referenceId)).toEqual(Array.from({ length: 129 }, (_, i) => `promo-${128 - i}`));
    const times = all.map((r) => Date.parse(r.createTime));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(await history(browser, 'used')).toEqual([]);
    expect((await history(browser, 'gained', 2, 100)).map((r) => r.referenceId)).toEqual(all.slice(100).map((r) => r.referenceId));
    for (const body of [
      { page: 1, pageSize: 101, operationType: 'gained' },
      { page: 0, pageSize: 40, operationType: 'gained' },
      { page: 1, pageSize: 40, operationType: 'all' },
      { page: 1, pageSize: 40, operationType: 'used', extra: true },
    ]) {
      expect((await browser.call('POST', '/points/list', { body })).body.code).toBe(ERRORS.validation.code);
    }
  });

  it('refresh expires credits past their expiry at once and answers the account', async () => {
    const { browser, userId } = await signedIn('expiring@example.com');
    await grant(t.ctx.db, userId, 30, 'PROMOTION', {
      key: 'gone',
      expiresAt: new Date(Date.now() - 1000),
      now: new Date(Date.now() - DAY_MS),
    });
    const before = (await browser.ok('GET', '/points/account')) as PointsAccount;
    expect(before).toMatchObject({ availablePoints: 130, expiredPoints: 0 });
    expect(await browser.ok('POST', '/points/refresh')).toMatchObject({
      totalPoints: 130,
      availablePoints: 100,
      usedPoints: 0,
      expiredPoints: 30,
    });
    expect(await history(browser, 'used')).toEqual([
      { referenceId: expect.any(String), operationType: 'EXPIRATION', pointsChange: -30, createTime: expect.any(String) },
    ]);
    await expectConsistent(t.ctx.db);
  });

  it('a user sees only their own account and history', async () => {
    const a = await signedIn('own-a@example.com');
    const b = await signedIn('own-b@example.com');
    await grant(t.ctx.db, a.userId, 7, 'PROMOTION', { key: 'only-a', referenceId: 'only-a' });
    expect(await b.browser.ok('GET', '/points/account')).toMatchObject({ availablePoints: 100 });
    expect((await history(b.browser, 'gained')).map((r) => r.referenceId)).not.toContain('only-a');
  });
});
