import { z } from 'zod';
import { PROJECT_NAME_MAX } from './constants.js';

/** Ids are opaque strings; bounded so a hostile client cannot send megabytes as an id. */
/**
 * Control characters but tab, line feed and carriage return (decision "Control characters refused"): no text a
 * person types holds them, PostgreSQL refuses a NUL in text, and the others hide in names, links and CSV cells.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this expression's one job.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** A text with its control characters dropped: what a browser shows of a page that holds them. */
export const withoutControlCharacters = (text: string) => text.replace(CONTROL_CHARACTERS, '');

/** Whether a text holds a control character (a fresh search each time: the shared expression is global). */
export const hasControlCharacters = (text: string) => text.search(CONTROL_CHARACTERS) >= 0;

export const Id = z.string().min(1).max(64);
export const Ids = z.array(Id).min(1).max(100);

/** An absolute http(s) URL of reasonable length. */
export const HttpUrl = z
  .string()
  .max(4096)
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http or https URL');

/** A storage key (resKey / fileKey / filePath). */
export const ResKey = z.string().min(1).max(512);

/** Trimmed, non-empty, at most 100 characters (spec "Validation rules"). */
export const ProjectName = z.string().trim().min(1).max(PROJECT_NAME_MAX);

export const Page = z.strictObject({
  page: z.number().int().min(1).max(100_000),
  pageSize: z.number().int().min(1).max(100),
});

/** ISO-8601 timestamps on the wire; the web app formats them. */
export const Timestamp = z.string();

export const Ok = z.literal(true);
