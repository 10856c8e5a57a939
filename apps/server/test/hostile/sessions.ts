// 9. Sessions: a session cookie planted before sign-in is never adopted (sign-in issues a token of its own), a
// signed-out token is refused by every call, and a token acts only as its own user: not as the user who later
// signs in on the same browser, not when altered.
import { randomBytes } from 'node:crypto';
import { ERRORS } from '@reelsmith/contract';
import { describe, expect, it } from 'vitest';
import { Browser } from '../support/app.js';
import type { Arena } from './support/arena.js';
import { API_CALLS, type ApiCall } from './support/calls.js';

const CATEGORY = 'sessions';
const COOKIE = 'reelsmith_session';

const callNamed = (name: string) => API_CALLS.find((api) => api.name === name) as ApiCall;

/** A browser that holds only this session token. */
function holding(arena: Arena, token: string): Browser {
  const browser = new Browser(arena.t.app);
  browser.cookies.set(COOKIE, token);
  return browser;
}

export function sessionAttacks(arena: Arena) {
  describe(CATEGORY, () => {
    const me = callNamed('usersMe');
    const signedOut = { codes: [ERRORS.unauthenticated.code], key: 'unauthenticated', locale: 'en' } as const;

    it('does not adopt a session cookie planted before sign-in', async () => {
      const { campaign } = arena;
      const planted = randomBytes(32).toString('base64url');
      const browser = holding(arena, planted);
      const { userId } = await browser.devLogin('fixated@example.com');
      const issued = browser.cookies.get(COOKIE);
      expect(issued).toBeDefined();
      expect(issued).not.toBe(planted);
      expect((await campaign.send(CATEGORY, browser, me)).body.data).toMatchObject({ userId });
      campaign.figures.of(CATEGORY).answered++;
      const answer = await campaign.send(CATEGORY, holding(arena, planted), me);
      campaign.expectRefused(CATEGORY, answer, 'the planted token after sign-in', signedOut);
    });

    it('a token planted from another user stays that user’s; the one who signs in gets a new one', async () => {
      const { campaign } = arena;
      const planter = new Browser(arena.t.app);
      const { userId: planterId } = await planter.devLogin('planter@example.com');
      const token = planter.cookies.get(COOKIE) as string;
      const victim = holding(arena, token);
      const { userId: victimId } = await victim.devLogin('planted-on@example.com');
      expect(victim.cookies.get(COOKIE)).not.toBe(token);
      for (const [browser, userId] of [
        [holding(arena, token), planterId],
        [victim, victimId],
      ] as const) {
        expect((await campaign.send(CATEGORY, browser, me)).body.data).toMatchObject({ userId });
        campaign.figures.of(CATEGORY).answered++;
      }
    });

    it('after sign-out the old token is refused by every call that needs a user, and no new sign-in revives it', async () => {
      const { campaign } = arena;
      const browser = new Browser(arena.t.app);
      await browser.devLogin('signs-out@example.com');
      const other = new Browser(arena.t.app);
      const { userId } = await other.devLogin('signs-out@example.com');
      const token = browser.cookies.get(COOKIE) as string;
      const logout = await campaign.send(CATEGORY, browser, callNamed('usersLogout'));
      expect(logout.body).toMatchObject({ code: 0, data: true });
      expect(browser.cookies.has(COOKIE)).toBe(false);
      campaign.figures.of(CATEGORY).answered++;
      const needsUser = API_CALLS.filter((api) => api.call.access !== 'public');
      await campaign.expectNoChange(CATEGORY, 'calls with a signed-out token', async () => {
        for (const api of needsUser) {
          const answer = await campaign.send(CATEGORY, holding(arena, token), api);
          campaign.expectRefused(CATEGORY, answer, `${api.name} with a signed-out token`, signedOut);
        }
      });
      campaign.figures.note(CATEGORY, 'calls refused after sign-out', needsUser.length);
      // The same user's other browser keeps its own session.
      expect((await campaign.send(CATEGORY, other, me)).body.data).toMatchObject({ userId });
      await browser.devLogin('signs-out@example.com');
      expect(browser.cookies.get(COOKIE)).not.toBe(token);
      campaign.expectRefused(
        CATEGORY,
        await campaign.send(CATEGORY, holding(arena, token), me),
        'the old token after a new sign-in',
        signedOut,
      );
      campaign.figures.of(CATEGORY).answered++;
    });

    it('a token acts only as its own user, and an altered or foreign-shaped token as nobody', async () => {
      const { campaign } = arena;
      const first = new Browser(arena.t.app);
      const second = new Browser(arena.t.app);
      const one = await first.devLogin('one@example.com');
      const two = await second.devLogin('two@example.com');
      const tokens = [first.cookies.get(COOKIE) as string, second.cookies.get(COOKIE) as string];
      for (const [token, user] of [
        [tokens[0], one],
        [tokens[1], two],
      ] as const) {
        expect((await campaign.send(CATEGORY, holding(arena, token as string), me)).body.data).toMatchObject({ userId: user.userId });
        campaign.figures.of(CATEGORY).answered++;
      }
      const token = tokens[0] as string;
      const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      const forged = [flipped, token.toUpperCase(), `${token}x`, token.slice(1), `' or '1'='1`, `${tokens[1]}.${token}`, ''];
      for (const bad of forged) {
        const answer = await campaign.send(CATEGORY, holding(arena, bad), me);
        campaign.expectRefused(CATEGORY, answer, `token ${JSON.stringify(bad.slice(0, 12))}…`, signedOut);
      }
    });
  });
}
