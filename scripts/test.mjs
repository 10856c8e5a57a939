// `npm test`: lint and type-check, build the web app and the browser extension the browser tests drive, then
// every Vitest project (contract, server, extension, web, e2e). Ends with a plain "tests: N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, extraEnv = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...extraEnv } }).status ?? 1;

// Debian packages the tests use (the product itself needs none): chromium for the browser tests (required) and
// ffmpeg 5.1, which the tests compare with the npm-installed 4.1 the product runs and measure audio with (without
// it those tests use 4.1 alone).
const CHROMIUM = '/usr/bin/chromium';
const onPath = (name) => (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, name)));
const missing = [
  ...(existsSync(CHROMIUM) ? [] : ['chromium']),
  ...(onPath('ffmpeg') ? [] : ['ffmpeg']),
  // The extension's browser test serves its shop over https with a certificate openssl makes.
  ...(onPath('openssl') ? [] : ['openssl']),
  // Tests read the words a render draws (cards, buttons) back with tesseract, in the product's three languages.
  ...(onPath('tesseract') ? [] : ['tesseract-ocr']),
  ...['eng', 'chi_sim', 'por']
    .filter((language) => !existsSync(`/usr/share/tesseract-ocr/5/tessdata/${language}.traineddata`))
    .map((language) => `tesseract-ocr-${language.replace('_', '-')}`),
];
if (missing.length > 0 && process.getuid?.() !== 0) {
  if (missing.some((name) => name !== 'ffmpeg')) {
    console.error(`${missing.join(' and ')} missing: run \`sudo apt-get install -y ${missing.join(' ')}\` (Debian) and npm test again.`);
    process.exit(1);
  }
  console.warn('ffmpeg is missing: the tests use the npm-installed ffmpeg; `sudo apt-get install -y ffmpeg` installs Debian 5.1.');
} else if (missing.length > 0) {
  console.log(`Installing Debian ${missing.join(' and ')} for the tests…`);
  if (
    run('apt-get', ['update', '-qq']) !== 0 ||
    run('apt-get', ['install', '-y', '-qq', ...missing], { DEBIAN_FRONTEND: 'noninteractive' }) !== 0
  ) {
    process.exit(1);
  }
}

if (run('npm', ['run', 'lint']) !== 0) process.exit(1);
// The root build makes the web app and the browser extension both.
if (run('npm', ['run', 'build'], { NODE_ENV: 'production' }) !== 0) process.exit(1);

/**
 * Each Vitest project's wall time (from its first file's start to its last file's end; the projects share the
 * workers, so their spans overlap) and its files' summed time, from the JSON report.
 */
function printProjectTimes(files) {
  const projects = [
    ['contract', 'packages/contract/'],
    ['media', 'packages/media/'],
    ['server', 'apps/server/'],
    ['extension', 'apps/extension/'],
    ['web', 'apps/web/'],
    ['e2e', 'e2e/'],
  ];
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  console.log('wall time per project (files summed):');
  for (const [name, prefix] of projects) {
    const own = files.filter((f) => f.name.startsWith(join(root, prefix)));
    if (own.length === 0) continue;
    const start = Math.min(...own.map((f) => f.startTime));
    const end = Math.max(...own.map((f) => f.endTime));
    const summed = own.reduce((sum, f) => sum + (f.endTime - f.startTime), 0);
    console.log(`  ${name.padEnd(10)} ${seconds(end - start).padStart(8)}  (${seconds(summed)}, ${own.length} files)`);
  }
}

const report = join(tmpdir(), `reelsmith-vitest-${process.pid}.json`);
const status = run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
]);
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  rmSync(report);
  printProjectTimes(r.testResults ?? []);
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
  if (r.numTotalTests === 0) process.exit(1);
}
process.exit(status);
