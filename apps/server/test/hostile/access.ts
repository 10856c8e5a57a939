// 6. Who may call: without the `client: WEB` header, from a foreign Origin or Referer (state-changing calls),
// signed out, and as a member who has not activated the account (`active` calls). Each refusal is checked
// against the error table in the caller's language: English, Chinese when signed out, Portuguese when inactive.
import { ERRORS } from '@reelsmith/contract';
import { describe, expect, it } from 'vitest';
import { Browser } from '../support/app.js';
import { type Arena, bodySample, querySample } from './support/arena.js';
import { API_CALLS, type ApiCall, isStateChanging, labelOf } from './support/calls.js';
import type { Attack, NamedAttack } from './support/campaign.js';

const CATEGORY = 'access';

/** A request the call's schemas accept, so only access can refuse it. */
const validRequest = (api: ApiCall): Attack => ({
  query: querySample(api),
  ...(api.call.method === 'POST' && { body: bodySample(api) }),
});

/** The health probe is for load balancers and monitors: it needs no client header by design. */
const PROBES = new Set(['health']);

function headerAttacks(api: ApiCall): NamedAttack[] {
  if (PROBES.has(api.name)) return [];
  const request = validRequest(api);
  const refused = { codes: [ERRORS.clientHeader.code], key: 'clientHeader', locale: 'en' } as const;
  const attacks: NamedAttack[] = [
    { what: 'no client header', request: { ...request, headers: { client: undefined } }, refusal: refused },
    { what: 'client: APP', request: { ...request, headers: { client: 'APP' } }, refusal: refused },
  ];
  if (!isStateChanging(api)) return attacks;
  const forbidden = { codes: [ERRORS.forbiddenOrigin.code], key: 'forbiddenOrigin', locale: 'en' } as const;
  const origins: [string, Record<string, string | undefined>][] = [
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['Origin null', { origin: 'null' }],
    ['our host on another scheme', { origin: 'https://127.0.0.1:3000' }],
    ['no Origin and a foreign Referer', { origin: undefined, referer: 'https://evil.example/page' }],
    ['no Origin nor Referer', { origin: undefined }],
    ['an extension not listed', { origin: `chrome-extension://${'a'.repeat(32)}` }],
  ];
  return [...attacks, ...origins.map(([what, headers]) => ({ what, request: { ...request, headers }, refusal: forbidden }))];
}

export function accessAttacks(arena: Arena) {
  describe(CATEGORY, () => {
    for (const api of API_CALLS) {
      it(`${labelOf(api)} checks the client, the origin and the caller`, async () => {
        const { campaign, attacker, inactive, t } = arena;
        await campaign.expectNoChange(CATEGORY, labelOf(api), async () => {
          const refuse = async (browser: Browser, attack: NamedAttack) =>
            campaign.expectRefused(
              CATEGORY,
              await campaign.send(CATEGORY, browser, api, attack.request),
              `${labelOf(api)}, ${attack.what}`,
              attack.refusal,
            );

          for (const attack of headerAttacks(api)) await refuse(attacker, attack);
          if (PROBES.has(api.name)) {
            const probe = await campaign.send(CATEGORY, new Browser(t.app), api, { headers: { client: undefined, origin: undefined } });
            expect(probe.body.code).toBe(0);
            campaign.figures.of(CATEGORY).answered++;
            campaign.figures.note(CATEGORY, 'probe answered without client header');
          }
          if (api.call.access === 'public') return;
          const signedOut = { codes: [ERRORS.unauthenticated.code], key: 'unauthenticated', locale: 'zh' } as const;
          await refuse(new Browser(t.app, 'zh-CN'), { what: 'signed out', request: validRequest(api), refusal: signedOut });
          if (api.call.access === 'active') {
            const notActive = { codes: [ERRORS.notActive.code], key: 'notActive', locale: 'pt' } as const;
            await refuse(inactive, { what: 'inactive member', request: validRequest(api), refusal: notActive });
          } else {
            campaign.figures.note(CATEGORY, 'open to inactive members by design');
          }
        });
      });
    }
  });
}
