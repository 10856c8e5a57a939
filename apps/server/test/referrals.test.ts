import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { inviteCodes, pointsLots, referrals, users } from '../src/db/schema.js';
import { createInviteCodes, personalInviteCode } from '../src/modules/invites/service.js';
import { readAccount } from '../src/modules/points/queries.js';
import { maskEmail, referralSummary, rewardInviter } from '../src/modules/referrals/service.js';
import { appOn, Browser, PUBLIC_URL } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { expectConsistent, newUser } from './support/points.js';

interface ReferralInfo {
  inviteCode: string;
  inviteLink: string;
  monthlyRewarded: number;
  monthlyCap: number;
  invitees: Array<{ name: string; joinedAt: string; rewardPoints: number; capped: boolean }>;
}

it('masks an e-mail to its first letter and domain', () => {
  expect(maskEmail('alice@example.com')).toBe('a***@example.com');
  expect(maskEmail('x@mail.example.org')).toBe('x***@mail.example.org');
});

describe.each(testDatabases())('referrals on $name', (testDb) => {
  const t = appOn(testDb);

  const activate = (b: Browser, inviteCode: string) => b.ok('POST', '/users/activate', { query: { inviteCode } });

  async function activeBrowser(email: string, username?: string) {
    const browser = new Browser(t.app);
    const user = await browser.devLogin(email, username);
    const [code] = await createInviteCodes(t.ctx.db, { count: 1, maxUses: 1 });
    expect(await activate(browser, code as string)).toBe(true);
    return { browser, userId: user.userId };
  }

  /** Rewards the inviter for one more friend at a given moment, as an activation would. */
  async function refer(inviter: string, now: Date) {
    const friend = await newUser(t.ctx.db, 'INACTIVE');
    await t.ctx.db.transaction((tx) => rewardInviter(tx, inviter, friend, now));
  }

  it('each active user gets one personal code, made on first use, with a sign-in link to share', async () => {
    const { browser, userId } = await activeBrowser('sharer@example.com');
    const info = (await browser.ok('GET', '/referral/info')) as ReferralInfo;
    expect(info).toEqual({
      inviteCode: expect.stringMatching(/^[A-Z2-9]{10}$/),
      inviteLink: `${PUBLIC_URL}/account/login?ref=${info.inviteCode}`,
      monthlyRewarded: 0,
      monthlyCap: 500,
      invitees: [],
    });
    expect(((await browser.ok('GET', '/referral/info')) as ReferralInfo).inviteCode).toBe(info.inviteCode);
    const codes = await Promise.all([1, 2, 3].map(() => personalInviteCode(t.ctx.db, userId)));
    expect(new Set(codes)).toEqual(new Set([info.inviteCode]));
    expect(await t.ctx.db.select().from(inviteCodes).where(eq(inviteCodes.ownerUserId, userId))).toEqual([
      expect.objectContaining({ code: info.inviteCode, maxUses: null, expiresAt: null }),
    ]);
  });

  it('a friend activating with the code gets the trial and 100 credits; the inviter earns 100 that never expire', async () => {
    const inviter = await activeBrowser('host@example.com');
    const { inviteCode } = (await inviter.browser.ok('GET', '/referral/info')) as ReferralInfo;
    const friends = [new Browser(t.app), new Browser(t.app)];
    await friends[0]?.devLogin('guest.one@example.org', 'Guest One');
    await friends[1]?.devLogin('guest.two@example.org');
    for (const friend of friends) expect(await activate(friend, inviteCode.toLowerCase())).toBe(true);
    for (const friend of friends) {
      expect(await friend.ok('GET', '/users/me')).toMatchObject({ status: 'ACTIVE' });
      expect(await friend.ok('GET', '/points/account')).toMatchObject({
        totalPoints: 100,
        availablePoints: 100,
        usedPoints: 0,
        expiredPoints: 0,
      });
    }
    expect(await readAccount(t.ctx.db, inviter.userId)).toMatchObject({
      totalPoints: 300,
      availablePoints: 300,
      usedPoints: 0,
      expiredPoints: 0,
    });
    const lots = await t.ctx.db.select().from(pointsLots).where(eq(pointsLots.userId, inviter.userId));
    expect(lots.filter((l) => l.operationType === 'REFERRAL_REWARD').map((l) => [l.amount, l.expiresAt])).toEqual([
      [100, null],
      [100, null],
    ]);
    const info = (await inviter.browser.ok('GET', '/referral/info')) as ReferralInfo;
    expect(info.monthlyRewarded).toBe(200);
    // Newest first; a friend with a username of their own is shown by it, one with the default by a masked e-mail.
    expect(info.invitees).toEqual([
      { name: 'g***@example.org', joinedAt: expect.any(String), rewardPoints: 100, capped: false },
      { name: 'Guest One', joinedAt: expect.any(String), rewardPoints: 100, capped: false },
    ]);
    const gained = (await inviter.browser.ok('POST', '/points/list', {
      body: { page: 1, pageSize: 40, operationType: 'gained' },
    })) as Array<{
      operationType: string;
    }>;
    expect(gained.map((r) => r.operationType)).toEqual(['REFERRAL_REWARD', 'REFERRAL_REWARD', 'SIGNUP']);
    await expectConsistent(t.ctx.db);
  });

  it('nobody can use their own code, and a friend counts once even if activated again', async () => {
    const inviter = await activeBrowser('self@example.com');
    const { inviteCode } = (await inviter.browser.ok('GET', '/referral/info')) as ReferralInfo;
    // Made INACTIVE behind the app's back: the operator's INACTIVE is a block no code lifts (operator-block.test.ts).
    await t.ctx.db.update(users).set({ status: 'INACTIVE' }).where(eq(users.id, inviter.userId));
    expect(await activate(inviter.browser, inviteCode)).toBe(false);
    await t.ctx.db.update(users).set({ status: 'ACTIVE' }).where(eq(users.id, inviter.userId));

    const friend = new Browser(t.app);
    const { userId } = await friend.devLogin('returning-friend@example.com');
    expect(await activate(friend, inviteCode)).toBe(true);
    await t.ctx.db.update(users).set({ status: 'INACTIVE' }).where(eq(users.id, userId));
    expect(await activate(friend, inviteCode)).toBe(true);
    expect(await t.ctx.db.select().from(referrals).where(eq(referrals.inviteeUserId, userId))).toHaveLength(1);
    expect((await readAccount(t.ctx.db, inviter.userId)).availablePoints).toBe(200);
    expect((await readAccount(t.ctx.db, userId)).availablePoints).toBe(100);
  });

  it('a referred friend gets at least 100 credits even when SIGNUP_CREDITS is lower', async () => {
    const inviter = await activeBrowser('low-host@example.com');
    const { inviteCode } = (await inviter.browser.ok('GET', '/referral/info')) as ReferralInfo;
    const previous = t.ctx.settings.signupCredits;
    t.ctx.settings.signupCredits = 20;
    try {
      const plain = await activeBrowser('plain@example.com');
      expect(await readAccount(t.ctx.db, plain.userId)).toMatchObject({ availablePoints: 20 });
      const friend = new Browser(t.app);
      const { userId } = await friend.devLogin('low-friend@example.com');
      expect(await activate(friend, inviteCode)).toBe(true);
      expect(await readAccount(t.ctx.db, userId)).toMatchObject({ availablePoints: 100 });
    } finally {
      t.ctx.settings.signupCredits = previous;
    }
  });

  it('rewards at most 500 a calendar month (UTC): 5 in March, the 6th capped, April rewards again', async () => {
    const inviter = await newUser(t.ctx.db);
    await personalInviteCode(t.ctx.db, inviter);
    for (let i = 0; i < 5; i++) await refer(inviter, new Date(`2031-03-${10 + i}T12:00:00Z`));
    await refer(inviter, new Date('2031-03-31T23:59:59Z'));
    await refer(inviter, new Date('2031-04-01T00:00:00Z'));
    const rows = await t.ctx.db.select().from(referrals).where(eq(referrals.inviterUserId, inviter)).orderBy(referrals.createdAt);
    expect(rows.map((r) => r.rewardPoints)).toEqual([100, 100, 100, 100, 100, 0, 100]);
    expect(await readAccount(t.ctx.db, inviter)).toMatchObject({ totalPoints: 600, availablePoints: 600 });
    const march = await referralSummary(t.ctx.db, inviter, PUBLIC_URL, new Date('2031-03-20T00:00:00Z'));
    expect(march.monthlyRewarded).toBe(500);
    const april = await referralSummary(t.ctx.db, inviter, PUBLIC_URL, new Date('2031-04-02T00:00:00Z'));
    expect(april.monthlyRewarded).toBe(100);
    expect(april.invitees.map((i) => [i.rewardPoints, i.capped])).toEqual([
      [100, false],
      [0, true],
      [100, false],
      [100, false],
      [100, false],
      [100, false],
      [100, false],
    ]);
    await expectConsistent(t.ctx.db);
  });

  it('eight friends activating at once in one month: exactly five rewards', async () => {
    const inviter = await newUser(t.ctx.db);
    await personalInviteCode(t.ctx.db, inviter);
    const now = new Date('2031-06-15T00:00:00Z');
    await Promise.all(Array.from({ length: 8 }, () => refer(inviter, now)));
    const rows = await t.ctx.db.select().from(referrals).where(eq(referrals.inviterUserId, inviter));
    expect(rows.map((r) => r.rewardPoints).sort()).toEqual([0, 0, 0, 100, 100, 100, 100, 100]);
    expect((await readAccount(t.ctx.db, inviter)).availablePoints).toBe(500);
  });
});
