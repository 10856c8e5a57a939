// The server processes the benchmarks start, and what they read from /proc about them.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The sum of resident memory of this process's children and their children, read from /proc. */
export function childrenRss() {
  const parents = new Map();
  const rss = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(pid, fields[1]);
      rss.set(pid, Number(fields[21]) * 4096);
    } catch {
      // The process ended between listing and reading.
    }
  }
  const ours = new Set([String(process.pid)]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!ours.has(pid) && ours.has(parent)) {
        ours.add(pid);
        grew = true;
      }
    }
  }
  ours.delete(String(process.pid));
  let total = 0;
  for (const pid of ours) total += rss.get(pid) ?? 0;
  return total;
}

/**
 * Runs `work` and answers what it answered with about the most memory this process and its children held at one
 * moment meanwhile, in MiB (`peakMiB`), polled every 100 ms, and the two parts of that moment: the children's
 * resident memory (`childrenMiB`, the ffmpeg processes) and this process's own (`ownMiB`).
 */
export async function withPeakMemory(work) {
  let peak = { total: 0, children: 0, own: 0 };
  const sample = () => {
    const children = childrenRss();
    const own = process.memoryUsage().rss;
    if (children + own > peak.total) peak = { total: children + own, children, own };
  };
  const poll = setInterval(sample, 100);
  try {
    const result = await work();
    sample();
    const mib = (bytes) => Math.round(bytes / 2 ** 20);
    return { result, peakMiB: mib(peak.total), childrenMiB: mib(peak.children), ownMiB: mib(peak.own) };
  } finally {
    clearInterval(poll);
  }
}

/** The load average over 1, 5 and 15 minutes. */
export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** A port nothing listens on now: each process gets its own, and the API's goes into its PUBLIC_URL. */
export async function freePort() {
  const probe = http.createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `main.ts` in a process of its own (node with tsx's loader, so signals reach the server), its output kept. */
export function startProcess(role, env) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: { ...process.env, ...env, ROLE: role },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = [];
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.setEncoding('utf8').on('data', (chunk) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts.filter(Boolean));
    });
  }
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  return { role, child, lines, exited, base: `http://127.0.0.1:${env.PORT}` };
}

/** Waits for the process's health check to answer, or throws with its last lines of output. */
export async function whenHealthy(proc, prefix = 'reelsmith') {
  for (let i = 0; i < 240; i++) {
    if (proc.child.exitCode !== null) break;
    try {
      const j = await (await fetch(`${proc.base}/${prefix}/api/health`)).json();
      if (j.code === 0) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the ${proc.role} process did not become healthy:\n${proc.lines.slice(-30).join('\n')}`);
}

/**
 * The settings both processes of a bench share: its own database and data dir, quiet logs, dev sign-in, no web
 * build, and the bench's loopback host allowed for fetching.
 */
export const serverEnv = ({ databaseUrl, dataDir, allowHost, prefix = 'reelsmith' }) => ({
  DATABASE_URL: databaseUrl,
  DATA_DIR: dataDir,
  SESSION_SECRET: randomBytes(24).toString('hex'),
  LOG_LEVEL: 'warn',
  API_PREFIX: prefix,
  DEV_LOGIN: 'true',
  OUTBOUND_ALLOW_HOSTS: allowHost,
  WEB_DIST_DIR: join(dataDir, 'no-web-build'),
});

/** ONE ROLE=api and ONE ROLE=worker process with these settings, each on a free port, once both answer health. */
export async function startApiAndWorker(env) {
  const apiPort = await freePort();
  const api = startProcess('api', { ...env, PORT: String(apiPort), PUBLIC_URL: `http://127.0.0.1:${apiPort}` });
  const worker = startProcess('worker', { ...env, PORT: String(await freePort()) });
  await Promise.all([api, worker].map((proc) => whenHealthy(proc, env.API_PREFIX)));
  return { api, worker };
}
