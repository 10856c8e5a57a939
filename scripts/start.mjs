// `npm start`: build the web app when its build is missing or older than its sources, then run the
// server (API + worker + the built web app). The server itself applies migrations at start.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const webBuilt = join(root, 'apps/web/dist/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/public', 'packages/contract/src']
  .map((p) => join(root, p))
  .filter(existsSync);
const stale =
  !existsSync(webBuilt) ||
  sources.some((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs) > statSync(webBuilt).mtimeMs);
if (stale) {
  console.log('Building the web app…');
  // A production build whatever NODE_ENV this process inherited: Vite bakes NODE_ENV into the bundle, and one built
  // under a test runner's NODE_ENV=test is React's development build with antd's fixed test ids.
  const r = spawnSync('npm', ['run', 'build', '--workspace', '@reelsmith/web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// The browser extension the server offers for download (decision "Extension download"), built once.
if (!existsSync(join(root, 'apps/extension/dist/manifest.json'))) {
  console.log('Building the browser extension…');
  const r = spawnSync('npm', ['run', 'build', '--workspace', '@reelsmith/extension'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const tsx = join(root, 'node_modules/.bin/tsx');
// glibc keeps what the subject model and sharp free unless told to trim above 128 KiB: without it a worker that
// had found subjects held 0.4 GB it no longer used (decision "Memory of a render"). An operator's own value wins.
const memory = { MALLOC_TRIM_THRESHOLD_: process.env.MALLOC_TRIM_THRESHOLD_ ?? '131072' };
const server = spawn(tsx, [join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ...memory },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
