// A batch of 100 small products, previews only (decision "Batch"), through ONE ROLE=api and ONE ROLE=worker
// process of main.ts on a fresh PostgreSQL database: the product pages are served on loopback, each analysed and
// previewed once by the real tasks. While it runs, the batch's owner and then another user submit an interactive
// analysis and then a single preview, three times (at 10 %, 40 % and 70 % of the rows), and the bench reads how long
// each waited in the queue before a worker started it (the task's started_at − created_at). Prints the batch's time
// per row, the rows' own durations, the peak memory of the processes, and those waits (target: a preview starts
// within 5 s). Figures only: nothing here asserts a timing.
//
// Run from the repo root: node bench/batch.mjs [--rows 100]. BENCH_ROWS and BENCH_DATABASE_URL (default
// TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test) do the same; the run gets a database of its own
// beside the one named, dropped afterwards. BATCH_CONCURRENCY_PER_USER and WORKER_CONCURRENCY pass to the processes.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { register } from 'tsx/esm/api';
import { childrenRss, loadAverage, serverEnv, startApiAndWorker } from './proc.mjs';

register();
const { openDatabase } = await import('../apps/server/src/db/client.ts');
const { migrate } = await import('../apps/server/src/db/migrate.ts');
const { createInviteCodes } = await import('../apps/server/src/modules/invites/service.ts');

const PREFIX = 'reelsmith';
const PROBES_AT = [0.1, 0.4, 0.7];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function options() {
  const args = process.argv.slice(2);
  const i = args.indexOf('--rows');
  const rows = Number((i >= 0 ? args[i + 1] : undefined) ?? process.env.BENCH_ROWS ?? 100);
  if (!Number.isInteger(rows) || rows < 1 || rows > 500) throw new Error('--rows must be 1 to 500');
  return {
    rows,
    databaseUrl: process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  };
}

/** A shop on loopback: `/p/<n>.html` a small product page with one picture of its own, `/img/<n>.png`. */
async function shop() {
  const pictures = new Map();
  const picture = async (n) => {
    if (!pictures.has(n)) {
      const background = { r: (n * 67) % 256, g: (n * 31) % 256, b: (n * 97) % 256 };
      pictures.set(
        n,
        await sharp({ create: { width: 480, height: 640, channels: 3, background } })
          .png()
          .toBuffer(),
      );
    }
    return pictures.get(n);
  };
  let base = '';
  const page = (n) => `<!doctype html><html lang="en"><head><title>Trail Bottle ${n}</title>
<script type="application/ld+json">${JSON.stringify({
    '@type': 'Product',
    name: `Trail Bottle ${n}`,
    description: `Keeps water cold for ${12 + (n % 24)} hours. Leak-proof lid. Fits every cup holder.`,
    image: [`${base}/img/${n}.png`],
    offers: { '@type': 'Offer', price: `${10 + (n % 50)}.00`, priceCurrency: 'USD' },
  })}</script></head><body><h1>Trail Bottle ${n}</h1></body></html>`;
  const server = http.createServer(async (req, res) => {
    const url = req.url ?? '';
    const html = /^\/p\/(\d+)\.html$/.exec(url);
    if (html) return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(Number(html[1])));
    const png = /^\/img\/(\d+)\.png$/.exec(url);
    if (png) return res.writeHead(200, { 'content-type': 'image/png' }).end(await picture(Number(png[1])));
    res.writeHead(404).end('not here');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${server.address().port}`;
  base = `http://${host}`;
  return { host, link: (n) => `${base}/p/${n}.html`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A signed-in user of the web app: its cookie, the `client: WEB` header and our Origin on every call. */
class User {
  cookie = '';
  constructor(base, email) {
    this.base = base;
    this.email = email;
  }
  async call(method, path, { query, body } = {}) {
    const url = new URL(`${this.base}/${PREFIX}/api${path}`);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
    const res = await fetch(url, {
      method,
      headers: { client: 'WEB', origin: this.base, cookie: this.cookie, ...(body && { 'content-type': 'application/json' }) },
      body: body && JSON.stringify(body),
    });
    const set = res.headers.getSetCookie().map((c) => c.split(';')[0]);
    if (set.length) this.cookie = set.join('; ');
    const json = await res.json();
    if (json.code !== 0) throw new Error(`${method} ${path}: ${json.code} ${json.message}`);
    return json.data;
  }
  async signIn(code) {
    this.userId = (await this.call('POST', '/auth/dev-login', { body: { email: this.email } })).userId;
    await this.call('POST', '/users/activate', { query: { inviteCode: code } });
  }
}

/** Peak resident memory (VmHWM) of one process, from /proc. */
const peakOf = (pid) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * An interactive user's turn: a project, its analysis, then one preview from what the analysis found, as the web
 * app submits them. Answers how long each task waited for a worker.
 */
async function interactive(user, db, link) {
  const wait = async (kind, taskId) => {
    for (;;) {
      const task = await user.call('GET', `/task/v1/${kind}/query`, { query: { taskId } });
      if (task.status === 'SUCCESS' || task.status === 'FAILURE') return task;
      await sleep(200);
    }
  };
  const queued = async (taskId) => {
    const { rows } = await db.client.query('select extract(epoch from started_at - created_at) * 1000 as ms from tasks where id = $1', [
      taskId,
    ]);
    return Number(rows[0]?.ms);
  };
  const { projectId } = await user.call('POST', '/project/createProject', { body: {} });
  const analysis = await user.call('POST', '/task/v1/link-analysis/submit', { body: { projectId, productLink: link } });
  const product = await wait('link-analysis', analysis.taskId);
  const preview = await user.call('POST', '/task/v1/link-video/submit', {
    body: {
      projectId,
      productLink: link,
      productName: product.productName,
      productDescription: product.productDescription,
      fileIds: product.productImages.map((m) => m.fileId),
      editorConfig: { videoLength: 15, aspectRatio: '9:16', resultNum: 1 },
    },
  });
  await wait('link-video', preview.taskId);
  return { analysis: await queued(analysis.taskId), preview: await queued(preview.taskId) };
}

async function main() {
  const { rows, databaseUrl } = options();
  const site = await shop();
  const name = `reelsmith_batch_${randomBytes(6).toString('hex')}`;
  const server = await openDatabase({ databaseUrl });
  await server.client.query(`create database ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-batch-bench-'));
  const processes = [];
  let database;
  try {
    database = await openDatabase({ databaseUrl: url.href });
    await migrate(database);
    const { api, worker } = await startApiAndWorker(serverEnv({ databaseUrl: url.href, dataDir, allowHost: site.host, prefix: PREFIX }));
    processes.push(api, worker);

    const codes = await createInviteCodes(database.db, { count: 2, maxUses: 1 });
    const owner = new User(api.base, 'catalogue@example.com');
    const other = new User(api.base, 'shopper@example.com');
    await owner.signIn(codes[0]);
    await other.signIn(codes[1]);

    let peakRss = 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, childrenRss());
    }, 250);
    const text = Array.from({ length: rows }, (_, i) => site.link(i + 1)).join('\n');
    const began = performance.now();
    const { batchId } = await owner.call('POST', '/batch/create', { body: { text, options: { export: false } } });
    const probes = [];
    const pending = [];
    let batch;
    for (;;) {
      batch = await owner.call('GET', '/batch/get', { query: { batchId } });
      const ended = batch.counts.done + batch.counts.failed + batch.counts.cancelled;
      while (probes.length < PROBES_AT.length && ended >= PROBES_AT[probes.length] * rows) {
        const n = probes.length;
        probes.push(n);
        // The batch's owner, then someone else, each a product of their own: one user's preview at a time.
        pending.push(
          (async () => {
            const mine = await interactive(owner, database, site.link(1000 + n));
            const theirs = await interactive(other, database, site.link(2000 + n));
            return { at: PROBES_AT[n], mine, theirs };
          })(),
        );
      }
      if (batch.status !== 'running') break;
      await sleep(500);
    }
    const elapsed = performance.now() - began;
    const waits = await Promise.all(pending);
    clearInterval(sampler);

    const { rows: durations } = await database.client.query(
      `select extract(epoch from r.updated_at - t.created_at) * 1000 as ms
       from batch_rows r join tasks t on t.idempotency_key = 'batch:' || r.id || ':' || r.attempt || ':link-analysis'
       where r.batch_id = $1 and r.status = 'done' order by 1`,
      [batchId],
    );
    const sorted = durations.map((d) => Number(d.ms)).sort((a, b) => a - b);
    console.log(`batch of ${rows} products, previews only, one API and one worker process on PostgreSQL (load ${loadAverage()})`);
    console.log(`  rows:            ${batch.counts.done} done, ${batch.counts.failed} failed`);
    console.log(
      `  whole batch:     ${seconds(elapsed)}, ${seconds(elapsed / rows)} per row (${((rows / elapsed) * 60_000).toFixed(1)} rows/min)`,
    );
    console.log(
      `  one row:         p50 ${seconds(percentile(sorted, 50))}, p95 ${seconds(percentile(sorted, 95))} from its analysis submitted to its preview done`,
    );
    console.log(
      `  peak memory:     ${mib(peakRss)} all processes (node processes' own peaks: api ${mib(peakOf(api.child.pid))}, worker ${mib(peakOf(worker.child.pid))})`,
    );
    for (const { at, mine, theirs } of waits) {
      console.log(
        `  at ${String(at * 100).padStart(2)} % of rows:  owner's analysis waited ${seconds(mine.analysis)}, preview ${seconds(mine.preview)}; ` +
          `another user's analysis ${seconds(theirs.analysis)}, preview ${seconds(theirs.preview)}`,
      );
    }
    const all = waits.flatMap((w) => [w.mine.preview, w.theirs.preview]);
    console.log(`  interactive previews started within ${seconds(Math.max(...all))} (target 5 s)`);
  } finally {
    for (const proc of processes) proc.child.kill('SIGTERM');
    await Promise.all(processes.map((proc) => proc.exited));
    await database?.close();
    await server.client.query(`drop database if exists ${name} with (force)`);
    await server.close();
    await site.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
