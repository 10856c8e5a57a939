// 1. Malformed requests: bodies that are not JSON, not of the JSON type, or JSON of the wrong shape, and queries
// that repeat or garble their parameters. A body sent with a GET is ignored, as HTTP has it: the answer is the
// one the same GET gets without it.
import { filePutUrl } from '@reelsmith/contract';
import { describe, expect, it } from 'vitest';
import { type Arena, bodySample, querySample } from './support/arena.js';
import { API_CALLS, type ApiCall, labelOf } from './support/calls.js';
import { type NamedAttack, refuseAll } from './support/campaign.js';

const CATEGORY = 'malformed';
const VALIDATION = [40000];

const json = (payload: string) => ({ payload, contentType: 'application/json' });

function bodyAttacks(api: ApiCall): NamedAttack[] {
  const sample = bodySample(api);
  const attacks: NamedAttack[] = [
    { what: 'broken JSON', request: { raw: json('{"a": ') }, refusal: { codes: VALIDATION, mentions: 'not valid JSON' } },
    { what: 'JSON without a content type', request: { raw: { payload: JSON.stringify(sample) } } },
    { what: 'text/plain', request: { raw: { payload: JSON.stringify(sample), contentType: 'text/plain' } } },
    { what: 'a form', request: { raw: { payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' } } },
    {
      what: 'multipart',
      request: {
        raw: {
          payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
          contentType: 'multipart/form-data; boundary=x',
        },
      },
    },
    { what: 'an XML body', request: { raw: { payload: '<a>1</a>', contentType: 'application/xml' } } },
    { what: 'a content type that does not parse', request: { raw: { payload: JSON.stringify(sample), contentType: 'json, please' } } },
    { what: 'an empty array', request: { body: [] } },
    { what: 'the body inside an array', request: { body: [sample] } },
    { what: 'a JSON string', request: { body: 'text' } },
    { what: 'a JSON number', request: { body: 42 } },
    { what: 'JSON true', request: { body: true } },
  ];
  // An empty body or JSON null is a call without input; refused only where the call needs input.
  if (api.call.body && !api.call.body.safeParse({}).success) {
    attacks.push({ what: 'JSON null', request: { body: null } }, { what: 'an empty JSON body', request: { raw: json('') } });
  }
  return attacks.map((attack) => ({ ...attack, refusal: attack.refusal ?? { codes: VALIDATION } }));
}

function queryAttacks(api: ApiCall): NamedAttack[] {
  const sample = querySample(api);
  const attacks: NamedAttack[] = [
    { what: 'a garbled query', request: { query: `${new URLSearchParams(sample)}&%E0%A4%A=1&[]=x&=&&a[b]=c` } },
  ];
  if (Object.keys(sample).length > 0) {
    const twice = Object.fromEntries(Object.entries(sample).map(([key, value]) => [key, [value, value]]));
    attacks.push({ what: 'every query parameter twice', request: { query: twice } });
  }
  return attacks.map((attack) => ({ ...attack, refusal: { codes: VALIDATION } }));
}

/** GET calls whose valid request stores something every time: a put-url link reserves the upload's room. */
const RESERVES_ON_EVERY_CALL = new Set<string>([filePutUrl.path]);

export function malformedAttacks(arena: Arena) {
  describe(CATEGORY, () => {
    for (const api of API_CALLS) {
      it(`${labelOf(api)} refuses malformed input`, async () => {
        const attacks = [...queryAttacks(api), ...(api.call.method === 'POST' ? bodyAttacks(api) : [])];
        await refuseAll(arena.campaign, CATEGORY, arena.attacker, api, attacks);
      });
    }

    for (const api of API_CALLS.filter((a) => a.call.method === 'GET')) {
      it(`${labelOf(api)} ignores a body`, async () => {
        const { campaign, attacker } = arena;
        const query = querySample(api);
        // Sent first and outside the snapshots: a read may make what it reads the first time (a referral code).
        const plain = await campaign.send(CATEGORY, attacker, api, { query });
        const sendWithBody = async () => {
          const withBody = await campaign.send(CATEGORY, attacker, api, { query, raw: json('{"broken": ') });
          expect(withBody.status).toBe(plain.status);
          expect(withBody.body.code).toBe(plain.body.code);
          campaign.figures.of(CATEGORY).answered += 2;
          campaign.figures.note(CATEGORY, 'GET bodies ignored');
        };
        // An upload link reserves its room in the storage quota each time one is made (decision "Storage quota"):
        // the call with a body must make its link as the plain one did, so no snapshot can stay the same.
        if (RESERVES_ON_EVERY_CALL.has(api.call.path)) await sendWithBody();
        else await campaign.expectNoChange(CATEGORY, labelOf(api), sendWithBody);
      });
    }
  });
}
