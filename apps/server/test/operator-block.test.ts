// An operator's block holds (decision "An operator's block"): `users status --email E INACTIVE` signs the user out
// everywhere, and neither activation with any code (a personal referral code included) nor a new sign-in lifts it; no
// referral is paid for it. Only the operator's ACTIVE lifts it. Not-yet-activated users are unaffected.
import { ERRORS } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../../test-support/wait.js';
import { referrals, sessions, tasks, users } from '../src/db/schema.js';
import { runAdminCommand } from '../src/modules/admin/commands.js';
import { createInviteCodes } from '../src/modules/invites/service.js';
import { grant } from '../src/modules/points/ledger.js';
import { setPrice } from '../src/modules/points/prices.js';
import { readAccount } from '../src/modules/points/queries.js';
import { submitTask } from '../src/modules/tasks/queue.js';
import { startWorker } from '../src/modules/tasks/worker.js';
import { activate } from '../src/modules/users/service.js';
import { appOn, Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { expectConsistent } from './support/points.js';
import { imageUrlFor, testTaskKind } from './support/tasks.js';

const SESSION = 'reelsmith_session';

describe.each(testDatabases())('an operator’s block on $name', (testDb) => {
  const kind = testTaskKind();
  const t = appOn(testDb, () => ({}), [kind.definition]);

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
    expect(said).toEqual([
      'm2-target@example.com is now INACTIVE: blocked, signed out everywhere, 0 unfinished tasks cancelled and refunded',
    ]);
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

  it('cancels the blocked user’s waiting and running tasks with their refunds; no worker starts their work', async () => {
    await setPrice(t.ctx.db, 'imageEnhance', 5);
    const target = await member('busy@example.com');
    const bystander = await member('bystander@example.com');
    for (const { userId } of [target, bystander]) await grant(t.ctx.db, userId, 100, 'PROMOTION', { key: `busy:${userId}` });
    const before = (await readAccount(t.ctx.db, target.userId)).availablePoints;
    const submit = (browser: Browser, behaviour: 'hang' | 'ok', n: number) =>
      browser.ok('POST', '/task/v1/enlarge-image/submit', { body: { imageUrl: imageUrlFor(behaviour, n) } }) as Promise<{ taskId: string }>;
    const running = await submit(target.browser, 'hang', 0);
    const worker = startWorker(t.ctx, [kind.definition], { concurrency: 1, pollMs: 25, log: { info() {}, warn() {}, error() {} } });
    try {
      await waitFor(() => kind.runs.has(running.taskId), 'the first task to run');
      const waiting = [await submit(target.browser, 'ok', 1), await submit(target.browser, 'ok', 2)];
      const theirs = await submit(bystander.browser, 'ok', 3);
      expect(await block('busy@example.com')).toEqual([
        'busy@example.com is now INACTIVE: blocked, signed out everywhere, 3 unfinished tasks cancelled and refunded',
      ]);
      for (const { taskId } of [running, ...waiting]) {
        const [row] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, taskId));
        expect(row).toMatchObject({ status: 'FAILURE', error: { key: 'taskCancelled' } });
      }
      expect((await readAccount(t.ctx.db, target.userId)).availablePoints).toBe(before);
      // A task submitted as the block was written (a batch's driver, an API call in flight) never runs: the
      // worker's sweep cancels it, refunded.
      const [row] = await t.ctx.db.select().from(users).where(eq(users.id, target.userId));
      const late = await submitTask(
        t.ctx,
        kind.definition,
        { userId: target.userId, username: 'x', email: 'busy@example.com', avatarUrl: null, status: 'ACTIVE' },
        { imageUrl: imageUrlFor('ok', 4), scale: 2, n: 1 },
      );
      expect(row?.blockedAt).not.toBeNull();
      await waitFor(async () => (await t.ctx.db.select().from(tasks).where(eq(tasks.id, late.id)))[0]?.status === 'FAILURE', 'the sweep');
      expect(kind.runs.has(late.id)).toBe(false);
      for (const { taskId } of waiting) expect(kind.runs.has(taskId)).toBe(false);
      expect((await readAccount(t.ctx.db, target.userId)).availablePoints).toBe(before);
      // Another user's work is untouched.
      await waitFor(
        async () => (await t.ctx.db.select().from(tasks).where(eq(tasks.id, theirs.taskId)))[0]?.status === 'SUCCESS',
        'theirs',
      );
    } finally {
      await worker.stop();
    }
    await expectConsistent(t.ctx.db);
  });

  it('`tasks cancel` ends a user’s unfinished tasks, refunded, without blocking them', async () => {
    await setPrice(t.ctx.db, 'imageEnhance', 5);
    const target = await member('cancel-me@example.com');
    await grant(t.ctx.db, target.userId, 100, 'PROMOTION', { key: 'cancel-me' });
    const before = (await readAccount(t.ctx.db, target.userId)).availablePoints;
    for (let n = 0; n < 2; n++)
      await target.browser.ok('POST', '/task/v1/enlarge-image/submit', { body: { imageUrl: imageUrlFor('ok', n) } });
    expect((await readAccount(t.ctx.db, target.userId)).availablePoints).toBe(before - 10);
    expect(await runAdminCommand(t.ctx, { command: 'tasks cancel', email: 'cancel-me@example.com' })).toEqual([
      'cancel-me@example.com: 2 unfinished tasks cancelled and refunded',
    ]);
    expect((await readAccount(t.ctx.db, target.userId)).availablePoints).toBe(before);
    expect(await rowOf(target.userId)).toMatchObject({ status: 'ACTIVE', blockedAt: null });
    expect((await target.browser.call('GET', '/users/me')).body.code).toBe(0);
    await expect(runAdminCommand(t.ctx, { command: 'tasks cancel', email: 'nobody@example.com' })).rejects.toMatchObject({
      key: 'validation',
    });
    await expectConsistent(t.ctx.db);
  });
});
