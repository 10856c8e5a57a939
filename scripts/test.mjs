// `npm test`: lint and type-check, build the web app the browser tests drive, then every Vitest project
// (contract, server, web, e2e). Ends with a plain "tests: N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, extraEnv = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...extraEnv } }).status ?? 1;

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() !== 0) {
    console.error('Chromium is missing: run `sudo apt-get install -y chromium` (Debian) and npm test again.');
    process.exit(1);
  }
  console.log('Installing Debian chromium for the browser tests…');
  if (
    run('apt-get', ['update', '-qq']) !== 0 ||
    run('apt-get', ['install', '-y', '-qq', 'chromium'], { DEBIAN_FRONTEND: 'noninteractive' }) !== 0
  ) {
    process.exit(1);
  }
}

if (run('npm', ['run', 'lint']) !== 0) process.exit(1);
if (run('npm', ['run', 'build']) !== 0) process.exit(1);

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
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
  if (r.numTotalTests === 0) process.exit(1);
}
process.exit(status);
