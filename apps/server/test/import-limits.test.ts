// How many URL imports run at once (decision "Import limits"): IMPORTS_PER_USER of one user, IMPORTS_PER_PROCESS in
// all. An API call past its user's limit is refused at once with 429 and a clear message, and changes nothing; another
// user is not held up; tasks of the user wait their turn instead of failing; past the process limit everyone waits. The
// files are served by a web site that answers only when the test lets it, so "running" is a fact, not a timing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ASSET_URL_TASK_SUCCESS, ERRORS } from '@reelsmith/contract';
import { makeImage } from '@reelsmith/media/fixtures';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../src/db/schema.js';
import { assetUrlImportTask } from '../src/modules/assets/urlImport.js';
import { ImportSlots } from '../src/modules/files/importSlots.js';
import { startWorker } from '../src/modules/tasks/worker.js';
import { appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, objectsOf } from './support/files.js';

/** A web site whose answers wait until released: `arrived` counts the requests it holds. */
function gatedSite() {
  const site = { base: '', host: '', arrived: 0, body: Buffer.alloc(0) as Buffer, release: () => {} };
  let held: (() => void)[] = [];
  const listeners: (() => void)[] = [];
  let server: Server;
  beforeAll(async () => {
    site.body = await makeImage(200, 150, 'png');
    server = createServer((_req, res) => {
      site.arrived++;
      for (const listener of listeners.splice(0)) listener();
      held.push(() => res.writeHead(200, { 'content-type': 'image/png', 'content-length': site.body.length }).end(site.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    site.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    site.base = `http://${site.host}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  site.release = () => {
    for (const answer of held) answer();
    held = [];
  };
  /** Resolves once `count` requests have arrived in all. */
  const arrivedAt = async (count: number) => {
    while (site.arrived < count) await new Promise<void>((resolve) => listeners.push(resolve));
  };
  return Object.assign(site, { arrivedAt });
}

/** Resolves once `check` holds, looking again whenever the event loop has turned. */
async function until(check: () => boolean) {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

describe('import slots', () => {
  it('waits for a user slot, lets other users past, and gives the slot of an aborted wait back', async () => {
    const slots = new ImportSlots(1, 2);
    const a1 = await slots.acquire('a', { wait: true });
    expect(() => slots.acquire('a', { wait: false })).toThrow(expect.objectContaining({ key: 'importsBusy', params: { limit: 1 } }));
    const stop = new AbortController();
    const aborted = slots.acquire('a', { wait: true, signal: stop.signal });
    const a2 = slots.acquire('a', { wait: true });
    const b1 = await slots.acquire('b', { wait: true });
    expect([slots.active, slots.waiting]).toEqual([2, 2]);
    stop.abort(new Error('cancelled'));
    await expect(aborted).rejects.toThrow('cancelled');
    a1();
    b1();
    (await a2)();
    expect([slots.active, slots.waiting]).toEqual([0, 0]);
  });
});

describe.each(testDatabases())('URL imports at once on $name', (testDb) => {
  const site = gatedSite();
  const t = appOn(testDb, () => ({ OUTBOUND_ALLOW_HOSTS: site.host, IMPORTS_PER_USER: '2', IMPORTS_PER_PROCESS: '3' }), [
    assetUrlImportTask,
  ]);
  const importInto = (browser: Browser, projectId: string, name: string) =>
    browser.call('POST', '/link-video/file/upload', { body: { projectId, urls: [`${site.base}/${name}.png`] } });
  const project = async (browser: Browser) =>
    ((await browser.ok('POST', '/project/createProject', { body: { projectName: 'Imports' } })) as { projectId: string }).projectId;
  const filesOf = (userId: string) => t.ctx.db.select().from(files).where(eq(files.userId, userId));

  it('refuses a third import call of a user at once with 429, while another user goes ahead, and past the process limit all wait', async () => {
    const slots = t.ctx.importSlots;
    const a = await activeMember(t);
    const b = await activeMember(t);
    const [projectA, projectB] = [await project(a.browser), await project(b.browser)];
    const start = site.arrived;
    const running = [importInto(a.browser, projectA, 'a1'), importInto(a.browser, projectA, 'a2')];
    await site.arrivedAt(start + 2);

    const refused = await a.browser.call('POST', '/link-video/file/upload', {
      body: { projectId: projectA, urls: [`${site.base}/a3.png`] },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: ERRORS.importsBusy.code,
      message: '您已有 2 个导入正在进行。请等待其中一个完成后再试。',
      data: null,
    });
    expect(site.arrived).toBe(start + 2);

    // Another user is not held up by the first one's imports.
    const other = importInto(b.browser, projectB, 'b1');
    await site.arrivedAt(start + 3);
    // The process runs 3 at once: a fourth import, of a user below their limit, waits its turn.
    const c = await activeMember(t);
    const waiting = importInto(c.browser, await project(c.browser), 'c1');
    await until(() => slots.waiting === 1);
    expect(site.arrived).toBe(start + 3);
    site.release();
    await site.arrivedAt(start + 4);
    site.release();

    for (const answer of await Promise.all([...running, other, waiting])) expect(answer.body.code).toBe(0);
    expect(await filesOf(a.userId)).toHaveLength(2);
    expect(objectsOf(t.ctx, a.userId)).toHaveLength(4);
    expect([slots.active, slots.waiting]).toEqual([0, 0]);
  });

  it('lets a user task wait for a slot instead of failing', async () => {
    const slots = t.ctx.importSlots;
    const worker = startWorker(t.ctx, [assetUrlImportTask], { concurrency: 3, pollMs: 20, log: t.app.log });
    try {
      const { browser, userId } = await activeMember(t);
      const start = site.arrived;
      const ids = [];
      for (const name of ['t1', 't2', 't3']) {
        const { fileId } = (await browser.ok('POST', '/assert/url-task', { body: { url: `${site.base}/${name}.png` } })) as {
          fileId: string;
        };
        ids.push(fileId);
      }
      await site.arrivedAt(start + 2);
      await until(() => slots.waiting === 1);
      site.release();
      await site.arrivedAt(start + 3);
      site.release();
      for (const fileId of ids) {
        let state = { status: 0 };
        while (state.status !== ASSET_URL_TASK_SUCCESS && state.status !== -1) {
          state = (await browser.ok('GET', '/assert/url-task', { query: { fileId } })) as { status: number };
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(state.status).toBe(ASSET_URL_TASK_SUCCESS);
      }
      expect((await filesOf(userId)).filter((row) => row.status === 'completed')).toHaveLength(3);
    } finally {
      await worker.stop();
    }
  });
});
