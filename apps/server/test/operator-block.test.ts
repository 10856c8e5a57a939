// An operator's block holds (decision "An operator's block"): `users status --email E INACTIVE` signs the user out
// everywhere, and neither activation with any code (a personal referral code included) nor a new sign-in lifts it; no
// referral is paid for it. Only the operator's ACTIVE lifts it. Not-yet-activated users are unaffected.
import { ERRORS } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { referrals, sessions, users } from '../src/db/schema.js';
import { runAdminCommand } from '../src/modules/admin/commands.js';
import { createInviteCodes } from '../src/modules/invites/service.js';
import { readAccount } from '../src/modules/points/queries.js';
import { activate } from '../src/modules/users/service.js';
import { appOn, Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { expectConsistent } from './support/points.js';

const SESSION = 'reelsmith_session';

describe.each(testDatabases())('an operator’s block on $name', (testDb) => {
  const t = appOn(testDb);

  const block = (email: string) => runAdminCommand(t.ctx, { command: 'users status', email, status: 'INACTIVE' });
  const unblock = (email: string) => runAdminCommand(t.ctx, { command: 'users status', email, status: 'ACTIVE' });
  const sessionsOf = async (userId: string) => (await t.ctx.db.select().from(sessions).where(eq(sessions.userId, userId))).length;
  const rowOf = async (userId: string) => (await t.ctx.db.select().from(users).where(eq(users.id, userId)))[0];
  const referralsOf = async (userId: string) => t.ctx.db.select().from(referrals).where(eq(referrals.inviteeUserId, userId));
  const activateWith = (browser: Browser, inviteCode: string) => browser.call('POST', '/users/activate', { query: { inviteCode } });

  async function member(email: string) {
    const browser = new Browser(t.app);
    const { userId } = await browser.devLogin(email);
    const [code] = await createInviteCodes(t.ctx.db, { count: 1, maxUses: 1 });
    expect((await activateWith(browser, code as string)).body.data).toBe(true);
    return { browser, userId };
  }

  async function referralCodeOf(browser: Browser) {
    return ((await browser.ok('GET', '/referral/info')) as { inviteCode: string }).inviteCode;
  }

  it('M2: blocks, signs out everywhere, and activation with a referral code neither lifts it nor pays the code’s owner', async () => {
    const inviter = await member('m2-inviter@example.com');
    const inviteCode = await referralCodeOf(inviter.browser);
    const inviterBefore = (await readAccount(t.ctx.db, inviter.userId)).availablePoints;
    const target = await member('m2-target@example.com');
    const otherBrowser = new Browser(t.app);
    await otherBrowser.devLogin('m2-target@example.com');

    const said = await block('m2-target@example.com');
    // The attack: post activation with the referral code from each browser the user had.
    for (const browser of [target.browser, otherBrowser]) {
      const answer = await activateWith(browser, inviteCode);
      expect(answer.body.data).not.toBe(true);
      expect(answer.body.code).toBe(ERRORS.unauthenticated.code);
      expect((await browser.call('GET', '/users/me')).body.code).toBe(ERRORS.unauthenticated.code);
    }
    expect(await sessionsOf(target.userId)).toBe(0);
    expect(await rowOf(target.userId)).toMatchObject({ status: 'INACTIVE', blockedAt: expect.any(Date) });
    expect(await referralsOf(target.userId)).toEqual([]);
    expect((await readAccount(t.ctx.db, inviter.userId)).availablePoints).toBe(inviterBefore);
    expect(said).toEqual(['m2-target@example.com is now INACTIVE: blocked, signed out everywhere']);
    await expectConsistent(t.ctx.db);
  });

  it('a session made behind the block’s back (a sign-in racing it) signs in no one, and activation refuses the user', async () => {
    const inviter = await member('race-inviter@example.com');
    const inviteCode = await referralCodeOf(inviter.browser);
    const target = await member('race-target@example.com');
    await block('race-target@example.com');
    const { token } = await t.ctx.sessions.create(target.userId);
    const late = new Browser(t.app);
    late.cookies.set(SESSION, token);
    expect((await late.call('GET', '/users/me')).body.code).toBe(ERRORS.unauthenticated.code);
    expect((await activateWith(late, inviteCode)).body.code).toBe(ERRORS.unauthenticated.code);
    // The service itself refuses, whoever calls it.
    const user = { userId: target.userId, username: 'x', email: 'race-target@example.com', avatarUrl: null, status: 'INACTIVE' as const };
    await expect(activate(t.ctx, user, inviteCode)).rejects.toMatchObject({ key: 'accountBlocked' });
    expect(await rowOf(target.userId)).toMatchObject({ status: 'INACTIVE', blockedAt: expect.any(Date) });
    expect(await referralsOf(target.userId)).toEqual([]);
  });

  it('a blocked user cannot sign in again, and is told so in their language', async () => {
    const target = await member('told@example.com');
    await block('told@example.com');
    for (const [locale, key] of [
      ['en', 'en'],
      ['zh-CN', 'zh'],
      ['pt-BR', 'pt'],
    ] as const) {
      const browser = new Browser(t.app, locale);
      const answer = await browser.call('POST', '/auth/dev-login', { body: { email: 'Told@example.com' } });
      expect(answer.body).toEqual({ code: ERRORS.accountBlocked.code, message: ERRORS.accountBlocked[key], data: null });
      expect(browser.cookies.has(SESSION)).toBe(false);
    }
    expect(await sessionsOf(target.userId)).toBe(0);
  });

  it('the operator’s ACTIVE lifts the block, and the list shows who is blocked', async () => {
    const target = await member('lifted@example.com');
    await block('lifted@example.com');
    const listed = await runAdminCommand(t.ctx, { command: 'users list' });
    expect(listed.some((line) => /^lifted@example\.com\s+\S+\s+BLOCKED\s/.test(line))).toBe(true);
    expect(await unblock('lifted@example.com')).toEqual(['lifted@example.com is now ACTIVE']);
    const browser = new Browser(t.app);
    expect(await browser.devLogin('lifted@example.com')).toMatchObject({ userId: target.userId, status: 'ACTIVE' });
    expect(await rowOf(target.userId)).toMatchObject({ status: 'ACTIVE', blockedAt: null });
  });

  it('a blocked member’s personal code invites no one and pays nothing', async () => {
    const inviter = await member('blocked-inviter@example.com');
    const inviteCode = await referralCodeOf(inviter.browser);
    await block('blocked-inviter@example.com');
    const before = (await readAccount(t.ctx.db, inviter.userId)).availablePoints;
    const friend = new Browser(t.app);
    const { userId } = await friend.devLogin('friend-of-blocked@example.com');
    expect((await activateWith(friend, inviteCode)).body).toMatchObject({ code: 0, data: false });
    expect(await rowOf(userId)).toMatchObject({ status: 'INACTIVE', blockedAt: null });
    expect((await readAccount(t.ctx.db, inviter.userId)).availablePoints).toBe(before);
  });

  it('a user who has not activated yet is not blocked: INACTIVE, and activates with a code', async () => {
    const browser = new Browser(t.app);
    const { userId } = await browser.devLogin('not-yet@example.com');
    expect(await rowOf(userId)).toMatchObject({ status: 'INACTIVE', blockedAt: null });
    expect(await browser.ok('GET', '/users/me')).toMatchObject({ status: 'INACTIVE' });
    const [code] = await createInviteCodes(t.ctx.db, { count: 1, maxUses: 1 });
    expect((await activateWith(browser, code as string)).body.data).toBe(true);
  });
});
