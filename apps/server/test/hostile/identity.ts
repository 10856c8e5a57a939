// Identity (decisions "Identity: issuer and subject" and "An operator's block"): who a sign-in is, and whether an
// operator's block holds. Google sign-in goes through a real OpenID provider, so this has an app of its own (Google,
// with dev sign-in on beside it to play the two ways in against each other). Pre-hijack by an unverified e-mail, a
// subject replayed from another issuer, dev sign-in into a Google account and back; then a blocked user with every
// session they had (and one a sign-in made while the block committed) trying every call, activation with a referral
// code, and signing in again. Each is refused with a clear error and changes nothing; an answer carrying the victim's
// data counts as a leak.
import type { Locale } from '@reelsmith/contract';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/modules/admin/commands.js';
import { createInviteCodes } from '../../src/modules/invites/service.js';
import { appOn, Browser, testApp } from '../support/app.js';
import type { TestDatabase } from '../support/databases.js';
import { type Claims, oidcProvider, refusedBecause, SESSION_COOKIE, SIGNED_IN } from '../support/oidc.js';
import { API_CALLS, type ApiCall } from './support/calls.js';
import { Campaign } from './support/campaign.js';
import type { Figures } from './support/figures.js';

const CATEGORY = 'identity';
const CALLBACK = 'GET /auth/google/callback';
const UNLIMITED = { AUTH_RATE_LIMIT_PER_MINUTE: '1000000', ACTIVATE_RATE_LIMIT: '1000000' };
const LOCALES: Array<[string, Locale]> = [
  ['en', 'en'],
  ['zh-CN', 'zh'],
  ['pt-BR', 'pt'],
];

const callNamed = (name: string) => API_CALLS.find((api) => api.name === name) as ApiCall;

export function identityAttacks(testDb: TestDatabase, figures: Figures) {
  describe(CATEGORY, () => {
    const google = oidcProvider();
    const elsewhere = oidcProvider();
    const t = appOn(testDb, () => ({ ...google.env(), ...UNLIMITED, DEV_LOGIN: 'true' }));
    let campaign: Campaign;
    beforeAll(() => {
      campaign = new Campaign(t, figures);
    });
    const counted = () => figures.of(CATEGORY);

    /** A Google sign-in as an attack: it must come back refused for `reason`, with no session. */
    async function refusedSignIn(app: FastifyInstance, provider: typeof google, claims: Claims, reason: string, what: string) {
      counted().calls.add(CALLBACK);
      counted().requests++;
      const browser = new Browser(app);
      expect(await provider.signIn(app, browser, claims), what).toBe(refusedBecause(reason));
      expect(browser.cookies.has(SESSION_COOKIE), what).toBe(false);
      counted().answered++;
      return browser;
    }

    async function member(email: string, claims?: Claims) {
      const browser = new Browser(t.app);
      if (claims) expect(await google.signIn(t.app, browser, claims)).toBe(SIGNED_IN);
      else await browser.devLogin(email);
      const [code] = await createInviteCodes(t.ctx.db, { count: 1, maxUses: 1 });
      expect(await browser.ok('POST', '/users/activate', { query: { inviteCode: code as string } })).toBe(true);
      const { userId } = (await browser.ok('GET', '/users/me')) as { userId: string };
      return { browser, userId };
    }

    it('an unverified e-mail creates, claims and links nothing, before or after the owner signs in (pre-hijack)', async () => {
      const attackers: Browser[] = [];
      await campaign.expectNoChange(CATEGORY, 'unverified e-mails before the owner', async () => {
        for (const [what, claims] of [
          ['the owner’s address, unverified', { sub: 'attacker-A', email: 'ceo@corp.example', email_verified: false }],
          ['the owner’s address, verification not stated', { sub: 'attacker-A1', email: 'ceo@corp.example' }],
        ] as const) {
          attackers.push(await refusedSignIn(t.app, google, claims, 'emailNotVerified', what));
        }
      });
      const owner = await member('ceo@corp.example', { sub: 'owner-B', email: 'CEO@corp.example', email_verified: true });
      const { projectId } = (await owner.browser.ok('POST', '/project/createProject', { body: { projectName: 'Board deck' } })) as {
        projectId: string;
      };
      await campaign.expectNoChange(CATEGORY, 'unverified e-mails after the owner', async () => {
        for (const [what, claims] of [
          ['the owner’s address, unverified', { sub: 'attacker-A2', email: 'ceo@corp.example', email_verified: false }],
          ['the owner’s address in capitals, unverified', { sub: 'attacker-A3', email: 'CEO@CORP.EXAMPLE', email_verified: false }],
        ] as const) {
          attackers.push(await refusedSignIn(t.app, google, claims, 'emailNotVerified', what));
        }
        // Whatever the attackers' browsers hold reads nothing of the owner's.
        for (const attacker of attackers) {
          for (const api of [callNamed('projectList'), callNamed('usersMe')]) {
            const answer = await campaign.send(CATEGORY, attacker, api, api.call.body ? { body: { page: 1, pageSize: 20 } } : {});
            if (JSON.stringify(answer.body).includes(projectId)) counted().leaks++;
            campaign.expectRefused(CATEGORY, answer, `${api.name} by a refused attacker`, { key: 'unauthenticated', locale: 'en' });
          }
        }
      });
    });

    it('the same subject from another issuer is someone else', async () => {
      const first = await member('first@corp.example', { sub: 'shared-sub', email: 'first@corp.example', email_verified: true });
      const other = await testApp(t.database.db, { ...elsewhere.env(), ...UNLIMITED });
      try {
        counted().calls.add(CALLBACK);
        counted().requests++;
        const browser = new Browser(other.app);
        expect(await elsewhere.signIn(other.app, browser, { sub: 'shared-sub', email: 'x@other.example', email_verified: true })).toBe(
          SIGNED_IN,
        );
        const signedIn = (await browser.ok('GET', '/users/me')) as { userId: string };
        if (signedIn.userId === first.userId) counted().leaks++;
        expect(signedIn.userId).not.toBe(first.userId);
        counted().answered++;
      } finally {
        await other.app.close();
      }
    });

    it('dev sign-in does not enter a Google account, and Google does not join an account of dev sign-in', async () => {
      await member('google-owner@corp.example', { sub: 'g-owner', email: 'google-owner@corp.example', email_verified: true });
      await new Browser(t.app).devLogin('dev-made@corp.example');
      await campaign.expectNoChange(CATEGORY, 'crossing the two ways in', async () => {
        for (const [acceptLanguage, locale] of LOCALES) {
          for (const email of ['google-owner@corp.example', 'Google-Owner@Corp.Example']) {
            const browser = new Browser(t.app, acceptLanguage);
            const answer = await campaign.send(CATEGORY, browser, callNamed('authDevLogin'), { body: { email } });
            campaign.expectRefused(CATEGORY, answer, `dev sign-in as ${email}`, { key: 'googleAccountOnly', locale });
            expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
          }
        }
        const claims = { sub: 'g-dev-made', email: 'dev-made@corp.example', email_verified: true };
        await refusedSignIn(t.app, google, claims, 'identityConflict', 'Google into an account of dev sign-in');
      });
    });

    it('an operator’s block holds: every session it ended, activation with any code and signing in again are refused', async () => {
      const inviter = await member('inviter@corp.example');
      const referralCode = ((await inviter.browser.ok('GET', '/referral/info')) as { inviteCode: string }).inviteCode;
      const blocked = await member('blocked@corp.example', { sub: 'g-blocked', email: 'blocked@corp.example', email_verified: true });
      const ownCode = ((await blocked.browser.ok('GET', '/referral/info')) as { inviteCode: string }).inviteCode;
      const elsewhereBrowser = new Browser(t.app);
      expect(await google.signIn(t.app, elsewhereBrowser, { sub: 'g-blocked', email: 'blocked@corp.example', email_verified: true })).toBe(
        SIGNED_IN,
      );
      const [operatorCode] = await createInviteCodes(t.ctx.db, { count: 1, maxUses: 5 });
      await runAdminCommand(t.ctx, { command: 'users status', email: 'blocked@corp.example', status: 'INACTIVE' });
      // A sign-in that read the user just before the block committed inserts its session just after.
      const late = new Browser(t.app);
      late.cookies.set(SESSION_COOKIE, (await t.ctx.sessions.create(blocked.userId)).token);

      const needsUser = API_CALLS.filter((api) => api.call.access !== 'public');
      const signedOut = { key: 'unauthenticated', locale: 'en' } as const;
      await campaign.expectNoChange(CATEGORY, 'a blocked user', async () => {
        for (const browser of [blocked.browser, elsewhereBrowser, late]) {
          for (const inviteCode of [referralCode, ownCode, operatorCode as string]) {
            const answer = await campaign.send(CATEGORY, browser, callNamed('usersActivate'), { query: { inviteCode } });
            campaign.expectRefused(CATEGORY, answer, 'activation by a blocked user', signedOut);
          }
          for (const api of needsUser) {
            campaign.expectRefused(CATEGORY, await campaign.send(CATEGORY, browser, api), `${api.name} by a blocked user`, signedOut);
          }
        }
        for (const [acceptLanguage, locale] of LOCALES) {
          const browser = new Browser(t.app, acceptLanguage);
          const answer = await campaign.send(CATEGORY, browser, callNamed('authDevLogin'), { body: { email: 'blocked@corp.example' } });
          campaign.expectRefused(CATEGORY, answer, 'dev sign-in of a blocked user', { key: 'accountBlocked', locale });
        }
        const claims = { sub: 'g-blocked', email: 'blocked@corp.example', email_verified: true };
        await refusedSignIn(t.app, google, claims, 'accountBlocked', 'Google sign-in of a blocked user');
      });
      figures.note(CATEGORY, 'calls refused to a blocked user’s sessions', needsUser.length * 3);
    });
  });
}
