// A mixed load of real users against ONE ROLE=api and ONE ROLE=worker process of main.ts on a fresh
// PostgreSQL database: each user is signed in (dev sign-in), activated with an invitation code, given credits and
// one uploaded picture, then loops with think time over what the web app's pages call (browsing), the status of
// its own tasks (polling) and enlarge-image tasks that cost credits (submitting; every fourth from a picture that
// is gone when the worker fetches it, so it fails and is refunded). Prints requests/s, read and write latency,
// errors by code, tasks, and the drift of every user's credits: balance, ledger sum and what the bench granted
// minus the charges plus the refunds of its tasks must agree. Figures only: nothing here asserts a timing.
//
// Run from the repo root: node bench/load.mjs [--users 200] [--seconds 60] [--think-ms 2000] [--smoke]
// `--flood [--seconds 60]` runs the flood scenario instead: ten users beside one at its caps (bench/flood.mjs).
// --smoke is 20 users for 5 s with 1 s of thinking (the server test runs it). BENCH_USERS, BENCH_SECONDS,
// BENCH_THINK_MS and BENCH_DATABASE_URL (default TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
// do the same; the run gets a database of its own beside the one named, dropped afterwards.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { register } from 'tsx/esm/api';
import { loadAverage, serverEnv, startApiAndWorker } from './proc.mjs';

if (process.argv.includes('--flood')) {
  await import('./flood.mjs');
  process.exit(process.exitCode ?? 0);
}

register();
const { openDatabase } = await import('../apps/server/src/db/client.ts');
const { migrate } = await import('../apps/server/src/db/migrate.ts');
const { createInviteCodes } = await import('../apps/server/src/modules/invites/service.ts');
const { grant } = await import('../apps/server/src/modules/points/ledger.ts');
const { auditLedger } = await import('../apps/server/src/modules/points/audit.ts');
const { priceOf } = await import('../apps/server/src/modules/points/prices.ts');

const PREFIX = 'reelsmith';
const KIND = 'enlarge-image';
const SKU = 'imageEnhance';
const SIGNUP_CREDITS = 100;
/** What each user is given on top of the sign-up credits: more than a run can spend, so no submit is refused. */
const GRANTED = 100_000;
/** The web app polls a running task every 2 s (POLL_INTERVAL_MS). */
const POLL_MS = 2_000;
/** A user with this many tasks running waits for them before it submits another. */
const MAX_RUNNING = 2;
const DRAIN_TIMEOUT_MS = 180_000;

function options() {
  const args = process.argv.slice(2);
  const flag = (name) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const smoke = args.includes('--smoke');
  const number = (name, env, normal, small) => {
    const value = Number(flag(name) ?? process.env[env] ?? (smoke ? small : normal));
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
    return value;
  };
  return {
    users: Math.round(number('users', 'BENCH_USERS', 200, 20)),
    seconds: number('seconds', 'BENCH_SECONDS', 60, 5),
    thinkMs: number('think-ms', 'BENCH_THINK_MS', 2_000, 1_000),
    databaseUrl: process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * A picture host on loopback, as a shop would be: `/once/<id>.png` answers the picture the first time (the submit's
 * check) and 404 after (the worker's fetch), a picture taken down between the two.
 */
async function pictureHost(png) {
  const served = new Set();
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (!url.startsWith('/once/') || served.has(url)) return res.writeHead(404).end('gone');
    served.add(url);
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${server.address().port}`;
  return { host, vanishingUrl: () => `http://${host}/once/${randomUUID()}.png`, close: () => new Promise((r) => server.close(r)) };
}

/** CPU seconds a process has used so far (utime + stime from /proc, in clock ticks of 1/100 s). */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The latency and outcome of every measured request, and of setup and draining only the errors. */
class Recorder {
  measuring = false;
  started = 0;
  latencies = { read: [], write: [] };
  /** Per call (`GET /users/me`), to name the slow ones. */
  byCall = new Map();
  requests = 0;
  errors = new Map();

  begin() {
    this.measuring = true;
    this.started = performance.now();
  }

  end() {
    this.measuring = false;
    this.seconds = (performance.now() - this.started) / 1000;
  }

  record(type, call, ms, error) {
    if (error) this.errors.set(error, (this.errors.get(error) ?? 0) + 1);
    if (!this.measuring) return;
    this.requests += 1;
    this.latencies[type].push(ms);
    if (!this.byCall.has(call)) this.byCall.set(call, []);
    this.byCall.get(call).push(ms);
  }
}

const agent = new http.Agent({ keepAlive: true });

/** One signed-in browser of the web app: its cookie, `client: WEB`, the site's Origin, the envelope unwrapped. */
class User {
  tasks = [];
  cookie = '';

  constructor(index, base, recorder) {
    this.index = index;
    this.base = base;
    this.recorder = recorder;
    this.email = `load-${index}@bench.example`;
  }

  /** Sends a call and answers its data; an error is counted by its code and answered as undefined. */
  async call(type, method, path, { query, body } = {}) {
    const url = new URL(`${this.base}/${PREFIX}/api${path}`);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, String(v));
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const began = performance.now();
    let answer;
    let error;
    try {
      answer = await send(url, method, payload, {
        client: 'WEB',
        origin: this.base,
        'accept-language': 'en',
        ...(this.cookie && { cookie: this.cookie }),
        ...(payload && { 'content-type': 'application/json' }),
      });
      const session = answer.cookies.find((c) => c.startsWith(`${PREFIX}_session=`));
      if (session) this.cookie = session.split(';')[0];
      const envelope = answer.json;
      if (!envelope) error = `HTTP ${answer.status} (not JSON)`;
      else if (envelope.code !== 0) error = `code ${envelope.code} on ${method} ${path}: ${envelope.message}`;
    } catch (e) {
      error = `${e.code ?? e.name} on ${method} ${path}`;
    }
    this.recorder.record(type, `${method} ${path}`, performance.now() - began, error);
    return error ? undefined : answer.json.data;
  }

  read = (method, path, input) => this.call('read', method, path, input);
  write = (method, path, input) => this.call('write', method, path, input);

  /** Setup's calls must work: a failure there is a broken bench, not a figure. */
  async must(method, path, input) {
    const data = await this.call('write', method, path, input);
    if (data === undefined)
      throw new Error(`setup: ${method} ${path} failed for ${this.email}: ${[...this.recorder.errors.keys()].at(-1)}`);
    return data;
  }
}

function send(url, method, payload, headers) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode, json, cookies: res.headers['set-cookie'] ?? [] });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Signs a user in, activates it, gives it credits and one picture of its own to enlarge. */
async function setUp(user, db, code, png) {
  const me = await user.must('POST', '/auth/dev-login', { body: { email: user.email } });
  user.userId = me.userId;
  await user.must('POST', '/users/activate', { query: { inviteCode: code } });
  await grant(db, user.userId, GRANTED, 'RECHARGE', { key: `load-bench:${user.userId}` });
  const target = await user.must('GET', '/file/user/put-url', { query: { format: 'png' } });
  const put = await fetch(new URL(target.uploadUrl, user.base), { method: 'PUT', headers: target.headers, body: png });
  if (!put.ok) throw new Error(`setup: upload answered ${put.status}`);
  const asset = await user.must('POST', '/assert/uploadFileWithUrl', {
    body: { resKey: target.resKey, fileName: `shot-${user.index}.png` },
  });
  user.resKey = asset.resKey;
}

/** The pages a user opens and the calls each makes, with how often it opens them. */
function pages(host, counters) {
  const page = (size = 20) => ({ page: 1, pageSize: size });
  return [
    // A full reload: the shell asks who is signed in and the balance in the header.
    [12, (u) => Promise.all([u.read('GET', '/users/me'), u.read('GET', '/points/account')])],
    [14, (u) => u.read('POST', '/project/getProjects', { body: { ...page(), sort: 'newest' } })],
    [
      14,
      (u) =>
        Promise.all([
          u.read('POST', '/assert/folders/files', { body: { ...page(30), sort: 'newest' } }),
          u.read('GET', '/assert/statistics'),
        ]),
    ],
    [
      10,
      (u) =>
        Promise.all([
          u.read('GET', '/points/account'),
          u.read('POST', '/points/list', { body: { ...page(), operationType: 'used' } }),
          u.read('POST', '/points/list', { body: { ...page(), operationType: 'gained' } }),
        ]),
    ],
    // The enhance tool: its price, its history and the picture picker.
    [
      14,
      (u) =>
        Promise.all([
          u.read('GET', '/points/skuPrice', { query: { skuCode: SKU } }),
          u.read('POST', '/generation/history', { body: { tool: KIND, page: 1, pageSize: 10 } }),
          u.read('POST', '/assert/folders/files', { body: { ...page(30), status: 'completed', type: 'image', sort: 'newest' } }),
        ]),
    ],
    // The generation tools' catalogues.
    [
      10,
      (u) =>
        Promise.all([
          u.read('GET', '/video/models', { query: { mode: 'text' } }),
          u.read('GET', '/mis/product-background/list'),
          u.read('GET', '/image/getHumanInfo'),
          u.read('GET', '/image/getClothInfo'),
          u.read('GET', '/mis/product-demo'),
        ]),
    ],
    // Link to video's catalogues.
    [
      6,
      (u) =>
        Promise.all([
          u.read('GET', '/link-video/voices', { query: { language: 'en' } }),
          u.read('GET', '/link-video/music'),
          u.read('GET', '/link-video/captions'),
        ]),
    ],
    [5, (u) => u.read('GET', '/referral/info')],
    // A new project, opened, sometimes renamed.
    [
      7,
      async (u) => {
        const created = await u.write('POST', '/project/createProject', { body: { projectName: `Spring ad ${u.index}` } });
        if (!created) return;
        await u.read('GET', '/project/getProjectById', { query: { projectId: created.projectId } });
        if (Math.random() < 0.3)
          await u.write('POST', '/project/updateProjectFileInfo', {
            body: { projectId: created.projectId, fileName: `Summer ad ${u.index}` },
          });
      },
    ],
    // Enlarge a picture: the user's own, or (every fourth) one from a shop that takes it down before the worker runs.
    [
      8,
      async (u) => {
        if (u.tasks.filter((t) => !t.status).length >= MAX_RUNNING) return;
        const fails = counters.submits++ % 4 === 0;
        const body = fails ? { imageUrl: `${host.vanishingUrl()}`, scale: 2 } : { resKey: u.resKey, scale: 2 };
        const submitted = await u.write('POST', `/task/v1/${KIND}/submit`, { body });
        if (!submitted) return;
        u.tasks.push({ taskId: submitted.taskId, fails, submittedAt: performance.now(), polledAt: performance.now() });
        // The web app refreshes the balance after a charge.
        await u.read('POST', '/points/refresh');
      },
    ],
  ];
}

function picker(weighted) {
  const total = weighted.reduce((sum, [w]) => sum + w, 0);
  return () => {
    let r = Math.random() * total;
    for (const [w, visit] of weighted) {
      r -= w;
      if (r < 0) return visit;
    }
    return weighted.at(-1)[1];
  };
}

/** Queries the user's running tasks that are due a poll, as an open page does every 2 s. */
async function poll(user, turnarounds) {
  const due = user.tasks.filter((t) => !t.status && performance.now() - t.polledAt >= POLL_MS);
  await Promise.all(
    due.map(async (t) => {
      t.polledAt = performance.now();
      const state = await user.read('GET', `/task/v1/${KIND}/query`, { query: { taskId: t.taskId } });
      if (state && (state.status === 'SUCCESS' || state.status === 'FAILURE')) {
        t.status = state.status;
        turnarounds.push(performance.now() - t.submittedAt);
      }
    }),
  );
}

async function live(user, until, pick, thinkMs, turnarounds) {
  // Users arrive over the first think time rather than all in the same millisecond.
  await sleep(Math.random() * thinkMs);
  while (Date.now() < until) {
    await poll(user, turnarounds);
    await pick()(user);
    await sleep(thinkMs * (0.5 + Math.random()));
  }
}

/** Waits until every task submitted has ended, and answers each task's final row. */
async function drain(client, taskIds) {
  const until = Date.now() + DRAIN_TIMEOUT_MS;
  for (;;) {
    const { rows } = await client.query('select id, user_id, status from tasks where id = any($1::text[])', [taskIds]);
    if (rows.every((r) => r.status === 'SUCCESS' || r.status === 'FAILURE')) return rows;
    if (Date.now() > until)
      throw new Error(`${rows.filter((r) => r.status !== 'SUCCESS' && r.status !== 'FAILURE').length} tasks never ended`);
    await sleep(250);
  }
}

/**
 * Per user: the balance, the sum of its ledger rows, and what the bench gave it minus the price of each task it
 * submitted plus the price of each that failed. Answers the users whose three differ, and the total difference.
 */
async function drift(client, users, rows, price) {
  const balances = new Map(
    (await client.query('select user_id, available_points from points_accounts')).rows.map((r) => [r.user_id, r.available_points]),
  );
  const sums = new Map(
    (await client.query('select user_id, sum(points_change)::int as total from points_ledger group by user_id')).rows.map((r) => [
      r.user_id,
      r.total,
    ]),
  );
  let off = 0;
  let total = 0;
  for (const user of users) {
    const mine = rows.filter((r) => r.user_id === user.userId);
    const failed = mine.filter((r) => r.status === 'FAILURE').length;
    const expected = SIGNUP_CREDITS + GRANTED - price * mine.length + price * failed;
    const balance = balances.get(user.userId) ?? 0;
    const sum = sums.get(user.userId) ?? 0;
    const difference = Math.abs(balance - sum) + Math.abs(sum - expected);
    if (difference !== 0) off += 1;
    total += difference;
  }
  return { off, total };
}

const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : Number.NaN;
const sortedOf = (values) => [...values].sort((a, b) => a - b);
function latencyLine(label, sorted, width = 7) {
  const f = (v) => `${v.toFixed(1)} ms`;
  return `${label.padEnd(width)} ${String(sorted.length).padStart(6)} requests  p50 ${f(percentile(sorted, 50))}  p95 ${f(percentile(sorted, 95))}  p99 ${f(percentile(sorted, 99))}  max ${f(sorted.at(-1) ?? Number.NaN)}`;
}
/** The calls with the highest p99, slowest first. */
function slowestCalls(byCall, count) {
  const calls = [...byCall].map(([call, values]) => [call, sortedOf(values)]);
  calls.sort((a, b) => percentile(b[1], 99) - percentile(a[1], 99));
  return calls.slice(0, count).map(([call, sorted]) => latencyLine(`    ${call}`, sorted, 44));
}

async function main() {
  const { users: userCount, seconds, thinkMs, databaseUrl } = options();
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .png()
    .toBuffer();
  const host = await pictureHost(png);
  const name = `reelsmith_load_${randomBytes(6).toString('hex')}`;
  const server = await openDatabase({ databaseUrl });
  await server.client.query(`create database ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-load-'));
  const processes = [];
  let database;
  let exitCode = 0;
  try {
    database = await openDatabase({ databaseUrl: url.href });
    await migrate(database);
    const price = await priceOf(database.db, SKU);
    const env = {
      ...serverEnv({ databaseUrl: url.href, dataDir, allowHost: host.host, prefix: PREFIX }),
      SIGNUP_CREDITS: String(SIGNUP_CREDITS),
      // Every user signs in from this one address.
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    };
    const { api, worker } = await startApiAndWorker(env);
    processes.push(api, worker);

    const recorder = new Recorder();
    const codes = await createInviteCodes(database.db, { count: userCount, maxUses: 1 });
    const users = Array.from({ length: userCount }, (_, i) => new User(i, api.base, recorder));
    for (let i = 0; i < users.length; i += 10) {
      await Promise.all(users.slice(i, i + 10).map((u) => setUp(u, database.db, codes[u.index], png)));
    }

    const counters = { submits: 0 };
    const pick = picker(pages(host, counters));
    const turnarounds = [];
    const cpuBefore = processes.map((p) => cpuSeconds(p.child.pid));
    const benchCpuBefore = process.cpuUsage();
    recorder.begin();
    const until = Date.now() + seconds * 1000;
    await Promise.all(users.map((u) => live(u, until, pick, thinkMs, turnarounds)));
    recorder.end();
    const cpu = processes.map((p, i) => cpuSeconds(p.child.pid) - cpuBefore[i]);
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const load = loadAverage();

    const submitted = users.flatMap((u) => u.tasks.map((t) => ({ ...t, userId: u.userId })));
    const finishedInWindow = submitted.filter((t) => t.status).length;
    const drainStarted = performance.now();
    const rows = await drain(
      database.client,
      submitted.map((t) => t.taskId),
    );
    const drainSeconds = (performance.now() - drainStarted) / 1000;
    const byId = new Map(rows.map((r) => [r.id, r]));
    const failed = rows.filter((r) => r.status === 'FAILURE').length;
    const unexpected = submitted.filter((t) => (byId.get(t.taskId)?.status === 'FAILURE') !== t.fails).length;
    const { off, total } = await drift(database.client, users, rows, price);
    const findings = await auditLedger(database.db);
    const serverProblems = processes.flatMap((p) => p.lines.filter((l) => /"level":(40|50|60)/.test(l)));

    const errorCount = [...recorder.errors.values()].reduce((a, b) => a + b, 0);
    const turnaroundSorted = [...turnarounds].sort((a, b) => a - b);
    console.log(
      `Load: ${userCount} users for ${seconds} s (think ${thinkMs} ms ± 50 %) on one API and one worker process, PostgreSQL database ${name}`,
    );
    console.log(
      `  requests/s ${(recorder.requests / recorder.seconds).toFixed(1)} (${recorder.requests} in ${recorder.seconds.toFixed(1)} s)`,
    );
    console.log(latencyLine('  reads', sortedOf(recorder.latencies.read), 9));
    console.log(latencyLine('  writes', sortedOf(recorder.latencies.write), 9));
    console.log('  slowest calls (by p99):');
    for (const line of slowestCalls(recorder.byCall, 6)) console.log(line);
    console.log(`  errors ${errorCount}`);
    for (const [error, n] of [...recorder.errors].sort((a, b) => b[1] - a[1])) console.log(`    ${n} × ${error}`);
    console.log(
      `  tasks submitted ${submitted.length}, finished ${finishedInWindow} during the load and ${rows.length} after ${drainSeconds.toFixed(1)} s of draining ` +
        `(${rows.length - failed} succeeded, ${failed} failed and refunded; ${unexpected} not as meant); ` +
        `submit to seen finished p50 ${(percentile(turnaroundSorted, 50) / 1000).toFixed(1)} s, p95 ${(percentile(turnaroundSorted, 95) / 1000).toFixed(1)} s`,
    );
    console.log(`  drift ${total} (${off} of ${userCount} users off: balance vs ledger sum vs granted − charges + refunds)`);
    console.log(`  ledger audit findings ${findings.length}${findings.length ? `: ${findings.slice(0, 3).join('; ')}` : ''}`);
    console.log(
      `  CPU during the load: api ${cpu[0].toFixed(1)} s, worker ${cpu[1].toFixed(1)} s, bench ${((benchCpu.user + benchCpu.system) / 1e6).toFixed(1)} s; load average ${load}`,
    );
    console.log(`  server warnings and errors logged ${serverProblems.length}`);
    for (const line of serverProblems.slice(0, 5)) console.log(`    ${line.slice(0, 400)}`);
    // Correctness, not speed: a run with errors, drift or a task that ended otherwise than meant is not a clean run.
    if (errorCount > 0 || total > 0 || findings.length > 0 || unexpected > 0) exitCode = 1;
  } finally {
    for (const p of processes) p.child.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.exited));
    agent.destroy();
    await host.close();
    await database?.close();
    await server.client.query(`drop database if exists ${name} with (force)`);
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exitCode = exitCode;
}

await main();
