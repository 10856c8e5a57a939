// Who a sign-in is (decision "Identity: issuer and subject"): a user is keyed by the OpenID issuer and subject; an
// unverified e-mail never creates, claims or links an account; linking by e-mail needs it verified on both sides and
// signs the user out everywhere else; dev sign-in never enters an account that signs in with Google. Against real
// OpenID providers.
import { ERRORS } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, users } from '../src/db/schema.js';
import { runAdminCommand } from '../src/modules/admin/commands.js';
import { createInviteCodes } from '../src/modules/invites/service.js';
import { appOn, Browser, testApp } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { oidcProvider, refusedBecause, SESSION_COOKIE, SIGNED_IN } from './support/oidc.js';

describe.each(testDatabases())('identity: who a sign-in is, on $name', (testDb) => {
  const google = oidcProvider();
  /** Another issuer whose subjects may equal Google's: the same subject there is someone else. */
  const elsewhere = oidcProvider();
  // Dev sign-in on beside Google (allowed outside production), so the two ways in can be played against each other.
  const t = appOn(testDb, () => ({ ...google.env(), DEV_LOGIN: 'true' }));

  const rowsWithEmail = (email: string) => t.ctx.db.select().from(users).where(eq(users.email, email));
  const sessionsOf = async (userId: string) => (await t.ctx.db.select().from(sessions).where(eq(sessions.userId, userId))).length;
  const me = (browser: Browser) => browser.call('GET', '/users/me');

  async function activate(browser: Browser) {
    const [code] = await createInviteCodes(t.ctx.db, { count: 1, maxUses: 1 });
    expect(await browser.ok('POST', '/users/activate', { query: { inviteCode: code as string } })).toBe(true);
  }

  /** The same database served by an app whose Google sign-in goes to the other issuer; closed by `use`'s end. */
  async function withElsewhereApp<T>(use: (app: Awaited<ReturnType<typeof testApp>>['app']) => Promise<T>): Promise<T> {
    const other = await testApp(t.database.db, elsewhere.env());
    try {
      return await use(other.app);
    } finally {
      await other.app.close();
    }
  }

  it('M1: an unverified e-mail claims nothing, and the attacker cannot read what the real owner makes', async () => {
    // The attacker's issuer vouches for the victim's address without having verified it.
    const attacker = new Browser(t.app);
    const attackerBack = await google.signIn(t.app, attacker, { sub: 'attacker-A', email: 'victim@corp.example', email_verified: false });
    // Later the real owner signs in with their own, verified account, activates and makes a project.
    const victim = new Browser(t.app);
    const victimBack = await google.signIn(t.app, victim, { sub: 'victim-B', email: 'Victim@corp.example', email_verified: true });
    await activate(victim);
    const { projectId } = (await victim.ok('POST', '/project/createProject', { body: { projectName: 'Spring launch' } })) as {
      projectId: string;
    };

    // Whatever the attacker's browser holds reads nothing of the victim's.
    const stolen = await attacker.call('POST', '/project/getProjects', { body: { page: 1, pageSize: 20 } });
    expect(JSON.stringify(stolen.body)).not.toContain(projectId);
    expect(stolen.body.code).toBe(ERRORS.unauthenticated.code);
    expect((await me(attacker)).body.code).toBe(ERRORS.unauthenticated.code);
    // The attacker was refused with the reason, and got no session; the victim's account is the victim's alone.
    expect(attackerBack).toBe(refusedBecause('emailNotVerified'));
    expect(attacker.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(victimBack).toBe(SIGNED_IN);
    const [row] = await rowsWithEmail('victim@corp.example');
    expect(row).toMatchObject({ oidcIssuer: google.issuer, oidcSubject: 'victim-B', emailVerified: true, status: 'ACTIVE' });
    expect(await sessionsOf(row?.id as string)).toBe(1);
  });

  it('an unverified e-mail of nobody’s creates no account either', async () => {
    const browser = new Browser(t.app);
    const back = await google.signIn(t.app, browser, { sub: 'unverified-1', email: 'fresh@corp.example', email_verified: false });
    expect(back).toBe(refusedBecause('emailNotVerified'));
    // A token that says nothing about verification is no better.
    const silent = await google.signIn(t.app, browser, { sub: 'unverified-2', email: 'fresh@corp.example' });
    expect(silent).toBe(refusedBecause('emailNotVerified'));
    expect(await rowsWithEmail('fresh@corp.example')).toEqual([]);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('a user is keyed by issuer and subject: the same subject from another issuer is someone else', async () => {
    const first = new Browser(t.app);
    expect(await google.signIn(t.app, first, { sub: 'shared-sub', email: 'first@corp.example', email_verified: true })).toBe(SIGNED_IN);
    const { userId } = (await first.ok('GET', '/users/me')) as { userId: string };
    await withElsewhereApp(async (app) => {
      const second = new Browser(app);
      expect(await elsewhere.signIn(app, second, { sub: 'shared-sub', email: 'second@other.example', email_verified: true })).toBe(
        SIGNED_IN,
      );
      const other = (await second.ok('GET', '/users/me')) as { userId: string; email: string };
      expect(other.userId).not.toBe(userId);
      expect(other.email).toBe('second@other.example');
    });
    expect(await first.ok('GET', '/users/me')).toMatchObject({ userId, email: 'first@corp.example' });
  });

  it('an identity signs in even when its e-mail is no longer said to be verified; the account is not changed by it', async () => {
    const browser = new Browser(t.app);
    await google.signIn(t.app, browser, { sub: 'keeps-1', email: 'keeps@corp.example', email_verified: true });
    const again = new Browser(t.app);
    const back = await google.signIn(t.app, again, { sub: 'keeps-1', email: 'someone-else@corp.example', email_verified: false });
    expect(back).toBe(SIGNED_IN);
    expect(await again.ok('GET', '/users/me')).toMatchObject({ email: 'keeps@corp.example' });
    expect(await rowsWithEmail('someone-else@corp.example')).toEqual([]);
  });

  it('linking by e-mail needs it verified on both sides, and signs the user out everywhere else', async () => {
    const laptop = new Browser(t.app);
    expect(await google.signIn(t.app, laptop, { sub: 'owner-1', email: 'owner@corp.example', email_verified: true })).toBe(SIGNED_IN);
    const phone = new Browser(t.app);
    await google.signIn(t.app, phone, { sub: 'owner-1', email: 'owner@corp.example', email_verified: true });
    await activate(laptop);
    const { userId } = (await laptop.ok('GET', '/users/me')) as { userId: string };

    // The address now belongs to another account at the provider (one deleted and made again). Unverified:
    // refused, and the user's sessions are untouched.
    const unverified = new Browser(t.app);
    const refused = await google.signIn(t.app, unverified, { sub: 'owner-2', email: 'owner@corp.example', email_verified: false });
    expect(refused).toBe(refusedBecause('emailNotVerified'));
    expect(await sessionsOf(userId)).toBe(2);
    // Verified: the same user, and every other session of it is gone.
    const desk = new Browser(t.app);
    expect(await google.signIn(t.app, desk, { sub: 'owner-2', email: 'owner@corp.example', email_verified: true })).toBe(SIGNED_IN);
    expect(await desk.ok('GET', '/users/me')).toMatchObject({ userId, status: 'ACTIVE' });
    for (const browser of [laptop, phone]) expect((await me(browser)).body.code).toBe(ERRORS.unauthenticated.code);
    expect(await sessionsOf(userId)).toBe(1);
    const [row] = await rowsWithEmail('owner@corp.example');
    expect(row).toMatchObject({ oidcIssuer: google.issuer, oidcSubject: 'owner-2', emailVerified: true });
  });

  it('an account whose e-mail was never verified (dev sign-in) is not joined to a Google account', async () => {
    const dev = new Browser(t.app);
    const made = await dev.devLogin('devmade@corp.example');
    const browser = new Browser(t.app, 'zh');
    const back = await google.signIn(t.app, browser, { sub: 'g-devmade', email: 'devmade@corp.example', email_verified: true });
    expect(back).toBe(refusedBecause('identityConflict'));
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
    const [row] = await rowsWithEmail('devmade@corp.example');
    expect(row).toMatchObject({ id: made.userId, oidcIssuer: null, oidcSubject: null, emailVerified: false });
    expect(await dev.ok('GET', '/users/me')).toMatchObject({ userId: made.userId });
  });

  it('dev sign-in cannot enter an account that signs in with Google', async () => {
    const owner = new Browser(t.app);
    await google.signIn(t.app, owner, { sub: 'g-linked', email: 'linked@corp.example', email_verified: true });
    for (const [locale, email] of [
      ['en', 'linked@corp.example'],
      ['pt-BR', 'Linked@Corp.Example'],
    ] as const) {
      const intruder = new Browser(t.app, locale);
      const answer = await intruder.call('POST', '/auth/dev-login', { body: { email } });
      expect(answer.body).toEqual({
        code: ERRORS.googleAccountOnly.code,
        message: ERRORS.googleAccountOnly[locale === 'en' ? 'en' : 'pt'],
        data: null,
      });
      expect(intruder.cookies.has(SESSION_COOKIE)).toBe(false);
    }
    const [row] = await rowsWithEmail('linked@corp.example');
    expect(await sessionsOf(row?.id as string)).toBe(1);
  });

  it('an operator-blocked user is turned away by Google with the reason', async () => {
    const browser = new Browser(t.app);
    await google.signIn(t.app, browser, { sub: 'g-blocked', email: 'blocked@corp.example', email_verified: true });
    await runAdminCommand(t.ctx, { command: 'users status', email: 'blocked@corp.example', status: 'INACTIVE' });
    expect((await me(browser)).body.code).toBe(ERRORS.unauthenticated.code);
    const again = new Browser(t.app);
    expect(await google.signIn(t.app, again, { sub: 'g-blocked', email: 'blocked@corp.example', email_verified: true })).toBe(
      refusedBecause('accountBlocked'),
    );
    expect(again.cookies.has(SESSION_COOKIE)).toBe(false);
    await runAdminCommand(t.ctx, { command: 'users status', email: 'blocked@corp.example', status: 'ACTIVE' });
    expect(await google.signIn(t.app, again, { sub: 'g-blocked', email: 'blocked@corp.example', email_verified: true })).toBe(SIGNED_IN);
    expect(await again.ok('GET', '/users/me')).toMatchObject({ status: 'ACTIVE' });
  });

  it('a user from before issuers were kept (a subject alone) is found by its subject at the configured issuer', async () => {
    const [legacy] = await t.ctx.db
      .insert(users)
      .values({ id: 'legacy-user', email: 'legacy@corp.example', username: 'legacy', status: 'ACTIVE', oidcSubject: 'legacy-sub' })
      .returning();
    expect(legacy).toMatchObject({ oidcIssuer: null, emailVerified: false });
    const browser = new Browser(t.app);
    expect(await google.signIn(t.app, browser, { sub: 'legacy-sub', email: 'legacy@corp.example', email_verified: true })).toBe(SIGNED_IN);
    expect(await browser.ok('GET', '/users/me')).toMatchObject({ userId: 'legacy-user', status: 'ACTIVE' });
    const [row] = await rowsWithEmail('legacy@corp.example');
    expect(row).toMatchObject({ oidcIssuer: google.issuer, oidcSubject: 'legacy-sub', emailVerified: true });
  });
});
