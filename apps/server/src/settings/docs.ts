// The README's settings tables and .env.example's settings, written from the schemas: each variable's meaning is
// the one given beside its schema, its default the schema's own (or, where the schema has none to show, the text
// given there). `npm run settings:docs` writes them; test/settings-docs.test.ts fails when the files disagree.
import type { z } from 'zod';
import { CONCERNS } from '../settings.js';
import { settingDocs } from './fields.js';

export interface DocumentedVariable {
  concern: string;
  name: string;
  default: string;
  meaning: string;
}

/** The default shown for a variable: what its schema makes of an unset variable, or the text given beside it. */
function shownDefault(name: string, schema: z.ZodType, given: string | undefined): string {
  const parsed = schema.safeParse(undefined);
  const value: unknown = parsed.success ? parsed.data : undefined;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
    if (given !== undefined) throw new Error(`${name}: its schema's default ${value} is shown as it is; give no other text`);
    return String(value);
  }
  if (given !== undefined) return given;
  if (Array.isArray(value) && value.length === 0) return 'empty';
  if (value === undefined) return 'unset';
  throw new Error(`${name}: give the text its default is shown as`);
}

/** Every variable the server reads, concern by concern, in the order of the schemas. */
export function documentedVariables(): DocumentedVariable[] {
  return CONCERNS.flatMap(({ title, env }) =>
    Object.entries(env.shape as Record<string, z.ZodType>).map(([name, schema]) => {
      const doc = settingDocs.get(schema);
      if (!doc) throw new Error(`${name} has no description: declare it with setting()`);
      return { concern: title, name, default: shownDefault(name, schema, doc.default), meaning: doc.meaning };
    }),
  );
}

const GENERATED = 'Written from apps/server/src/settings/ by `npm run settings:docs`: change the schemas, not this text.';
export const README_MARKERS = ['<!-- settings:start -->', '<!-- settings:end -->'] as const;
export const ENV_MARKERS = ['# --- settings:start ---', '# --- settings:end ---'] as const;

function byConcern(variables: DocumentedVariable[]): Map<string, DocumentedVariable[]> {
  const groups = new Map<string, DocumentedVariable[]>();
  for (const v of variables) groups.set(v.concern, [...(groups.get(v.concern) ?? []), v]);
  return groups;
}

/** The README's settings: a table per concern, `| variable | default | meaning |`. */
export function readmeSettings(variables = documentedVariables()): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const sections = [...byConcern(variables)].map(([concern, rows]) =>
    [
      `### ${concern}`,
      '',
      '| variable | default | meaning |',
      '| --- | --- | --- |',
      ...rows.map((v) => `| \`${v.name}\` | ${cell(v.default)} | ${cell(v.meaning)} |`),
    ].join('\n'),
  );
  return [README_MARKERS[0], `<!-- ${GENERATED} -->`, ...sections, README_MARKERS[1]].join('\n\n');
}

/** Plain text for a comment: .env.example is read in a terminal, not rendered. */
export const plain = (text: string) => text.replaceAll('`', '');

/** `# ` lines of at most 120 characters. */
function comment(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(' ')) {
    if (line.length > 1 && line.length + 1 + word.length > 120) {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

/** .env.example's settings: each variable commented out under its meaning and default. */
export function envExampleSettings(variables = documentedVariables()): string {
  const sections = [...byConcern(variables)].map(([concern, rows]) =>
    [
      `# == ${concern} ==`,
      ...rows.map((v) => [...comment(`${plain(v.meaning)} (default: ${plain(v.default)})`), `# ${v.name}=`].join('\n')),
    ].join('\n\n'),
  );
  return [ENV_MARKERS[0], `# ${GENERATED}`, ...sections, ENV_MARKERS[1]].join('\n\n');
}

/** `text` with what lies between the markers (markers included) replaced by `section`. */
export function replaceBetween(text: string, [start, end]: readonly [string, string], section: string): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`the markers ${start} … ${end} are missing`);
  return text.slice(0, from) + section + text.slice(to + end.length);
}
