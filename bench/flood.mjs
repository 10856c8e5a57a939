// The flood scenario of the load bench (`node bench/load.mjs --flood`, decision "Fair share of the workers"): ten
// users each make pictures with a real task (enlarge-image on a picture of their own: submit, poll every 500 ms until
// it ends, think a second, again) for a while on a quiet server, then again while an eleventh user keeps their share
// of the queue full through the public API with an API key, submitting as fast as it is let and retrying a refusal
// after a second instead of the Retry-After it is told. Prints the ten users' turnaround (submit to seen finished),
// quiet and flooded, the ratio of the p95s, and what the flooder got through. One ROLE=api and one ROLE=worker
// process of main.ts on a fresh PostgreSQL database. Figures only: nothing here asserts a timing.
//
// Run from the repo root: node bench/flood.mjs [--seconds 60] (BENCH_SECONDS); BENCH_DATABASE_URL as load.mjs.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { register } from 'tsx/esm/api';
import { loadAverage, serverEnv, startApiAndWorker } from './proc.mjs';

register();
const { openDatabase } = await import('../apps/server/src/db/client.ts');
const { migrate } = await import('../apps/server/src/db/migrate.ts');
const { createInviteCodes } = await import('../apps/server/src/modules/invites/service.ts');
const { grant } = await import('../apps/server/src/modules/points/ledger.ts');

const PREFIX = 'reelsmith';
const KIND = 'enlarge-image';
const OTHERS = 10;
const POLL_MS = 500;
const THINK_MS = 1_000;

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const SECONDS = Number(flag('seconds') ?? process.env.BENCH_SECONDS ?? 60);
const DATABASE_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A caller of the API: a browser (cookie, `client: WEB`, Origin) or an API key on the public API. */
function caller(base, { key } = {}) {
  let cookie = '';
  return async (method, path, { query, body } = {}) => {
    const url = new URL(`${base}/${PREFIX}/api${key ? '/v1/public' : ''}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, String(v));
    const headers = key ? { authorization: `Bearer ${key}` } : { client: 'WEB', origin: base, ...(cookie && { cookie }) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const session = res.headers.getSetCookie().find((c) => c.startsWith(`${PREFIX}_session=`));
    if (session) cookie = session.split(';')[0];
    return { status: res.status, retryAfter: res.headers.get('retry-after'), ...(await res.json()) };
  };
}

async function member(base, db, code, email, png) {
  const call = caller(base);
  const me = await call('POST', '/auth/dev-login', { body: { email } });
  await call('POST', '/users/activate', { query: { inviteCode: code } });
  await grant(db, me.data.userId, 1_000_000, 'RECHARGE', { key: `flood-bench:${me.data.userId}` });
  const target = (await call('GET', '/file/user/put-url', { query: { format: 'png' } })).data;
  const put = await fetch(new URL(target.uploadUrl, base), { method: 'PUT', headers: target.headers, body: png });
  if (!put.ok) throw new Error(`upload answered ${put.status}`);
  const asset = await call('POST', '/assert/uploadFileWithUrl', { body: { resKey: target.resKey, fileName: 'shot.png' } });
  return { call, userId: me.data.userId, resKey: asset.data.resKey };
}

/** One user's loop until `until`: a task, polled to its end, then a second of thought. Answers the turnarounds. */
async function makePictures(user, until) {
  const turnarounds = [];
  await sleep(Math.random() * THINK_MS);
  while (Date.now() < until) {
    const began = performance.now();
    const submitted = await user.call('POST', `/task/v1/${KIND}/submit`, { body: { resKey: user.resKey, scale: 2 } });
    if (submitted.code !== 0) throw new Error(`a user's submit was refused: ${submitted.message}`);
    for (;;) {
      await sleep(POLL_MS);
      const state = await user.call('GET', `/task/v1/${KIND}/query`, { query: { taskId: submitted.data.taskId } });
      if (state.data?.status === 'SUCCESS' || state.data?.status === 'FAILURE') break;
    }
    turnarounds.push(performance.now() - began);
    await sleep(THINK_MS * (0.5 + Math.random()));
  }
  return turnarounds;
}

/** The flooder: submits as fast as it is let, and after a refusal tries again in a second. */
async function flood(flooder, until, counts) {
  while (Date.now() < until) {
    const answer = await flooder.call('POST', `/task/v1/${KIND}/submit`, { body: { resKey: flooder.resKey, scale: 2 } });
    if (answer.code === 0) counts.accepted++;
    else if (answer.status === 429) {
      counts.refused++;
      counts.retryAfter = answer.retryAfter;
      await sleep(1_000);
    } else throw new Error(`the flooder's submit answered ${answer.status} ${answer.message}`);
  }
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : Number.NaN;
};
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .png()
    .toBuffer();
  const name = `reelsmith_flood_${randomBytes(6).toString('hex')}`;
  const server = await openDatabase({ databaseUrl: DATABASE_URL });
  await server.client.query(`create database ${name}`);
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-flood-'));
  let processes = [];
  let database;
  try {
    database = await openDatabase({ databaseUrl: url.href });
    await migrate(database);
    // Nothing here is fetched from outside (the pictures are uploaded): the allowed host is a closed port.
    const env = { ...serverEnv({ databaseUrl: url.href, dataDir, allowHost: '127.0.0.1:9' }), AUTH_RATE_LIMIT_PER_MINUTE: '1000000' };
    const { api, worker } = await startApiAndWorker(env);
    processes = [api, worker];
    const codes = await createInviteCodes(database.db, { count: OTHERS + 1, maxUses: 1 });
    const users = [];
    for (let i = 0; i < OTHERS; i++) users.push(await member(api.base, database.db, codes[i], `other-${i}@bench.example`, png));
    const flooderBrowser = await member(api.base, database.db, codes[OTHERS], 'flooder@bench.example', png);
    const { key } = (await flooderBrowser.call('POST', '/apiKey/create', { body: { name: 'flood' } })).data;
    const flooder = { call: caller(api.base, { key }), resKey: flooderBrowser.resKey };

    const quietUntil = Date.now() + SECONDS * 1000;
    const quiet = (await Promise.all(users.map((u) => makePictures(u, quietUntil)))).flat();
    const counts = { accepted: 0, refused: 0, retryAfter: null };
    const floodUntil = Date.now() + SECONDS * 1000;
    const [flooded] = await Promise.all([
      Promise.all(users.map((u) => makePictures(u, floodUntil))).then((all) => all.flat()),
      flood(flooder, floodUntil, counts),
    ]);
    const ratio = percentile(flooded, 95) / percentile(quiet, 95);
    console.log(
      `Flood: ${OTHERS} users making pictures (${KIND}) for ${SECONDS} s quiet, then ${SECONDS} s beside a flooder, one API and one worker process`,
    );
    console.log(
      `  quiet:   ${quiet.length} tasks, turnaround p50 ${seconds(percentile(quiet, 50))}, p95 ${seconds(percentile(quiet, 95))}`,
    );
    console.log(
      `  flooded: ${flooded.length} tasks, turnaround p50 ${seconds(percentile(flooded, 50))}, p95 ${seconds(percentile(flooded, 95))}`,
    );
    console.log(`  p95 flooded / quiet: ${ratio.toFixed(2)} (target ≤ 2)`);
    console.log(
      `  the flooder, by API key: ${counts.accepted} submits accepted, ${counts.refused} refused with 429 (Retry-After ${counts.retryAfter})`,
    );
    console.log(`  load average ${loadAverage()}`);
  } finally {
    for (const p of processes) p.child.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.exited));
    await database?.close();
    await server.client.query(`drop database if exists ${name} with (force)`);
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
