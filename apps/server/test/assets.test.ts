import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ASSET_URL_TASK_FAILURE, ASSET_URL_TASK_SUCCESS, ERRORS, type LibraryAsset } from '@reelsmith/contract';
import { locateTools } from '@reelsmith/media';
import { makeImage, makeVideo } from '@reelsmith/media/fixtures';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../src/db/schema.js';
import { assetUrlImportTask } from '../src/modules/assets/urlImport.js';
import { filesDirOf } from '../src/modules/files/storage/index.js';
import { fileKey, thumbKey } from '../src/modules/files/storage/keys.js';
import { startWorker, type Worker } from '../src/modules/tasks/worker.js';
import { appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, fixtureServer, objectsOf, upload, workFiles } from './support/files.js';

const work = mkdtempSync(join(tmpdir(), 'reelsmith-assets-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const media = {} as Record<'png' | 'jpeg' | 'mp4', Buffer>;
beforeAll(async () => {
  media.png = await makeImage(400, 300, 'png');
  media.jpeg = await makeImage(300, 400, 'jpeg');
  media.mp4 = readFileSync(await makeVideo(locateTools(), join(work, 'clip.mp4'), { seconds: 1 }));
});

interface UrlTaskState {
  status: number;
  fileKey: string | null;
  fileUrl: string | null;
  errorMsg: string | null;
}

describe.each(testDatabases())('the assets library on $name', (testDb) => {
  const fixtures = fixtureServer();
  const t = appOn(testDb, () => ({ OUTBOUND_ALLOW_HOSTS: fixtures.host }), [assetUrlImportTask]);
  let worker: Worker;
  beforeAll(() => {
    fixtures.routes.set('/shop/bottle.png', { type: 'image/png', body: media.png });
    fixtures.routes.set('/shop/fake.png', { type: 'image/png', body: Buffer.from('<?php system($_GET["c"]); ?>') });
    worker = startWorker(t.ctx, [assetUrlImportTask], { concurrency: 2, pollMs: 50, log: t.app.log });
  });
  afterAll(() => worker.stop());

  const stored = async (browser: Browser, bytes: Buffer, format: string, fileName: string) => {
    const answer = await upload(t, browser, bytes, format, fileName);
    if (answer.body.code !== 0) throw new Error(answer.body.message);
    return answer.body.data as LibraryAsset;
  };
  const list = async (browser: Browser, body: Record<string, unknown> = {}) =>
    (await browser.ok('POST', '/assert/folders/files', { body: { page: 1, pageSize: 20, ...body } })) as {
      list: LibraryAsset[];
      total: number;
    };
  const names = (page: { list: LibraryAsset[] }) => page.list.map((a) => a.fileName);
  const fileRow = async (fileId: string) => (await t.ctx.db.select().from(files).where(eq(files.id, fileId)))[0];

  async function importUrl(browser: Browser, url: string) {
    return ((await browser.ok('POST', '/assert/url-task', { body: { url } })) as { fileId: string }).fileId;
  }
  /** Polls the URL task like the web app (every 50 ms here) until it is no longer running. */
  async function settled(browser: Browser, fileId: string): Promise<UrlTaskState> {
    for (let i = 0; i < 400; i++) {
      const state = (await browser.ok('GET', '/assert/url-task', { query: { fileId } })) as UrlTaskState;
      if (state.status === ASSET_URL_TASK_SUCCESS || state.status === ASSET_URL_TASK_FAILURE) return state;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`URL task of ${fileId} did not finish`);
  }

  /** A library of five: three uploads, a URL import, a failed one; created a minute apart in this order. */
  async function library() {
    const member = await activeMember(t, 'library');
    const { browser } = member;
    const ids = [
      (await stored(browser, media.png, 'png', 'one.png')).fileId,
      (await stored(browser, media.mp4, 'mp4', 'two.mp4')).fileId,
      (await stored(browser, media.jpeg, 'jpg', 'three.jpg')).fileId,
    ];
    const imported = await importUrl(browser, `${fixtures.base}/shop/bottle.png`);
    expect((await settled(browser, imported)).status).toBe(ASSET_URL_TASK_SUCCESS);
    const failed = await importUrl(browser, `${fixtures.base}/shop/gone.png`);
    expect((await settled(browser, failed)).status).toBe(ASSET_URL_TASK_FAILURE);
    ids.push(imported, failed);
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (const [i, id] of ids.entries()) {
      await t.ctx.db
        .update(files)
        .set({ createdAt: new Date(start + i * 60_000) })
        .where(eq(files.id, id));
    }
    return { ...member, ids };
  }

  describe('list', () => {
    it('lists only the caller files, newest or oldest first, a page at a time', async () => {
      const { browser } = await library();
      await stored((await activeMember(t)).browser, media.png, 'png', 'somebody else.png');
      const all = await list(browser);
      expect(all.total).toBe(5);
      expect(names(all)).toEqual(['gone.png', 'bottle.png', 'three.jpg', 'two.mp4', 'one.png']);
      expect(names(await list(browser, { sort: 'oldest', page: 2, pageSize: 2 }))).toEqual(['three.jpg', 'bottle.png']);
      const last = await list(browser, { page: 3, pageSize: 2 });
      expect([names(last), last.total]).toEqual([['one.png'], 5]);
    });

    it('filters by type, source and status', async () => {
      const { browser, ids } = await library();
      expect(names(await list(browser, { type: 'image' }))).toEqual(['bottle.png', 'three.jpg', 'one.png']);
      expect(names(await list(browser, { type: 'video' }))).toEqual(['two.mp4']);
      expect(names(await list(browser, { source: 'url' }))).toEqual(['gone.png', 'bottle.png']);
      expect(names(await list(browser, { source: 'local', type: 'image', sort: 'oldest' }))).toEqual(['one.png', 'three.jpg']);
      // A tool's output, as the library cards call it "Generated", is a source to filter by as well.
      await t.ctx.db
        .update(files)
        .set({ source: 'generated' })
        .where(eq(files.id, ids[2] as string));
      expect(names(await list(browser, { source: 'generated' }))).toEqual(['three.jpg']);
      expect(names(await list(browser, { source: 'local', type: 'image' }))).toEqual(['one.png']);
      const failed = await list(browser, { status: 'failed' });
      expect(failed.list).toEqual([
        expect.objectContaining({
          fileName: 'gone.png',
          status: 'failed',
          source: 'url',
          type: null,
          fileUrl: null,
          thumbnailUrl: null,
          resKey: null,
          errorMsg: 'Import failed: the address answered with HTTP 404.',
          sourceUrl: `${fixtures.base}/shop/gone.png`,
        }),
      ]);
      expect((await list(browser, { status: 'completed' })).total).toBe(4);
      const bad = await browser.call('POST', '/assert/folders/files', { body: { page: 1, pageSize: 20, type: 'audio' } });
      expect(bad.body.code).toBe(ERRORS.validation.code);
    });
  });

  it('renames the caller file only, within 1 to 255 characters', async () => {
    const { browser, ids } = await library();
    const [first] = ids as [string];
    await browser.ok('POST', '/assert/rename', { body: { fileId: first, fileName: '  Hero shot  ' } });
    expect((await fileRow(first))?.name).toBe('Hero shot');
    for (const fileName of ['   ', 'x'.repeat(256)]) {
      expect((await browser.call('POST', '/assert/rename', { body: { fileId: first, fileName } })).body.code).toBe(ERRORS.validation.code);
    }
    const stranger = await activeMember(t);
    expect((await stranger.browser.call('POST', '/assert/rename', { body: { fileId: first, fileName: 'mine' } })).body.code).toBe(404);
    expect((await fileRow(first))?.name).toBe('Hero shot');
  });

  it('deletes all the given files with their stored objects, or none when one is not the caller', async () => {
    const { browser, userId, ids } = await library();
    const strangersFile = (await stored((await activeMember(t)).browser, media.png, 'png', 'theirs.png')).fileId;
    const [one, two, three] = ids as [string, string, string];
    const refused = await browser.call('POST', '/assert/delete', { body: { fileIds: [one, strangersFile] } });
    expect(refused.body.code).toBe(404);
    expect(await fileRow(one)).toBeDefined();
    expect(await fileRow(strangersFile)).toBeDefined();

    const objectsBefore = objectsOf(t.ctx, userId);
    expect(objectsBefore).toContain(`${one}.png`);
    await browser.ok('POST', '/assert/delete', { body: { fileIds: [one, two, one] } });
    expect(await fileRow(one)).toBeUndefined();
    expect(await fileRow(two)).toBeUndefined();
    expect(objectsOf(t.ctx, userId).sort()).toEqual(objectsBefore.filter((key) => !key.startsWith(one) && !key.startsWith(two)).sort());
    expect(objectsOf(t.ctx, userId)).toContain(`${three}.jpg`);
  });

  it('maps the caller stored files to URLs, leaving out others, drafts and failed imports', async () => {
    const { browser, ids } = await library();
    const strangersFile = (await stored((await activeMember(t)).browser, media.png, 'png', 'theirs.png')).fileId;
    const urls = (await browser.ok('POST', '/assert/urls', { body: { fileIds: [...ids, strangersFile] } })) as Record<string, string>;
    expect(Object.keys(urls).sort()).toEqual(ids.slice(0, 4).sort());
    const res = await t.app.inject({ method: 'GET', url: urls[ids[0] as string] as string });
    expect(res.rawPayload.equals(media.png)).toBe(true);
  });

  it('counts the caller files, images, videos, projects, and every byte stored with the quota', async () => {
    const { browser, userId } = await library();
    await browser.ok('POST', '/project/createProject', { body: { projectName: 'One' } });
    await stored((await activeMember(t)).browser, media.mp4, 'mp4', 'theirs.mp4');
    // The bytes are all the caller's objects: the files and their thumbnails.
    const userDir = join(filesDirOf(t.ctx.settings.dataDir), 'u', userId);
    const held = objectsOf(t.ctx, userId).reduce((sum, key) => sum + statSync(join(userDir, key)).size, 0);
    expect(held).toBeGreaterThan(media.png.length * 2 + media.jpeg.length + media.mp4.length);
    expect(await browser.ok('GET', '/assert/statistics')).toEqual({
      total: 5,
      images: 3,
      videos: 1,
      projects: 1,
      bytes: held,
      quotaBytes: 5120 * 1024 * 1024,
    });
  });

  describe('URL import', () => {
    it('lists the file as a draft at once, then stores it and answers success with its key and URL', async () => {
      const { browser, userId } = await activeMember(t);
      const fileId = await importUrl(browser, `${fixtures.base}/shop/bottle.png`);
      const state = await settled(browser, fileId);
      expect(state).toEqual({
        status: ASSET_URL_TASK_SUCCESS,
        fileKey: `u/${userId}/${fileId}.png`,
        fileUrl: expect.any(String),
        errorMsg: null,
      });
      expect((await t.app.inject({ method: 'GET', url: state.fileUrl as string })).rawPayload.equals(media.png)).toBe(true);
      expect(await fileRow(fileId)).toMatchObject({
        status: 'completed',
        source: 'url',
        type: 'image',
        width: 400,
        height: 300,
        error: null,
      });
      expect(workFiles(t.ctx)).toEqual([]);
    });

    it('answers failure with the reason in the reader language, and stores nothing', async () => {
      const { browser, userId } = await activeMember(t);
      const cases: [string, string, string][] = [
        [`${fixtures.base}/shop/gone.png`, 'Import failed: the address answered with HTTP 404.', '导入失败：该地址返回了 HTTP 404。'],
        [
          `${fixtures.base}/shop/fake.png`,
          'This file format is not supported. Please use JPG, PNG, WEBP, MP4, MOV, WEBM.',
          '不支持此文件格式。请使用 JPG, PNG, WEBP, MP4, MOV, WEBM。',
        ],
        [
          'http://169.254.169.254/latest/meta-data/',
          'Import failed: only public http or https addresses can be imported.',
          '导入失败：只能导入公开的 http 或 https 地址。',
        ],
      ];
      for (const [url, en, zh] of cases) {
        const fileId = await importUrl(browser, url);
        expect(await settled(browser, fileId)).toEqual({ status: ASSET_URL_TASK_FAILURE, fileKey: null, fileUrl: null, errorMsg: en });
        const inChinese = await browser.call('GET', '/assert/url-task', { query: { fileId }, headers: { 'accept-language': 'zh-CN' } });
        expect((inChinese.body.data as UrlTaskState).errorMsg).toBe(zh);
      }
      expect(objectsOf(t.ctx, userId)).toEqual([]);
      expect(workFiles(t.ctx)).toEqual([]);
    });

    it('refuses what is not an http(s) URL before anything is listed', async () => {
      const { browser, userId } = await activeMember(t);
      for (const url of ['file:///etc/passwd', 'gopher://x', 'not a url']) {
        expect((await browser.call('POST', '/assert/url-task', { body: { url } })).body.code).toBe(ERRORS.validation.code);
      }
      expect(await t.ctx.db.select().from(files).where(eq(files.userId, userId))).toEqual([]);
    });

    it('a stranger can neither read the import nor see it listed', async () => {
      const { browser } = await activeMember(t);
      const fileId = await importUrl(browser, `${fixtures.base}/shop/bottle.png`);
      await settled(browser, fileId);
      const stranger = await activeMember(t);
      expect((await stranger.browser.call('GET', '/assert/url-task', { query: { fileId } })).body.code).toBe(404);
      expect((await list(stranger.browser)).total).toBe(0);
    });

    it('a task stopped after storing (timed out) marks the file failed and removes what it stored', async () => {
      const { browser, userId } = await activeMember(t);
      const fileId = 'a0000000-0000-4000-8000-000000000002';
      await t.ctx.db.insert(files).values({ id: fileId, userId, name: 'bottle.png', source: 'url', status: 'draft' });
      await t.ctx.storage.put(fileKey(userId, fileId, 'png'), media.png, { contentType: 'image/png' });
      await t.ctx.storage.put(thumbKey(userId, fileId), media.png, { contentType: 'image/webp' });
      await assetUrlImportTask.failed?.(t.ctx, { taskId: 't', userId, input: { fileId, url: 'http://x/y.png' } }, { key: 'taskTimedOut' });
      expect(objectsOf(t.ctx, userId)).toEqual([]);
      expect(await settled(browser, fileId)).toMatchObject({
        status: ASSET_URL_TASK_FAILURE,
        errorMsg: 'The task took too long and was stopped; your credits have been returned.',
      });
    });

    it('keeps nothing when the draft was deleted while it was being fetched', async () => {
      const { userId } = await activeMember(t);
      const fileId = 'a0000000-0000-4000-8000-000000000001';
      await t.ctx.db.insert(files).values({ id: fileId, userId, name: 'bottle.png', source: 'url', status: 'draft' });
      await t.ctx.db.delete(files).where(eq(files.id, fileId));
      const job = {
        taskId: 't',
        userId,
        projectId: null,
        attempt: 1,
        signal: new AbortController().signal,
        progress: async () => {},
        partial: async () => {},
        atCompletion() {},
        ctx: t.ctx,
        log: { info() {}, warn() {}, error() {} },
      };
      await expect(assetUrlImportTask.run({ ...job, input: { fileId, url: `${fixtures.base}/shop/bottle.png` } })).rejects.toMatchObject({
        key: 'notFound',
      });
      expect(objectsOf(t.ctx, userId)).toEqual([]);
    });
  });
});
