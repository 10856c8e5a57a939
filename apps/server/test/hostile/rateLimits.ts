// 10. Rate limits, beyond what http.test.ts proves (a 429 envelope for sign-in, invitation codes limited per
// user): sign-in is limited per address and a forged X-Forwarded-For does not move the caller to a fresh count;
// invitation codes follow the user from one address to another, and a right code is refused too while limited;
// each limit ends with its window (the clock moved past it), and limited calls change nothing.
import { ERRORS } from '@reelsmith/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInviteCodes } from '../../src/modules/invites/service.js';
import { Browser, testApp } from '../support/app.js';
import type { Arena } from './support/arena.js';
import { API_CALLS, type ApiCall } from './support/calls.js';
import { Campaign, type Refusal } from './support/campaign.js';

const CATEGORY = 'rate limits';
const SIGN_INS_PER_MINUTE = 3;
const CODE_ATTEMPTS = 2;
/** The invitation code window (users/routes.ts). */
const ACTIVATE_WINDOW_MS = 15 * 60_000;

const callNamed = (name: string) => API_CALLS.find((api) => api.name === name) as ApiCall;

export function rateLimitAttacks(arena: Arena) {
  describe(CATEGORY, () => {
    const limited = {} as { app: FastifyInstance; campaign: Campaign };
    beforeAll(async () => {
      const { app, ctx } = await testApp(arena.t.database.db, {
        AUTH_RATE_LIMIT_PER_MINUTE: String(SIGN_INS_PER_MINUTE),
        ACTIVATE_RATE_LIMIT: String(CODE_ATTEMPTS),
      });
      Object.assign(limited, { app, campaign: new Campaign({ app, ctx }, arena.campaign.figures) });
    });
    afterAll(() => limited.app.close());
    afterEach(() => {
      vi.useRealTimers();
    });

    /** Moves the clock the rate limiter reads (Date) past a window; timers keep real time. */
    const later = (ms: number) => {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ms + 1_000 });
    };
    const tooMany = (locale: 'en' | 'zh' | 'pt'): Refusal => ({ codes: [ERRORS.rateLimited.code], key: 'rateLimited', locale });

    it('limits sign-in per address, not per forwarded header, until the minute is over', async () => {
      const { campaign } = limited;
      const signIn = callNamed('authDevLogin');
      const browser = new Browser(limited.app, 'zh-CN');
      const from = (remoteAddress: string, headers: Record<string, string> = {}) =>
        campaign.send(CATEGORY, browser, signIn, { body: { email: 'counted@example.com' }, remoteAddress, headers });

      for (let i = 0; i < SIGN_INS_PER_MINUTE; i++) expect((await from('203.0.113.7')).body.code).toBe(0);
      campaign.figures.of(CATEGORY).answered += SIGN_INS_PER_MINUTE;
      await campaign.expectNoChange(CATEGORY, 'limited sign-ins', async () => {
        const refused = await from('203.0.113.7');
        campaign.expectRefused(CATEGORY, refused, 'a sign-in past the limit', tooMany('zh'));
        expect(refused.headers['retry-after']).toBeDefined();
        const forged = await from('203.0.113.7', { 'x-forwarded-for': '198.51.100.9' });
        campaign.expectRefused(CATEGORY, forged, 'a sign-in past the limit with a forged X-Forwarded-For', tooMany('zh'));
      });
      expect((await from('203.0.113.8')).body.code, 'another address').toBe(0);
      later(60_000);
      expect((await from('203.0.113.7')).body.code, 'the same address a minute later').toBe(0);
      campaign.figures.of(CATEGORY).answered += 2;
    });

    it('limits invitation codes per user wherever they come from, right codes included, until the window is over', async () => {
      const { campaign } = limited;
      const activate = callNamed('usersActivate');
      const guesser = new Browser(limited.app, 'pt-BR');
      await guesser.devLogin('guesser@example.com');
      const [rightCode] = await createInviteCodes(arena.t.database.db, { count: 1, maxUses: 1 });
      const attempt = (code: string, remoteAddress: string, browser = guesser) =>
        campaign.send(CATEGORY, browser, activate, { query: { inviteCode: code }, remoteAddress });

      for (let i = 0; i < CODE_ATTEMPTS; i++)
        expect((await attempt('WRONG-CODE', '203.0.113.20')).body).toMatchObject({ code: 0, data: false });
      campaign.figures.of(CATEGORY).answered += CODE_ATTEMPTS;
      await campaign.expectNoChange(CATEGORY, 'limited invitation codes', async () => {
        for (const [what, code, address] of [
          ['a wrong code past the limit', 'WRONG-CODE', '203.0.113.20'],
          ['from another address', 'WRONG-CODE', '203.0.113.21'],
          ['a right code past the limit', rightCode as string, '203.0.113.22'],
        ] as const) {
          campaign.expectRefused(CATEGORY, await attempt(code, address), what, tooMany('pt'));
        }
      });
      const other = new Browser(limited.app);
      await other.devLogin('other-guesser@example.com');
      expect((await attempt('WRONG-CODE', '203.0.113.20', other)).body, 'another user at the same address').toMatchObject({ code: 0 });
      later(ACTIVATE_WINDOW_MS);
      expect((await attempt(rightCode as string, '203.0.113.20')).body, 'the right code once the window is over').toMatchObject({
        code: 0,
        data: true,
      });
      campaign.figures.of(CATEGORY).answered += 2;
    });
  });
}
