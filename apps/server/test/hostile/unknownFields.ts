// 4. Unknown fields: a body the schema accepts plus a field it does not know, at the top and inside every nested
// object, the keys JSON parsers have been fooled with (__proto__, constructor), and unknown query parameters.
// The refusal names the unknown field.
import { describe, it } from 'vitest';
import { type Arena, bodySample, querySample } from './support/arena.js';
import { API_CALLS, type ApiCall, labelOf } from './support/calls.js';
import { type NamedAttack, refuseAll } from './support/campaign.js';
import { fieldAt, fieldsOf, pathText, withField } from './support/schema.js';

const CATEGORY = 'unknown fields';

/** Fields a client might hope the server trusts. */
const TEMPTING = { isAdmin: true, userId: 'someone-else', status: 'ACTIVE' } as const;

function bodyAttacks(api: ApiCall): NamedAttack[] {
  if (api.call.method !== 'POST') return [];
  const sample = bodySample(api);
  const top = Object.entries(TEMPTING)
    .filter(([key]) => !(key in sample))
    .map(([key, value]) => ({
      what: `body with ${key}`,
      request: { body: { ...sample, [key]: value } },
      refusal: { codes: [40000], mentions: key },
    }));
  const nested = fieldsOf(api.call.body)
    .filter((field) => field.kind === 'object')
    .map((field) => ({
      what: `${pathText(field.path)} with extra`,
      request: { body: withField(sample, field.path, { ...(fieldAt(sample, field.path) as object), extra: 1 }) },
      refusal: { codes: [40000], mentions: 'extra' },
    }));
  const json = JSON.stringify(sample).slice(1);
  const pollution = ['{"__proto__": {"isAdmin": true}, ', '{"constructor": {"prototype": {"isAdmin": true}}, '].map((head) => ({
    what: `body with ${head.slice(2, head.indexOf('"', 2))}`,
    request: { raw: { payload: json === '}' ? `${head.slice(0, -2)}}` : head + json, contentType: 'application/json' } },
    refusal: { codes: [40000] },
  }));
  return [...top, ...nested, ...pollution];
}

function queryAttacks(api: ApiCall): NamedAttack[] {
  const sample = querySample(api);
  return ['debug', 'userId'].map((key) => ({
    what: `?${key}`,
    request: { query: { ...sample, [key]: '1' } },
    refusal: { codes: [40000], mentions: key },
  }));
}

export function unknownFieldAttacks(arena: Arena) {
  describe(CATEGORY, () => {
    for (const api of API_CALLS) {
      it(`${labelOf(api)} refuses unknown fields`, async () => {
        await refuseAll(arena.campaign, CATEGORY, arena.attacker, api, [...queryAttacks(api), ...bodyAttacks(api)]);
      });
    }
  });
}
