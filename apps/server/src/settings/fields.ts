// The pieces every concern's schema is made of, and the registry that documents each variable: the README's settings
// tables and .env.example are written from it (settings/docs.ts), so a variable is described once, beside its schema.
import { z } from 'zod';

/** A bad setting; the message names the variable. */
export class SettingsError extends Error {}

/** Throws the one-line refusal every setting check answers with. */
export function refuse(problem: string): never {
  throw new SettingsError(`Invalid setting ${problem}`);
}

/** What a concern's slice is read with besides its own variables. */
export interface SettingsContext {
  /** Relative paths are taken from here. */
  cwd: string;
  /** NODE_ENV=production. */
  production: boolean;
}

/**
 * How a variable is documented. `default` is the text shown for a default the schema cannot show itself (unset,
 * computed from another variable); a schema's own default is shown as it is, so the docs cannot disagree with it.
 */
export interface SettingDoc {
  meaning: string;
  default?: string | undefined;
}

export const settingDocs = z.registry<SettingDoc>();

/** `schema`, documented: a copy, since one building block (`optional`, `flag`) serves many variables. */
export function setting<T extends z.ZodType>(schema: T, meaning: string, shownDefault?: string): T {
  const copy = schema.clone() as T;
  settingDocs.add(copy, { meaning, default: shownDefault });
  return copy;
}

/** Unset and blank are the same: `undefined`; anything else is trimmed. */
export const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

export const flag = z
  .enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => ['true', '1', 'on', 'yes'].includes(v))
  .optional();

export const positiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

export const httpUrl = optional.pipe(url.optional());

/** An http(s) URL with a default, without trailing slashes (a base URL paths are appended to). */
export const baseUrl = (fallback: string) => optional.pipe(url.default(fallback)).transform((v) => v.replace(/\/+$/, ''));

/** A comma-separated list, items trimmed, empty ones dropped. */
export const commaList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
