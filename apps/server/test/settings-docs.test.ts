// The README's settings tables and .env.example against the settings' schemas: every variable the schemas declare is
// documented in both, no other is, and each default shown is the schema's. `npm run settings:docs` rewrites both.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type DocumentedVariable,
  documentedVariables,
  ENV_MARKERS,
  envExampleSettings,
  plain,
  README_MARKERS,
  readmeSettings,
} from '../src/settings/docs.js';
import { loadSettings, SettingsEnv } from '../src/settings.js';
import { REPO_ROOT } from './support/serverProcess.js';

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

function between(text: string, [start, end]: readonly [string, string]): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`the markers ${start} … ${end} are missing`);
  return text.slice(from, to + end.length);
}

/** Variable → default, from the README's `| \`NAME\` | default | meaning |` rows. */
function readmeDefaults(text: string): Map<string, string> {
  const rows = between(text, README_MARKERS).matchAll(/^\| `([A-Z0-9_]+)` \| (.*?) \| .* \|$/gm);
  return new Map([...rows].map(([, name = '', shown = '']) => [name, shown.replaceAll('\\|', '|')]));
}

/** Variable → default, from .env.example's `# NAME=` lines and the `(default: …)` ending the comment above each. */
function envDefaults(text: string): Map<string, string> {
  const blocks = between(text, ENV_MARKERS).split(/\n\n+/);
  const found = new Map<string, string>();
  for (const block of blocks) {
    const lines = block.split('\n');
    const name = /^# ([A-Z0-9_]+)=$/.exec(lines.at(-1) ?? '')?.[1];
    if (!name) continue;
    const comment = lines
      .slice(0, -1)
      .map((line) => line.replace(/^# ?/, ''))
      .join(' ');
    found.set(name, /\(default: (.*)\)$/.exec(comment)?.[1] ?? '(no default shown)');
  }
  return found;
}

/** What disagrees between the documented defaults and the schemas, one line each. */
function disagreements(documented: Map<string, string>, variables: DocumentedVariable[], show: (text: string) => string): string[] {
  const problems: string[] = [];
  for (const v of variables) {
    const shown = documented.get(v.name);
    if (shown === undefined) problems.push(`${v.name} is missing`);
    else if (shown !== show(v.default)) problems.push(`${v.name} shows default ${shown}, the schema's is ${show(v.default)}`);
  }
  const names = new Set(variables.map((v) => v.name));
  for (const name of documented.keys()) if (!names.has(name)) problems.push(`${name} is not a setting`);
  return problems;
}

const variables = documentedVariables();
const readme = read('README.md');
const envExample = read('.env.example');

describe('the settings docs', () => {
  it('document every variable once, each with a meaning', () => {
    const names = variables.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(Object.keys(SettingsEnv.shape).sort());
    expect(names).toContain('STORAGE_QUOTA_MB');
    expect(names).toContain('PROVIDER_TEXT_TO_IMAGE');
    expect(variables.filter((v) => !v.meaning.trim())).toEqual([]);
  });

  it('show the default the server really uses where the schema has one', () => {
    const shown = new Map(variables.map((v) => [v.name, v.default]));
    const s = loadSettings({});
    expect(shown.get('PORT')).toBe(String(s.port));
    expect(shown.get('STORAGE_QUOTA_MB')).toBe(String(s.storageQuotaBytes / 1024 / 1024));
    expect(shown.get('PROVIDER_POLL_MS')).toBe(String(s.generation.pollMs));
    expect(shown.get('FAL_BASE_URL')).toBe('https://queue.fal.run');
  });

  it("README's settings tables list every variable with the schema's default, and no other", () => {
    expect(disagreements(readmeDefaults(readme), variables, (text) => text)).toEqual([]);
    expect(between(readme, README_MARKERS), 'run npm run settings:docs').toBe(readmeSettings(variables));
  });

  it(".env.example lists every variable with the schema's default, and no other", () => {
    expect(disagreements(envDefaults(envExample), variables, plain)).toEqual([]);
    expect(between(envExample, ENV_MARKERS), 'run npm run settings:docs').toBe(envExampleSettings(variables));
  });

  it('notices a missing variable, an extra one and a wrong default', () => {
    const edited = readme
      .replace(/^\| `PORT` \| 3000 \|/m, '| `PORT` | 8080 |')
      .replace(/^\| `HOST` .*\n/m, '')
      .replace(/^\| `LOG_LEVEL` .*$/m, (row) => `${row}\n| \`LOG_FORMAT\` | json | gone |`);
    expect(disagreements(readmeDefaults(edited), variables, (text) => text)).toEqual([
      "PORT shows default 8080, the schema's is 3000",
      'HOST is missing',
      'LOG_FORMAT is not a setting',
    ]);
    const env = envExample.replace('(default: 3000)\n# PORT=', '(default: 80)\n# PORT=').replace(/\n# HOST=\n/, '\n');
    expect(disagreements(envDefaults(env), variables, plain)).toEqual(["PORT shows default 80, the schema's is 3000", 'HOST is missing']);
  });
});
