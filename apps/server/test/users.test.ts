import { createHash } from 'node:crypto';
import { ERRORS } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { inviteCodes, inviteRedemptions, sessions, users } from '../src/db/schema.js';
import { runAdminCommand } from '../src/modules/admin/commands.js';
import { createInviteCodes } from '../src/modules/invites/service.js';
import { appOn, Browser, testApp } from './support/app.js';
import { testDatabases } from './support/databases.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe.each(testDatabases())('sign-in, sessions and activation on $name', (testDb) => {
  const t = appOn(testDb);

  const newCode = async (maxUses = 1, expiresDays?: number) =>
    (await createInviteCodes(t.ctx.db, { count: 1, maxUses, expiresDays }))[0] as string;
  const usesOf = async (code: string) => (await t.ctx.db.select().from(inviteCodes).where(eq(inviteCodes.code, code)))[0]?.uses;
  const activate = (b: Browser, inviteCode: string) => b.call('POST', '/users/activate', { query: { inviteCode } });

  describe('dev sign-in', () => {
    it('is offered when Google is not configured', async () => {
      expect(await new Browser(t.app).ok('GET', '/auth/config')).toEqual({ google: false, devLogin: true });
    });

    it('creates an INACTIVE user named after the e-mail, and sets an httpOnly Lax session cookie', async () => {
      const browser = new Browser(t.app);
      const res = await browser.call('POST', '/auth/dev-login', { body: { email: 'Maria.Silva@Example.com' } });
      expect(res.body.data).toEqual({
        userId: expect.any(String),
        username: 'maria.silva',
        email: 'maria.silva@example.com',
        avatarUrl: null,
        status: 'INACTIVE',
      });
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/^reelsmith_session=[\w-]{43};/);
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');
      expect(cookie).toContain('Path=/');
      expect(cookie).not.toContain('Secure');
      expect(await browser.ok('GET', '/users/me')).toEqual(res.body.data);
    });

    it('signs the same person in again, whatever the letter case', async () => {
      const first = await new Browser(t.app).devLogin('returning@example.com', 'Ret');
      const again = await new Browser(t.app).devLogin('RETURNING@example.com');
      expect(again).toEqual(first);
      expect((await t.ctx.db.select().from(users).where(eq(users.email, 'returning@example.com'))).length).toBe(1);
    });

    it('answers 404 when DEV_LOGIN is off', async () => {
      const off = await testApp(t.database.db, { DEV_LOGIN: 'false' });
      const browser = new Browser(off.app);
      const res = await browser.call('POST', '/auth/dev-login', { body: { email: 'nobody@example.com' } });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 404, data: null });
      expect(await browser.ok('GET', '/auth/config')).toEqual({ google: false, devLogin: false });
      await off.app.close();
    });
  });

  describe('sessions', () => {
    it('keeps only the SHA-256 of the token in the database', async () => {
      const browser = new Browser(t.app);
      const user = await browser.devLogin('hashed@example.com');
      const token = browser.cookies.get('reelsmith_session') as string;
      const rows = await t.ctx.db.select().from(sessions).where(eq(sessions.userId, user.userId));
      expect(rows.map((r) => r.tokenHash)).toEqual([sha256(token)]);
      const days = ((rows[0]?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
    });

    it('ends with logout: the cookie is cleared and the old token no longer works', async () => {
      const browser = new Browser(t.app);
      const user = await browser.devLogin('leaving@example.com');
      const token = browser.cookies.get('reelsmith_session') as string;
      await browser.ok('GET', '/users/me');
      const out = await browser.call('POST', '/users/logout');
      expect(out.body).toEqual({ code: 0, message: 'ok', data: true });
      expect(String(out.headers['set-cookie'])).toMatch(/^reelsmith_session=;/);
      expect((await browser.call('GET', '/users/me')).body.code).toBe(401);
      const replay = new Browser(t.app);
      replay.cookies.set('reelsmith_session', token);
      expect((await replay.call('GET', '/users/me')).body.code).toBe(401);
      expect(await t.ctx.db.select().from(sessions).where(eq(sessions.userId, user.userId))).toEqual([]);
    });

    it('the session call answers who is signed in, and null with a 200 when nobody is (signed out is not an error)', async () => {
      const visitor = new Browser(t.app);
      const signedOut = await visitor.call('GET', '/auth/session');
      expect([signedOut.status, signedOut.body]).toEqual([200, { code: 0, message: 'ok', data: null }]);
      const user = await visitor.devLogin('session@example.com');
      expect(await visitor.ok('GET', '/auth/session')).toMatchObject({
        userId: user.userId,
        email: 'session@example.com',
        status: 'INACTIVE',
      });
      await visitor.ok('POST', '/users/logout');
      expect(await visitor.ok('GET', '/auth/session')).toBeNull();
    });

    it('logout works signed out too', async () => {
      expect(await new Browser(t.app).ok('POST', '/users/logout')).toBe(true);
    });

    it('treats unknown and malformed tokens as signed out', async () => {
      for (const token of ['x'.repeat(43), 'short', '']) {
        const browser = new Browser(t.app);
        browser.cookies.set('reelsmith_session', token);
        expect((await browser.call('GET', '/users/me')).body.code).toBe(401);
      }
    });

    it('caches the session briefly, and a status change in this process is seen at once', async () => {
      const browser = new Browser(t.app);
      const user = await browser.devLogin('cached@example.com');
      expect(await browser.ok('GET', '/users/me')).toMatchObject({ status: 'INACTIVE' });
      // Written behind the service's back: the cached session still answers for a few seconds.
      await t.ctx.db.update(users).set({ username: 'changed-directly' }).where(eq(users.id, user.userId));
      expect(await browser.ok('GET', '/users/me')).toMatchObject({ username: 'cached' });
      // Through the service (as the admin CLI does): the cache entry is dropped.
      await runAdminCommand(t.ctx, { command: 'users status', email: 'cached@example.com', status: 'ACTIVE' });
      expect(await browser.ok('GET', '/users/me')).toMatchObject({ username: 'changed-directly', status: 'ACTIVE' });
      // The operator's INACTIVE is a block that signs the user out (operator-block.test.ts): seen at once too.
      await runAdminCommand(t.ctx, { command: 'users status', email: 'cached@example.com', status: 'INACTIVE' });
      expect((await browser.call('GET', '/users/me')).body.code).toBe(ERRORS.unauthenticated.code);
    });
  });

  describe('activation', () => {
    it('needs a signed-in user', async () => {
      expect((await activate(new Browser(t.app), 'ANYTHING')).body.code).toBe(401);
    });

    it('an empty or blank code answers emptyInviteCode', async () => {
      const browser = new Browser(t.app, 'zh');
      await browser.devLogin('blank@example.com');
      for (const code of ['', '   ']) {
        expect((await activate(browser, code)).body).toEqual({
          code: ERRORS.emptyInviteCode.code,
          message: ERRORS.emptyInviteCode.zh,
          data: null,
        });
      }
      const missing = await browser.call('POST', '/users/activate');
      expect(missing.body.code).toBe(ERRORS.emptyInviteCode.code);
    });

    it('a wrong, used-up or expired code answers false and leaves the user INACTIVE', async () => {
      const browser = new Browser(t.app);
      await browser.devLogin('unlucky@example.com');
      const usedUp = await newCode(1);
      await t.ctx.db.update(inviteCodes).set({ uses: 1 }).where(eq(inviteCodes.code, usedUp));
      const expired = await newCode(5);
      await t.ctx.db
        .update(inviteCodes)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(inviteCodes.code, expired));
      for (const code of ['NOT-A-REAL-CODE', usedUp, expired]) {
        expect((await activate(browser, code)).body).toEqual({ code: 0, message: 'ok', data: false });
      }
      expect(await usesOf(expired)).toBe(0);
      expect(await browser.ok('GET', '/users/me')).toMatchObject({ status: 'INACTIVE' });
    });

    it('a valid code activates the user, counts a use and records the redemption', async () => {
      const browser = new Browser(t.app);
      const user = await browser.devLogin('welcome@example.com');
      const code = await newCode(3, 7);
      await browser.ok('GET', '/users/me');
      // Typed in lower case with spaces around it: still the code.
      expect((await activate(browser, `  ${code.toLowerCase()} `)).body).toEqual({ code: 0, message: 'ok', data: true });
      expect(await browser.ok('GET', '/users/me')).toMatchObject({ status: 'ACTIVE' });
      expect(await usesOf(code)).toBe(1);
      const redemptions = await t.ctx.db.select().from(inviteRedemptions).where(eq(inviteRedemptions.userId, user.userId));
      expect(redemptions).toEqual([{ id: expect.any(String), code, userId: user.userId, at: expect.any(Date) }]);
    });

    it('an active user activating again answers true without using a code', async () => {
      const browser = new Browser(t.app);
      await browser.devLogin('twice@example.com');
      const first = await newCode(1);
      const second = await newCode(1);
      expect((await activate(browser, first)).body.data).toBe(true);
      expect((await activate(browser, second)).body.data).toBe(true);
      expect(await usesOf(second)).toBe(0);
    });

    it('five users racing for a one-use code: exactly one wins', async () => {
      const code = await newCode(1);
      const browsers = Array.from({ length: 5 }, () => new Browser(t.app));
      await Promise.all(browsers.map((b, i) => b.devLogin(`racer${i}@example.com`)));
      const results = await Promise.all(browsers.map(async (b) => (await activate(b, code)).body));
      expect(results.every((r) => r.code === 0)).toBe(true);
      expect(results.filter((r) => r.data === true)).toHaveLength(1);
      expect(await usesOf(code)).toBe(1);
      expect(await t.ctx.db.select().from(inviteRedemptions).where(eq(inviteRedemptions.code, code))).toHaveLength(1);
      const statuses = await Promise.all(browsers.map(async (b) => ((await b.ok('GET', '/users/me')) as { status: string }).status));
      expect(statuses.filter((s) => s === 'ACTIVE')).toHaveLength(1);
    });

    it('one user racing with five codes uses only one of them', async () => {
      const browser = new Browser(t.app);
      await browser.devLogin('greedy@example.com');
      const codes = await Promise.all(Array.from({ length: 5 }, () => newCode(1)));
      const results = await Promise.all(codes.map(async (code) => (await activate(browser, code)).body.data));
      expect(results).toEqual([true, true, true, true, true]);
      const uses = await Promise.all(codes.map(usesOf));
      expect(uses.reduce((a, b) => (a ?? 0) + (b ?? 0), 0)).toBe(1);
    });
  });
});
