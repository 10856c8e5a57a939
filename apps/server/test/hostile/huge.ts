// 3. Huge strings in every string field (a megabyte, or one character past the field's own limit where that is
// larger), and a body past the body limit. Every string field must be bounded: by its schema's length, or by what
// is listed here (a pattern, a service's own limit).
import { CAPTURED_PAGE_MAX_BYTES, CLIENT_LOG_BODY_MAX, ERRORS } from '@reelsmith/contract';
import { describe, expect, it } from 'vitest';
import { type Arena, bodySample, querySample } from './support/arena.js';
import { API_CALLS, type ApiCall, labelOf } from './support/calls.js';
import { type NamedAttack, refuseAll } from './support/campaign.js';
import { fieldsOf, maxLengthOf, pathText, withField } from './support/schema.js';

const CATEGORY = 'huge strings';
const MEGABYTE = 1024 * 1024;
/** The app's body limit (app.ts), and the larger one of the call that carries a captured page. */
const BODY_LIMIT = 3 * MEGABYTE;
const BODY_LIMITS: Record<string, number> = { linkVideoPageUpload: 2 * CAPTURED_PAGE_MAX_BYTES, logCollect: CLIENT_LOG_BODY_MAX };
/** String fields without a length in their schema: what bounds them, and the code a string past it gets. */
const BOUNDED_OTHERWISE: Record<string, { limit: number; code: number }> = {
  // Counted in bytes of UTF-8 by the service.
  'linkVideoPageUpload html': { limit: CAPTURED_PAGE_MAX_BYTES, code: ERRORS.pageCaptureTooLarge.code },
  // Patterns of a few characters.
  'filePutUrl format': { limit: 5, code: ERRORS.validation.code },
  'submit expand-image ratio': { limit: 5, code: ERRORS.validation.code },
};

/** A string of `length` characters that no field accepts for its content alone (not a URL, not an e-mail). */
const huge = (length: number) => 'A'.repeat(length);

function stringFieldAttacks(api: ApiCall, where: 'body' | 'query'): NamedAttack[] {
  const sample = where === 'body' ? bodySample(api) : querySample(api);
  return fieldsOf(api.call[where])
    .filter((field) => field.kind === 'string')
    .map((field) => {
      const name = pathText(field.path);
      const max = maxLengthOf(field.schema);
      const otherwise = BOUNDED_OTHERWISE[`${api.name} ${name}`];
      expect(max ?? otherwise, `${labelOf(api)} ${name} has no length limit`).toBeDefined();
      const length = Math.max(MEGABYTE, (max ?? otherwise?.limit ?? 0) + 1);
      const value = withField(sample, field.path, huge(length));
      // A call with a body limit smaller than the string refuses the body before reading its fields.
      const pastBodyLimit = where === 'body' && length > (BODY_LIMITS[api.name] ?? BODY_LIMIT);
      let refusal: NamedAttack['refusal'] = { codes: [ERRORS.validation.code], mentions: name };
      if (pastBodyLimit) refusal = { codes: [ERRORS.validation.code], mentions: 'too large' };
      else if (max === undefined && otherwise?.code !== ERRORS.validation.code) refusal = { codes: [otherwise?.code ?? 0] };
      return {
        what: `${name}: ${length} characters`,
        request: where === 'body' ? { body: value } : { query: value as Record<string, unknown> },
        refusal,
      };
    });
}

function overLimit(api: ApiCall): NamedAttack {
  const limit = BODY_LIMITS[api.name] ?? BODY_LIMIT;
  return {
    what: `a body of ${limit + 1} bytes`,
    request: { raw: { payload: `{"a":"${huge(limit - 7)}"}`, contentType: 'application/json' } },
    refusal: { codes: [40000], mentions: 'too large' },
  };
}

export function hugeAttacks(arena: Arena) {
  describe(CATEGORY, () => {
    for (const api of API_CALLS) {
      const strings = [...fieldsOf(api.call.query), ...fieldsOf(api.call.body)].some((field) => field.kind === 'string');
      if (!strings && api.call.method !== 'POST') continue;
      it(`${labelOf(api)} refuses huge strings and bodies`, async () => {
        const attacks = [
          ...stringFieldAttacks(api, 'query'),
          ...stringFieldAttacks(api, 'body'),
          ...(api.call.method === 'POST' ? [overLimit(api)] : []),
        ];
        await refuseAll(arena.campaign, CATEGORY, arena.attacker, api, attacks);
      });
    }
  });
}
