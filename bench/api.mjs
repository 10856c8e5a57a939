// Benchmark of the signed-in hot path: GET /{prefix}/api/users/me through the full auth path (session
// cookie, client header, access check), against the real server started as `npm start` starts it.
// Run from the repo root: node bench/api.mjs
// BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 100) and BENCH_WARMUP (s, default 3) change the run.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const prefix = 'reelsmith';
const duration = Number(process.env.BENCH_DURATION || 10);
const connections = Number(process.env.BENCH_CONNECTIONS || 100);
const warmup = Number(process.env.BENCH_WARMUP ?? 3);

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-bench-'));
const server = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    API_PREFIX: prefix,
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});

async function waitForHealth() {
  for (let i = 0; i < 120; i++) {
    try {
      const j = await (await fetch(`${base}/${prefix}/api/health`)).json();
      if (j.code === 0) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not become healthy');
}

try {
  await waitForHealth();
  const res = await fetch(`${base}/${prefix}/api/auth/dev-login`, {
    method: 'POST',
    headers: { client: 'WEB', origin: base, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com' }),
  });
  const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
  if (!cookie) throw new Error(`dev-login set no cookie: ${await res.text()}`);

  const load = (seconds) =>
    autocannon({
      url: `${base}/${prefix}/api/users/me`,
      connections,
      duration: seconds,
      headers: { client: 'WEB', cookie, 'accept-language': 'en' },
      // A 200 that is an error envelope would be a broken benchmark, not a fast server.
      verifyBody: (body) => body.includes('"code":0'),
    });
  // The first seconds of a fresh process measure V8 compiling our code, not the steady state.
  if (warmup > 0) await load(warmup);
  const result = await load(duration);
  const failures = result.errors + result.timeouts + result.non2xx + (result.mismatches ?? 0);
  console.log(`GET /${prefix}/api/users/me, ${connections} connections, ${duration} s after ${warmup} s of warm-up`);
  console.log(`  requests/s  ${Math.round(result.requests.average)}`);
  console.log(`  latency p50 ${result.latency.p50} ms`);
  console.log(`  latency p99 ${result.latency.p99} ms (max ${result.latency.max} ms)`);
  console.log(`  errors, timeouts, non-2xx and wrong bodies: ${failures} of ${result.requests.total}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
