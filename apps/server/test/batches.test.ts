// Batches (decision "Batch"): 20 product links served on loopback, some failing, run to the end through the real
// task engine and the real link analysis (rendering stood in for by support/batchTasks.ts), with the charges and
// refunds checked in the ledger; the refusal up front; retrying failed rows; the per-user limit; the CSV; the zip,
// streamed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BATCHES_RUNNING_MAX, type Batch, type BatchQuote, errorMessage } from '@reelsmith/contract';
import { parse } from 'csv-parse/sync';
import { and, count, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batches, batchRows, projects, tasks, webhookDeliveries } from '../src/db/schema.js';
import { type BatchDriver, startBatchDriver } from '../src/modules/batches/driver.js';
import { linkAnalysisTask } from '../src/modules/link-video/analysis/task.js';
import { grant } from '../src/modules/points/ledger.js';
import { priceOf } from '../src/modules/points/prices.js';
import { claimTask } from '../src/modules/tasks/queue.js';
import { startWorker, type Worker } from '../src/modules/tasks/worker.js';
import { API, appOn, Browser } from './support/app.js';
import { batchTaskKinds } from './support/batchTasks.js';
import { testDatabases } from './support/databases.js';
import { activeMember, fixtureServer } from './support/files.js';
import { availableOf, expectConsistent } from './support/points.js';

const silent = { info() {}, warn() {}, error() {} };
const GOOD = 17;
const LIMIT = 2;

const productPage = (base: string, i: number) =>
  `<!doctype html><html lang="en"><head><title>Product ${i}</title>
<script type="application/ld+json">${JSON.stringify({
    '@type': 'Product',
    name: `Trail Bottle ${i}`,
    description: `Keeps water cold for ${i} hours.`,
    image: [`${base}/img/${i}.png`],
    offers: { '@type': 'Offer', price: `${10 + i}.00`, priceCurrency: 'USD' },
  })}</script></head><body><h1>Trail Bottle ${i}</h1></body></html>`;
const aboutPage =
  '<!doctype html><html lang="en"><head><title>About us</title></head><body><h1>About us</h1><p>Since 2016.</p></body></html>';

describe.each(testDatabases())('batches on $name', (testDb) => {
  const fixture = fixtureServer();
  const kinds = batchTaskKinds();
  const definitions = [linkAnalysisTask, ...kinds.definitions];
  const t = appOn(testDb, () => ({ OUTBOUND_ALLOW_HOSTS: fixture.host }), definitions);
  let worker: Worker;
  let driver: BatchDriver;
  let exportPrice: number;
  beforeAll(async () => {
    for (let i = 1; i <= GOOD; i++) {
      fixture.routes.set(`/p/${i}.html`, { type: 'text/html; charset=utf-8', body: Buffer.from(productPage(fixture.base, i)) });
      const background = { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 };
      const png = await sharp({ create: { width: 480, height: 640, channels: 3, background } })
        .png()
        .toBuffer();
      fixture.routes.set(`/img/${i}.png`, { type: 'image/png', body: png });
    }
    fixture.routes.set('/about.html', { type: 'text/html', body: Buffer.from(aboutPage) });
    worker = startWorker(t.ctx, definitions, { concurrency: 2, pollMs: 20, log: silent });
    driver = startBatchDriver(t.ctx, definitions, { concurrencyPerUser: LIMIT, pollMs: 20, log: silent });
    exportPrice = await priceOf(t.ctx.db, 'link2V_15s');
  });
  afterAll(async () => {
    await driver.stop();
    await worker.stop();
  });

  /** Waits for the batch to end, checking at every look that the user never has more than LIMIT rows or tasks in flight. */
  async function finished(browser: Browser, userId: string, batchId: string): Promise<Batch & { peakRows: number }> {
    let peakRows = 0;
    let peakTasks = 0;
    for (const until = Date.now() + 90_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 30))) {
      const [rows] = await t.ctx.db
        .select({ n: count() })
        .from(batchRows)
        .where(and(eq(batchRows.userId, userId), inArray(batchRows.status, ['analysing', 'rendering', 'exporting'])));
      const [running] = await t.ctx.db
        .select({ n: count() })
        .from(tasks)
        .where(and(eq(tasks.userId, userId), inArray(tasks.status, ['SUBMITTED', 'IN_PROGRESS'])));
      peakRows = Math.max(peakRows, rows?.n ?? 0);
      peakTasks = Math.max(peakTasks, running?.n ?? 0);
      const batch = (await browser.ok('GET', '/batch/get', { query: { batchId } })) as Batch;
      if (batch.status !== 'running') {
        // The limit held: never more than LIMIT of the user's rows, nor of their tasks, in flight.
        expect(peakRows).toBeLessThanOrEqual(LIMIT);
        expect(peakTasks).toBeLessThanOrEqual(LIMIT);
        return { ...batch, peakRows };
      }
    }
    throw new Error(`batch ${batchId} did not finish`);
  }

  const csvOf = (lines: string[]) => ['link,name,length,template', ...lines].join('\n');
  const goodLine = (i: number) => `${fixture.base}/p/${i}.html,,15,${i % 2 ? 'clean-studio' : 'bold-ugc'}`;

  let member: { browser: Browser; userId: string };
  let batchId: string;

  it('runs 20 links to the end: a project, an analysis, a preview and a charged export per good link, refunds for failures', async () => {
    member = await activeMember(t, 'catalogue');
    const { browser, userId } = member;
    await grant(t.ctx.db, userId, 30 * exportPrice, 'RECHARGE', { key: 'batch-test' });
    const hook = await browser.call('POST', '/webhooks/endpoints/create', {
      body: { url: `${fixture.base}/hook`, events: ['batch.finished'] },
    });
    expect(hook.body.code).toBe(0);
    const before = await availableOf(t.ctx.db, userId);
    kinds.failExports.add('Trail Bottle 3');
    const text = csvOf([
      ...Array.from({ length: GOOD }, (_, i) => goodLine(i + 1)),
      `${fixture.base}/gone/1.html,Gone one,,`,
      `${fixture.base}/gone/2.html,,,`,
      `${fixture.base}/about.html,,,`,
    ]);
    const quote = (await browser.ok('POST', '/batch/quote', { body: { text, options: { export: true } } })) as BatchQuote;
    expect(quote).toMatchObject({ rows: 20, creditsPerRow: exportPrice, credits: 20 * exportPrice, coverableRows: 20, problems: [] });

    const created = (await browser.ok('POST', '/batch/create', { body: { text, options: { export: true } } })) as Batch;
    batchId = created.batchId;
    expect(created.rows).toHaveLength(20);
    const batch = await finished(browser, userId, batchId);

    expect(batch.status).toBe('finished');
    // Rows ran side by side, up to the limit.
    expect(batch.peakRows).toBe(LIMIT);
    expect(batch.counts).toMatchObject({ total: 20, done: GOOD - 1, failed: 4, waiting: 0, running: 0 });
    const byRow = new Map(batch.rows.map((row) => [row.row, row]));
    for (let i = 1; i <= GOOD; i++) {
      const row = byRow.get(i);
      if (i === 3) {
        expect(row).toMatchObject({ status: 'failed', error: errorMessage('generationFailed', 'en'), exportUrl: null });
        continue;
      }
      expect(row).toMatchObject({ status: 'done', error: null, projectId: expect.any(String) });
      expect(row?.previewUrl).toMatch(/^\//);
      expect(row?.exportUrl).toMatch(/^\//);
      // The row's template went into its preview.
      expect(kinds.previews.get(`Trail Bottle ${i}`)?.editorConfig).toMatchObject({
        resultNum: 1,
        templateId: i % 2 ? 'clean-studio' : 'bold-ugc',
      });
    }
    expect(byRow.get(18)).toMatchObject({
      status: 'failed',
      name: 'Gone one',
      error: errorMessage('pageHttpError', 'en', { status: 404 }),
    });
    expect(byRow.get(20)).toMatchObject({ status: 'failed', error: errorMessage('noProductFound', 'en') });
    // A row without a name of its own is called as its project is: after its product.
    expect(byRow.get(5)?.name).toBe('Trail Bottle 5');
    // The reason in the reader's language.
    const zh = new Browser(t.app, 'zh');
    for (const [name, value] of browser.cookies) zh.cookies.set(name, value);
    const inChinese = (await zh.ok('GET', '/batch/get', { query: { batchId } })) as Batch;
    expect(inChinese.rows[19]?.error).toBe(errorMessage('noProductFound', 'zh'));

    // Every task the batch submitted names its row, so workers can put interactive tasks first.
    const submitted = await t.ctx.db
      .select({ batchRowId: tasks.batchRowId, kind: tasks.kind, key: tasks.idempotencyKey })
      .from(tasks)
      .where(eq(tasks.userId, userId));
    expect(submitted.length).toBeGreaterThanOrEqual(20 + GOOD);
    expect(submitted.filter((task) => task.batchRowId === null)).toEqual([]);
    // A project per row (the rows whose page was never read keep theirs for a retry), named after the product.
    const own = await t.ctx.db.select({ name: projects.name }).from(projects).where(eq(projects.userId, userId));
    expect(own).toHaveLength(20);
    expect(own.map((p) => p.name)).toContain('Trail Bottle 5');
    // 17 exports charged, the failed one refunded: 16 paid for; the ledger agrees with the balances.
    expect(await availableOf(t.ctx.db, userId)).toBe(before - (GOOD - 1) * exportPrice);
    await expectConsistent(t.ctx.db);
    // batch.finished, once, for the endpoint that asked for it.
    const events = await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, userId));
    expect(events.map((e) => e.event)).toEqual(['batch.finished']);
    expect((events[0]?.payload as { data?: unknown } | undefined)?.data).toMatchObject({
      batchId,
      status: 'finished',
      rows: 20,
      done: 16,
      failed: 4,
    });
  });

  it('answers the results as CSV through a signed link that needs no session', async () => {
    const { csvUrl } = (await member.browser.ok('GET', '/batch/downloads', { query: { batchId } })) as { csvUrl: string };
    const res = await t.app.inject({ method: 'GET', url: csvUrl });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const [header, ...rows] = parse(res.body, { bom: true }) as string[][];
    expect(header).toEqual(['row', 'link', 'project', 'status', 'error', 'preview_url', 'export_url']);
    expect(rows).toHaveLength(20);
    expect(rows[0]).toEqual([
      '1',
      `${fixture.base}/p/1.html`,
      expect.any(String),
      'done',
      '',
      expect.stringMatching(/^http/),
      expect.stringMatching(/^http/),
    ]);
    expect(rows[19]?.slice(3, 5)).toEqual(['failed', errorMessage('noProductFound', 'en')]);
    // Tampered with, or another user's: refused.
    expect((await t.app.inject({ method: 'GET', url: csvUrl.replace('batchId=', 'batchId=x') })).statusCode).toBe(403);
    const other = await activeMember(t, 'other');
    expect((await other.browser.call('GET', '/batch/downloads', { query: { batchId } })).body.code).toBe(404);
  });

  it('streams the zip of the exports: its first bytes arrive while a later video has not been read yet', async () => {
    const { zipUrl } = (await member.browser.ok('GET', '/batch/downloads', { query: { batchId } })) as { zipUrl: string };
    const batch = (await member.browser.ok('GET', '/batch/get', { query: { batchId } })) as Batch;
    const lastDone = batch.rows.filter((row) => row.status === 'done').at(-1);
    // The last video's stream is held open until the test has seen the zip's first bytes.
    const [lastRow] = await t.ctx.db
      .select({ exportTaskId: batchRows.exportTaskId })
      .from(batchRows)
      .where(and(eq(batchRows.batchId, batchId), eq(batchRows.position, lastDone?.row ?? 0)));
    const [lastTask] = await t.ctx.db
      .select({ result: tasks.result })
      .from(tasks)
      .where(eq(tasks.id, lastRow?.exportTaskId ?? ''));
    const lastKey = (lastTask?.result as { exportVideos: { resKey: string }[] } | undefined)?.exportVideos[0]?.resKey;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const read = t.ctx.storage.read.bind(t.ctx.storage);
    t.ctx.storage.read = async (key, range) => {
      if (key === lastKey) await gate;
      return read(key, range);
    };
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const work = mkdtempSync(join(tmpdir(), 'reelsmith-batch-zip-'));
    try {
      const res = await fetch(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${zipUrl}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const chunks: Uint8Array[] = [];
      let received = 0;
      // 15 videos of 64 KiB come before the held one: all of them arrive while it has sent nothing.
      while (received < 15 * 64 * 1024) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the zip ended while a video was still held');
        chunks.push(value);
        received += value.length;
      }
      expect(Buffer.from(chunks[0] as Uint8Array).subarray(0, 4)).toEqual(Buffer.from('PK\x03\x04', 'binary'));
      release();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        chunks.push(value);
      }
      const file = join(work, 'batch.zip');
      writeFileSync(file, Buffer.concat(chunks));
      const listing = spawnSync(
        'python3',
        [
          '-c',
          'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print("\\n".join(f"{i.filename} {i.file_size}" for i in z.infolist()))',
          file,
        ],
        { encoding: 'utf8' },
      );
      expect(listing.status, listing.stderr).toBe(0);
      const entries = listing.stdout.trim().split('\n');
      expect(entries).toHaveLength(GOOD - 1);
      expect(entries[0]).toBe(`01-Trail Bottle 1.mp4 ${64 * 1024}`);
    } finally {
      t.ctx.storage.read = read;
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('retries the failed rows: those that can succeed now do, and are charged then', async () => {
    const { browser, userId } = member;
    const before = await availableOf(t.ctx.db, userId);
    kinds.failExports.clear();
    for (const n of [1, 2])
      fixture.routes.set(`/gone/${n}.html`, { type: 'text/html', body: Buffer.from(productPage(fixture.base, 100 + n)) });
    for (const n of [101, 102]) fixture.routes.set(`/img/${n}.png`, fixture.routes.get('/img/1.png') as { type: string; body: Buffer });
    const retried = (await browser.ok('POST', '/batch/retry', { body: { batchId } })) as Batch;
    expect(retried.counts).toMatchObject({ waiting: 4, failed: 0, done: GOOD - 1 });
    const batch = await finished(browser, userId, batchId);
    expect(batch.counts).toMatchObject({ done: 19, failed: 1 });
    // The row's own name wins over the page's.
    expect(kinds.previews.has('Gone one')).toBe(true);
    expect(batch.rows.filter((row) => row.status === 'failed').map((row) => row.row)).toEqual([20]);
    expect(await availableOf(t.ctx.db, userId)).toBe(before - 3 * exportPrice);
    await expectConsistent(t.ctx.db);
  });

  it('refuses a batch the credits cannot cover, saying how many rows they can, and makes nothing', async () => {
    const { browser, userId } = await activeMember(t, 'short');
    await grant(t.ctx.db, userId, 2 * exportPrice, 'RECHARGE', { key: 'short' });
    const credits = await availableOf(t.ctx.db, userId);
    const coverable = Math.floor(credits / exportPrice);
    const text = Array.from({ length: coverable + 3 }, (_, i) => `${fixture.base}/p/${i + 1}.html`).join('\n');
    const quote = (await browser.ok('POST', '/batch/quote', { body: { text, options: { export: true } } })) as BatchQuote;
    expect(quote).toMatchObject({ rows: coverable + 3, availableCredits: credits, coverableRows: coverable });
    const refused = await browser.call('POST', '/batch/create', { body: { text, options: { export: true } } });
    expect(refused.body).toMatchObject({
      code: 40124,
      message: errorMessage('batchNotEnoughCredits', 'en', {
        rows: coverable + 3,
        needed: (coverable + 3) * exportPrice,
        available: credits,
        coverable,
      }),
    });
    expect(await t.ctx.db.select().from(batches).where(eq(batches.userId, userId))).toEqual([]);
    expect(await t.ctx.db.select().from(projects).where(eq(projects.userId, userId))).toEqual([]);
    expect(await availableOf(t.ctx.db, userId)).toBe(credits);
    // Previews alone cost nothing: the same rows without exports are accepted.
    const previewsOnly = await browser.call('POST', '/batch/create', { body: { text, options: { export: false } } });
    expect(previewsOnly.body.code).toBe(0);
    const cancelled = (await browser.ok('POST', '/batch/cancel', {
      body: { batchId: (previewsOnly.body.data as Batch).batchId },
    })) as Batch;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.rows.every((row) => row.status === 'cancelled' || row.status === 'done')).toBe(true);
    expect((await browser.call('POST', '/batch/retry', { body: { batchId: cancelled.batchId } })).body).toMatchObject({ code: 40125 });
    expect(await availableOf(t.ctx.db, userId)).toBe(credits);
  });

  it('runs at most three batches of a user at once: a fourth waits its turn with 429, and a cancel makes room', async () => {
    // Finding F3's batch rows: free previews let one user store batch after batch of rows nobody would run for hours.
    const { browser, userId } = await activeMember(t, 'many-batches');
    const text = `${fixture.base}/p/1.html`;
    const made: string[] = [];
    for (let i = 0; i < BATCHES_RUNNING_MAX; i++) {
      made.push(((await browser.ok('POST', '/batch/create', { body: { text, options: { export: false } } })) as Batch).batchId);
    }
    const refused = await browser.call('POST', '/batch/create', { body: { text, options: { export: false } } });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.body).toMatchObject({ code: 429, message: errorMessage('batchesBusy', 'en', { max: BATCHES_RUNNING_MAX }) });
    expect(await t.ctx.db.select().from(batches).where(eq(batches.userId, userId))).toHaveLength(BATCHES_RUNNING_MAX);
    await browser.ok('POST', '/batch/cancel', { body: { batchId: made[0] } });
    const next = await browser.call('POST', '/batch/create', { body: { text, options: { export: false } } });
    expect(next.body.code).toBe(0);
    for (const batchId of [...made.slice(1), (next.body.data as Batch).batchId])
      await browser.ok('POST', '/batch/cancel', { body: { batchId } });
  });

  it('reads plain links and the CSV, naming each bad row and the field at fault', async () => {
    const { browser } = member;
    const quote = async (text: string) => (await browser.ok('POST', '/batch/quote', { body: { text } })) as BatchQuote;
    expect(await quote(`\n${fixture.base}/p/1.html\n\n  ${fixture.base}/p/2.html  \n`)).toMatchObject({ rows: 2, problems: [] });
    const bad = await quote(
      csvOf([goodLine(1), `${fixture.base}/p/2.html,,20,`, 'not a link,,,', `${fixture.base}/p/3.html,"Quoted, name",,nope`]),
    );
    expect(bad.rows).toBe(1);
    expect(bad.problems).toEqual([
      { row: 2, message: 'Row 2: the length "20" cannot be used.' },
      { row: 3, message: 'Row 3: the link "not a link" cannot be used.' },
      { row: 4, message: 'Row 4: the template "nope" cannot be used.' },
    ]);
    expect((await quote('link,colour\nhttp://a.example/,red')).problems[0]?.message).toContain('"colour"');
    expect((await quote('link,name\n"http://a.example/,x')).problems[0]?.message).toContain('CSV');
    const refused = await browser.call('POST', '/batch/create', { body: { text: csvOf([goodLine(1), 'not a link,,,']) } });
    expect(refused.body).toMatchObject({ code: 40122, message: 'Row 2: the link "not a link" cannot be used.' });
    const tooMany = await browser.call('POST', '/batch/create', {
      body: { text: Array.from({ length: 501 }, (_, i) => `https://shop.example/${i}`).join('\n') },
    });
    expect(tooMany.body).toMatchObject({ code: 40121 });
    expect((await browser.call('POST', '/batch/create', { body: { text: '  \n' } })).body).toMatchObject({ code: 40120 });
  });

  it("lets a worker claim interactive tasks before a batch's, and keep a slot free of the batch's", async () => {
    const { userId } = member;
    const task = (id: string, batchRowId: string | null, ageMs: number) => ({
      id,
      userId,
      kind: 'enlarge-image',
      input: {},
      status: 'SUBMITTED' as const,
      batchRowId,
      createdAt: new Date(Date.now() - ageMs),
    });
    // The batch's task waited longer; the interactive one is claimed first all the same.
    await t.ctx.db.insert(tasks).values([task('batch-task', 'some-row', 60_000), task('interactive-task', null, 1_000)]);
    const claim = (interactiveOnly: boolean) => claimTask(t.ctx.db, ['enlarge-image'], 'test-worker', 30_000, interactiveOnly);
    expect((await claim(true))?.id).toBe('interactive-task');
    expect(await claim(true)).toBeUndefined();
    expect((await claim(false))?.id).toBe('batch-task');
    await t.ctx.db.delete(tasks).where(inArray(tasks.id, ['batch-task', 'interactive-task']));
  });

  it('serves the calls on the public API with a key', async () => {
    const { browser } = member;
    const { key } = (await browser.ok('POST', '/apiKey/create', { body: { name: 'catalogue' } })) as { key: string };
    const res = await t.app.inject({
      method: 'GET',
      url: `${API}/v1/public/batch/list`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.json()).toMatchObject({ code: 0, data: { list: [{ batchId, status: 'finished' }] } });
  });
});
