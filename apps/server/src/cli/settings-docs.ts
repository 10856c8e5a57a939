// Writes the README's settings tables and .env.example's settings from the schemas (settings/docs.ts):
// `npm run settings:docs` after adding or changing a variable.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENV_MARKERS, envExampleSettings, README_MARKERS, readmeSettings, replaceBetween } from '../settings/docs.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

for (const [file, markers, section] of [
  ['README.md', README_MARKERS, readmeSettings()],
  ['.env.example', ENV_MARKERS, envExampleSettings()],
] as const) {
  const path = join(REPO_ROOT, file);
  const before = readFileSync(path, 'utf8');
  const after = replaceBetween(before, markers, section);
  if (after !== before) writeFileSync(path, after);
  console.log(`${file}: ${after === before ? 'up to date' : 'written'}`);
}
