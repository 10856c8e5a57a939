// What each page of the web app downloads on a first visit, from the production build: the entry chunk (index.html)
// and everything it imports statically, the English message catalogues the app loads before its first render (every
// namespace but the on-demand ones of apps/web/src/shared/i18n/catalogues.ts, which count for the pages that read
// them), plus the page's lazy chunk and its static imports; JS and CSS, gzipped.
// Run from the repo root: node bench/bundle.mjs (builds apps/web first; --no-build reads the existing apps/web/dist).
// Decision "Landing bundle budget": the landing page must stay at or under BENCH_LANDING_BUDGET_KB (default 250).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { tsImport } from 'tsx/esm/api';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'apps/web');
const dist = join(web, 'dist');
const budgetKb = Number(process.env.BENCH_LANDING_BUDGET_KB || 250);

if (!process.argv.includes('--no-build')) {
  execFileSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

/** @type {Record<string, {file: string, css?: string[], imports?: string[], src?: string, isEntry?: boolean}>} */
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

/**
 * Page path → the source module its lazy page is imported from, read from the route table (app/routes.tsx):
 * every `page(PATHS.x, Component, …)` row whose component is `named(() => import('…'), …)` or a `policyPage(…)`.
 * A page row this cannot place fails the run, so a new route is never silently left out.
 */
async function routeModules() {
  const routesFile = join(web, 'src/app/routes.tsx');
  const source = readFileSync(routesFile, 'utf8');
  const { PATHS } = await tsImport(join(web, 'src/shared/paths.ts'), import.meta.url);
  const loaders = new Map();
  for (const [, name, specifier] of source.matchAll(/const (\w+) = named\(\(\) => import\('([^']+)'\)/g)) loaders.set(name, specifier);
  const policy = source.match(/const policyPage = [\s\S]*?import\('([^']+)'\)/)?.[1];
  const rows = [...source.matchAll(/page\(PATHS\.(\w+),\s*(\w+)(\('\w+'\))?/g)];
  if (rows.length === 0) throw new Error('no page rows found in routes.tsx');
  return rows.map(([, pathKey, component, call]) => {
    const specifier = call && component === 'policyPage' ? policy : loaders.get(component);
    const path = PATHS[pathKey];
    if (!specifier || !path) throw new Error(`cannot place the page of PATHS.${pathKey} (${component}) in the build`);
    return { path, src: relative(web, resolve(dirname(routesFile), specifier)) };
  });
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('the manifest has no entry');

/** The files a chunk brings with it: its own JS and CSS and those of its static imports, transitively. */
function closure(key, into = new Set()) {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const css of chunk.css ?? []) into.add(css);
  for (const dep of chunk.imports ?? []) closure(dep, into);
  return into;
}

const gzipped = new Map();
const sizeOf = (file) => {
  if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
  return gzipped.get(file);
};
const total = (files) => [...files].reduce((sum, file) => sum + sizeOf(file), 0);
const kb = (bytes) => (bytes / 1024).toFixed(1);

/** The catalogues loaded only when a page asks, as named in catalogues.ts (`ON_DEMAND = new Set([...])`). */
const onDemand = new Set(
  [
    ...(readFileSync(join(web, 'src/shared/i18n/catalogues.ts'), 'utf8').match(/ON_DEMAND = new Set\(\[([^\]]*)\]/)?.[1] ?? '').matchAll(
      /'([^']+)'/g,
    ),
  ].map(([, namespace]) => namespace),
);
const catalogues = Object.keys(manifest)
  .map((key) => ({ key, namespace: /([^/]+)\/locales\/en\.json$/.exec(key)?.[1] }))
  .filter(({ namespace }) => namespace);
const entry = closure(entryKey);
for (const { key, namespace } of catalogues) if (!onDemand.has(namespace)) closure(key, entry);

const rows = (await routeModules()).map(({ path, src }) => {
  const key = Object.keys(manifest).find((k) => manifest[k].src?.replace(/\.tsx?$/, '') === src);
  if (!key) throw new Error(`${path}: ${src} is not a chunk of the build`);
  const files = closure(key, new Set(entry));
  // An on-demand namespace counts for the pages of its feature (`policy` for features/policy/…).
  for (const { key: catalogue, namespace } of catalogues)
    if (onDemand.has(namespace) && src.includes(`/${namespace}/`)) closure(catalogue, files);
  const js = [...files].filter((f) => f.endsWith('.js'));
  const css = [...files].filter((f) => f.endsWith('.css'));
  return { path, js: total(js), css: total(css), all: total(files), files: files.size };
});

console.log(`entry (every page): ${kb(total(entry))} KB gzipped in ${entry.size} files`);
console.log('');
console.log('route                                JS KB   CSS KB  total KB  files');
for (const row of rows) {
  console.log(
    `${row.path.padEnd(36)} ${kb(row.js).padStart(6)}  ${kb(row.css).padStart(6)}  ${kb(row.all).padStart(8)}  ${String(row.files).padStart(5)}`,
  );
}
const landing = rows.find((row) => row.path === '/tools/link-to-video');
if (!landing) throw new Error('the landing page is not in the route table');
console.log('');
console.log(`landing /tools/link-to-video: ${kb(landing.all)} KB gzipped (budget ${budgetKb} KB)`);
if (landing.all > budgetKb * 1024) process.exitCode = 1;
