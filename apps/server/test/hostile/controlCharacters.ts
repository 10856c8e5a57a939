// Control characters, one text at a time: a NUL (which PostgreSQL refuses in text, so it answered 500), a
// vertical tab and an escape put into each text field of a body or query the schema accepts. Each is refused as
// that field's validation error (decision "Control characters refused"), before anything is written.
import { describe, expect, it } from 'vitest';
import { type Arena, bodySample, querySample } from './support/arena.js';
import { API_CALLS, type ApiCall, labelOf } from './support/calls.js';
import { type NamedAttack, refuseAll } from './support/campaign.js';
import { type Field, fieldAt, fieldsOf, pathText, withField } from './support/schema.js';

const CATEGORY = 'control characters';
const CONTROLS = ['\u0000', '\u000b', '\u001b'];

/**
 * The sample's text with its middle character replaced by `control`: as long as the field takes, and inside the
 * text, where trimming (which takes a vertical tab off the ends) cannot remove it.
 */
const withControl = (sample: unknown, control: string) => {
  const text = typeof sample === 'string' && sample.length >= 3 ? sample : 'abc';
  const middle = Math.floor(text.length / 2);
  return `${text.slice(0, middle)}${control}${text.slice(middle + 1)}`;
};

/**
 * Whether the call's own schema drops the control character from this body (a captured page's HTML, read as a
 * browser shows it): then there is nothing to refuse.
 */
const dropsIt = (api: ApiCall, body: unknown, path: Field['path'], control: string) => {
  const parsed = api.call.body?.safeParse(body);
  const kept = parsed?.success ? fieldAt(parsed.data, path) : undefined;
  return typeof kept === 'string' && !kept.includes(control);
};

function bodyAttacks(api: ApiCall): NamedAttack[] {
  const sample = bodySample(api);
  return fieldsOf(api.call.body)
    .filter((field) => field.kind === 'string')
    .flatMap((field) =>
      CONTROLS.flatMap((control) => {
        const body = withField(sample, field.path, withControl(fieldAt(sample, field.path), control));
        if (dropsIt(api, body, field.path, control)) return [];
        return [
          {
            what: `${pathText(field.path)} with U+${control.charCodeAt(0).toString(16).padStart(4, '0')}`,
            request: { body },
            refusal: { codes: [40000], mentions: pathText(field.path) },
          },
        ];
      }),
    );
}

function queryAttacks(api: ApiCall): NamedAttack[] {
  const sample = querySample(api);
  return fieldsOf(api.call.query)
    .filter((field) => field.kind === 'string')
    .map((field) => {
      const key = String(field.path[0]);
      return {
        what: `?${key} with a NUL`,
        request: { query: { ...sample, [key]: withControl(sample[key], '\u0000') } },
        refusal: { codes: [40000], mentions: key },
      };
    });
}

export function controlCharacterAttacks(arena: Arena) {
  describe(CATEGORY, () => {
    for (const api of API_CALLS) {
      const attacks = () => [...queryAttacks(api), ...bodyAttacks(api)];
      if (attacks().length === 0) continue;
      it(`${labelOf(api)} refuses a control character in each text`, async () => {
        if (api.call.body) expect(api.call.body.safeParse(bodySample(api)).success).toBe(true);
        if (api.call.query) expect(api.call.query.safeParse(querySample(api)).success).toBe(true);
        await refuseAll(arena.campaign, CATEGORY, arena.attacker, api, attacks());
      });
    }

    it('reaches every call that takes a text', () => {
      const calls = API_CALLS.filter((api) => [...queryAttacks(api), ...bodyAttacks(api)].length > 0);
      // Projects, drafts, prompts, scripts, links, names, brand kits, webhooks, API keys, batches and more.
      expect(calls.length).toBeGreaterThan(40);
    });
  });
}
