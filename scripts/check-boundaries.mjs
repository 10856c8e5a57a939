// The web app's dependency rule, run by `npm run lint` (Biome cannot say "only through another feature's index"):
// - a feature imports shared/, its own folder, and another feature only through that feature's public index.ts
//   (a test may also use another feature's testing.ts helpers);
// - shared/ imports no feature and not the app.
// Exits 1 listing every import that breaks it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', 'apps/web/src');
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx)$/.test(entry.name)) yield path;
  }
}

/** Where a path lies: its top folder (features, shared, app, test) and, under features, the feature. */
function placeOf(path) {
  const [top, feature, ...rest] = relative(ROOT, path).split(sep);
  return { top, feature: top === 'features' ? feature : undefined, inFeature: rest.join('/') };
}

const PUBLIC = /^(index(\.tsx?)?)?$/;
const TEST_HELPERS = /^testing(\.tsx?)?$/;

export function problemsOf(file, text) {
  const from = placeOf(file);
  const problems = [];
  for (const [, specifier] of text.matchAll(IMPORT)) {
    if (!specifier.startsWith('.')) continue;
    const to = placeOf(resolve(dirname(file), specifier));
    const where = `${relative(ROOT, file)} imports '${specifier}'`;
    if (from.top === 'shared' && (to.top === 'features' || to.top === 'app'))
      problems.push(`${where}: shared/ imports no feature or app code`);
    if (from.top !== 'features' || to.top !== 'features' || to.feature === from.feature) continue;
    const isTest = /\.test\.tsx?$/.test(file);
    if (!PUBLIC.test(to.inFeature) && !(isTest && TEST_HELPERS.test(to.inFeature)))
      problems.push(`${where}: another feature is imported through its index.ts ('../${to.feature}')`);
  }
  return problems;
}

const problems = [...sources(ROOT)].flatMap((file) => problemsOf(file, readFileSync(file, 'utf8')));
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`check-boundaries: ${problems.length} import(s) cross a feature's boundary`);
  process.exit(1);
}
console.log('check-boundaries: every cross-feature import goes through an index.ts');
