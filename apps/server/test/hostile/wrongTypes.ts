// 2. Wrong types, one field at a time: a body the schema accepts with one field (nested ones and array items
// included) replaced by a value of another type, or a query parameter sent as a list or outside its enum. The
// refusal names the field.
import { describe, expect, it } from 'vitest';
import { type Arena, bodySample, querySample } from './support/arena.js';
import { API_CALLS, type ApiCall, labelOf } from './support/calls.js';
import { type NamedAttack, refuseAll } from './support/campaign.js';
import { fieldAt, fieldsOf, pathText, withField, wrongValuesFor } from './support/schema.js';

const CATEGORY = 'wrong types';

function bodyAttacks(api: ApiCall): NamedAttack[] {
  const sample = bodySample(api);
  return fieldsOf(api.call.body).flatMap((field) =>
    wrongValuesFor(field, fieldAt(sample, field.path))
      // A value the field itself takes is not a wrong one (a number field that is not an integer takes 1.5).
      .filter((wrong) => !field.schema.safeParse(wrong).success)
      .map((wrong) => ({
        what: `${pathText(field.path)} = ${JSON.stringify(wrong)}`,
        request: { body: withField(sample, field.path, wrong) },
        refusal: { codes: [40000], mentions: pathText(field.path) },
      })),
  );
}

function queryAttacks(api: ApiCall): NamedAttack[] {
  const sample = querySample(api);
  return fieldsOf(api.call.query).flatMap((field) => {
    const key = String(field.path[0]);
    const wrongs: unknown[] = [[sample[key], 'second']];
    if (field.kind === 'enum') wrongs.push('not-a-member');
    return wrongs.map((wrong) => ({
      what: `?${key}=${JSON.stringify(wrong)}`,
      request: { query: { ...sample, [key]: wrong } },
      refusal: { codes: [40000], mentions: key },
    }));
  });
}

export function wrongTypeAttacks(arena: Arena) {
  describe(CATEGORY, () => {
    for (const api of API_CALLS) {
      const hasInput = api.call.body || api.call.query;
      if (!hasInput) continue;
      it(`${labelOf(api)} refuses each field of the wrong type`, async () => {
        // The attacks change one field of a sample; the sample itself must pass, or they would prove nothing.
        if (api.call.body) expect(api.call.body.safeParse(bodySample(api)).success).toBe(true);
        if (api.call.query) expect(api.call.query.safeParse(querySample(api)).success).toBe(true);
        const attacks = [...queryAttacks(api), ...bodyAttacks(api)];
        expect(attacks.length).toBeGreaterThan(0);
        await refuseAll(arena.campaign, CATEGORY, arena.attacker, api, attacks);
      });
    }
  });
}
