// The per-user storage quota (decision "Storage quota"), local driver (files-s3.test.ts covers the bucket): every
// stored byte counts (files and their thumbnails, uploads never registered, captured pages) and shows in the
// statistics; room is reserved before bytes are accepted (put-url, imports, captured pages), so what does not fit is
// refused with a clear message and nothing changes, even when many ask at once; the sweep deletes uploads never
// registered after a day and captured pages once analysed or after a week, and gives back the room of upload links
// never used.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERRORS } from '@reelsmith/contract';
import { makeImage } from '@reelsmith/media/fixtures';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, storedObjects, tasks } from '../src/db/schema.js';
import { filesDirOf } from '../src/modules/files/storage/index.js';
import { sweepStoredObjects } from '../src/modules/files/storageSweep.js';
import { appOn, type Browser } from './support/app.js';
import { paddedVideo } from './support/bigMedia.js';
import { testDatabases } from './support/databases.js';
import { activeMember, fixtureServer, objectsOf, putTo, putUrl, upload, workFiles } from './support/files.js';

const MIB = 1024 * 1024;
const QUOTA_MB = 2;
const QUOTA = QUOTA_MB * MIB;
const HOUR = 60 * 60_000;

const work = mkdtempSync(join(tmpdir(), 'reelsmith-quota-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const media = {} as Record<'png' | 'video', Buffer>;
beforeAll(async () => {
  media.png = await makeImage(320, 240, 'png');
  // A real video larger than the whole quota.
  media.video = readFileSync(await paddedVideo(work, QUOTA + MIB / 2));
});

describe.each(testDatabases())('the storage quota on $name', (testDb) => {
  const site = fixtureServer();
  // Images up to 1 MB: a put-url of undeclared size reserves that much.
  const t = appOn(testDb, () => ({ STORAGE_QUOTA_MB: String(QUOTA_MB), MAX_IMAGE_MB: '1', OUTBOUND_ALLOW_HOSTS: site.host }));
  beforeAll(() => {
    site.routes.set('/big.mp4', { type: 'video/mp4', body: media.video });
    site.routes.set('/photo.png', { type: 'image/png', body: media.png });
  });

  const statistics = async (browser: Browser) => (await browser.ok('GET', '/assert/statistics')) as { bytes: number; quotaBytes: number };
  /** The sizes of the user's objects on disk, summed. */
  const onDisk = (userId: string) => {
    const dir = join(filesDirOf(t.ctx.settings.dataDir), 'u', userId);
    return objectsOf(t.ctx, userId).reduce((sum, key) => sum + statSync(join(dir, key)).size, 0);
  };
  const ledgerOf = (userId: string) => t.ctx.db.select().from(storedObjects).where(eq(storedObjects.userId, userId));
  const fullMessage = (used: number) =>
    `Your storage is full: ${Math.round(used / MIB)} MB of ${QUOTA_MB} MB used. Delete files you no longer need, then try again.`;

  it('counts every stored byte: files with their thumbnails, uploads never registered and captured pages', async () => {
    const { browser, userId } = await activeMember(t);
    expect(await statistics(browser)).toMatchObject({ bytes: 0, quotaBytes: QUOTA });
    expect((await upload(t, browser, media.png, 'png', 'kept.png')).body.code).toBe(0);
    const pending = await putUrl(browser, 'png', media.png.length);
    expect((await putTo(t, pending, media.png)).statusCode).toBe(200);
    const html = `<html><body><h1>${'A bottle '.repeat(2000)}</h1></body></html>`;
    await browser.ok('POST', '/link-video/page/upload', { body: { html } });

    const stored = onDisk(userId);
    // A file, its thumbnail, the pending upload and the page.
    expect(objectsOf(t.ctx, userId)).toHaveLength(4);
    expect(stored).toBeGreaterThan(media.png.length * 2 + html.length);
    expect((await statistics(browser)).bytes).toBe(stored);
  });

  it('counts drafts at their size, refuses one that does not fit keeping the draft before it, and frees them with their project', async () => {
    // Finding F3: 50 drafts of 2 MiB were saved with a 10 MiB quota, which showed 0 bytes used.
    const { browser } = await activeMember(t);
    const project = async () => ((await browser.ok('POST', '/project/createProject', { body: {} })) as { projectId: string }).projectId;
    const save = (projectId: string, draftContent: string) =>
      browser.call('POST', '/project/saveDraftFile', { body: { projectId, draftContent } });
    const first = await project();
    const second = await project();
    const big = 'x'.repeat(0.75 * MIB);
    expect((await save(first, big)).body.code).toBe(0);
    // A draft of non-Latin text counts its bytes, not its characters.
    const wide = '草'.repeat(MIB / 4);
    expect((await save(second, wide)).body.code).toBe(0);
    expect((await statistics(browser)).bytes).toBe(big.length + 3 * wide.length);
    // Saving a draft again replaces its count; a third that does not fit is refused, and the second keeps its draft.
    expect((await save(first, 'y'.repeat(MIB / 2))).body.code).toBe(0);
    expect((await statistics(browser)).bytes).toBe(MIB / 2 + 3 * wide.length);
    const refused = await save(second, 'z'.repeat(1.6 * MIB));
    expect(refused.body).toMatchObject({ code: ERRORS.storageQuotaExceeded.code, message: fullMessage(MIB / 2) });
    const url = (await browser.ok('POST', '/project/getDraftFileUrl', { body: { projectId: second } })) as string;
    const kept = await t.app.inject({ method: 'GET', url });
    expect(kept.body).toBe(wide);
    // Deleting the projects gives their room back.
    expect(await browser.ok('POST', '/project/deleteProject', { body: { projectIds: [first, second] } })).toBe(true);
    expect((await statistics(browser)).bytes).toBe(0);
  });

  it('refuses a put-url whose declared size does not fit, and one past the type limit, changing nothing', async () => {
    const { browser, userId } = await activeMember(t);
    const tooBig = await browser.call('GET', '/file/user/put-url', { query: { format: 'mp4', size: String(QUOTA + 1) } });
    expect(tooBig.body).toEqual({ code: ERRORS.storageQuotaExceeded.code, message: fullMessage(0), data: null });
    const pastLimit = await browser.call('GET', '/file/user/put-url', { query: { format: 'png', size: String(MIB + 1) } });
    expect(pastLimit.body).toMatchObject({ code: ERRORS.fileTooLarge.code });
    expect(await ledgerOf(userId)).toEqual([]);
    expect(objectsOf(t.ctx, userId)).toEqual([]);
  });

  it('reserves room at put-url and holds the PUT to it: the type limit without a size, the declared size with one', async () => {
    const { browser, userId } = await activeMember(t);
    // Two links of undeclared size reserve the image limit each: the quota is full.
    const first = await putUrl(browser, 'png');
    const second = await putUrl(browser, 'png');
    expect((await statistics(browser)).bytes).toBe(QUOTA);
    const third = await browser.call('GET', '/file/user/put-url', { query: { format: 'png', size: '10' } });
    expect(third.body).toMatchObject({ code: ERRORS.storageQuotaExceeded.code, message: fullMessage(QUOTA) });
    // The upload measures less than it reserved: the rest comes back.
    expect((await putTo(t, first, media.png)).statusCode).toBe(200);
    expect((await statistics(browser)).bytes).toBe(MIB + media.png.length);
    // A link takes one upload: its room was settled to what came.
    expect((await putTo(t, first, media.png)).statusCode).toBe(403);
    // A declared size is the most the PUT takes.
    const declared = await putUrl(browser, 'png', 100);
    const longer = await putTo(t, declared, media.png);
    expect(longer.statusCode).toBe(413);
    expect(longer.json()).toEqual({
      code: ERRORS.uploadSizeMismatch.code,
      message: 'The file is larger than the size given for its upload.',
      data: null,
    });
    expect(objectsOf(t.ctx, userId).map((key) => key.split('/').pop())).toEqual([first.resKey.split('/').pop()]);
    // Registration gives the upload's room to the file it becomes; a link never used gives its room back when registered.
    expect((await browser.call('POST', '/assert/uploadFileWithUrl', { body: { resKey: first.resKey, fileName: 'a.png' } })).body.code).toBe(
      0,
    );
    expect(
      (await browser.call('POST', '/assert/uploadFileWithUrl', { body: { resKey: second.resKey, fileName: 'b.png' } })).body.code,
    ).toBe(ERRORS.notFound.code);
    expect((await statistics(browser)).bytes).toBe(onDisk(userId) + 100);
  });

  it('never lets puts at once squeeze past the quota', async () => {
    const { browser, userId } = await activeMember(t);
    const size = 300_000;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => browser.call('GET', '/file/user/put-url', { query: { format: 'png', size: String(size) } })),
    );
    const granted = answers.filter((answer) => answer.body.code === 0);
    expect(granted).toHaveLength(Math.floor(QUOTA / size));
    for (const answer of answers.filter((a) => a.body.code !== 0)) expect(answer.body.code).toBe(ERRORS.storageQuotaExceeded.code);
    const held = await ledgerOf(userId);
    expect(held.reduce((sum, row) => sum + row.size, 0)).toBeLessThanOrEqual(QUOTA);
  });

  it('stops an import at the room left: a clear error, no file, no object, no work file', async () => {
    const { browser, userId } = await activeMember(t);
    const { projectId } = (await browser.ok('POST', '/project/createProject', { body: { projectName: 'Full' } })) as { projectId: string };
    const refused = await browser.call('POST', '/link-video/file/upload', {
      body: { projectId, urls: [`${site.base}/big.mp4`] },
      headers: { 'accept-language': 'pt-BR' },
    });
    expect(refused.body).toMatchObject({ code: ERRORS.storageQuotaExceeded.code, data: null });
    expect(refused.body.message).toBe(
      `Seu armazenamento está cheio: 0 MB de ${QUOTA_MB} MB usados. Exclua os arquivos de que não precisa mais e tente novamente.`,
    );
    expect(await t.ctx.db.select().from(files).where(eq(files.userId, userId))).toEqual([]);
    expect(objectsOf(t.ctx, userId)).toEqual([]);
    expect(await ledgerOf(userId)).toEqual([]);
    expect(workFiles(t.ctx)).toEqual([]);
    // What fits is imported.
    const kept = await browser.call('POST', '/link-video/file/upload', { body: { projectId, urls: [`${site.base}/photo.png`] } });
    expect(kept.body.code).toBe(0);
    expect((await statistics(browser)).bytes).toBe(onDisk(userId));
  });

  it('refuses a captured page that does not fit', async () => {
    const { browser, userId } = await activeMember(t);
    await putUrl(browser, 'png');
    await putUrl(browser, 'png', MIB - 10);
    const page = await browser.call('POST', '/link-video/page/upload', { body: { html: `<p>${'x'.repeat(100)}</p>` } });
    expect(page.body).toMatchObject({ code: ERRORS.storageQuotaExceeded.code, message: fullMessage(QUOTA - 10) });
    expect(objectsOf(t.ctx, userId)).toEqual([]);
  });

  it('sweeps uploads never registered after a day, captured pages once analysed or after a week, and unused links after an hour', async () => {
    const { browser, userId } = await activeMember(t);
    const putOne = async () => {
      const target = await putUrl(browser, 'png', media.png.length);
      expect((await putTo(t, target, media.png)).statusCode).toBe(200);
      return target.resKey;
    };
    const capture = async (text: string) =>
      ((await browser.ok('POST', '/link-video/page/upload', { body: { html: `<h1>${text}</h1>` } })) as { resKey: string }).resKey;
    const oldUpload = await putOne();
    const newUpload = await putOne();
    const unusedLink = (await putUrl(browser, 'png', 500_000)).resKey;
    const analysedPage = await capture('analysed');
    const oldPage = await capture('old');
    const newPage = await capture('new');
    const failedPage = await capture('failed analysis');
    const registered = await upload(t, browser, media.png, 'png', 'kept.png');
    const ago = async (key: string, ms: number) =>
      t.ctx.db
        .update(storedObjects)
        .set({ createdAt: new Date(Date.now() - ms) })
        .where(eq(storedObjects.key, key));
    await ago(oldUpload, 25 * HOUR);
    await ago(newUpload, 23 * HOUR);
    await ago(unusedLink, 2 * HOUR);
    await ago(oldPage, 8 * 24 * HOUR);
    await ago(newPage, 6 * 24 * HOUR);
    const analysis = (resKey: string, status: 'SUCCESS' | 'FAILURE') => ({
      id: randomUUID(),
      userId,
      kind: 'link-analysis',
      input: { productLink: 'https://shop.example/bottle', resKey },
      status,
    });
    await t.ctx.db.insert(tasks).values([analysis(analysedPage, 'SUCCESS'), analysis(failedPage, 'FAILURE')]);
    const keysBefore = objectsOf(t.ctx, userId);

    expect(await sweepStoredObjects(t.ctx)).toEqual({ uploads: 1, pages: 2, measured: 1 });
    const gone = (key: string) => key.slice(`u/${userId}/`.length);
    expect(objectsOf(t.ctx, userId).sort()).toEqual(
      keysBefore.filter((key) => ![oldUpload, oldPage, analysedPage].map(gone).includes(key)).sort(),
    );
    // The ledger holds exactly what the store holds: the unused link's reservation is gone too.
    expect((await ledgerOf(userId)).map((row) => row.key).sort()).toEqual(
      objectsOf(t.ctx, userId)
        .map((key) => `u/${userId}/${key}`)
        .sort(),
    );
    expect((await statistics(browser)).bytes).toBe(onDisk(userId));
    expect(registered.body.code).toBe(0);
    // A second sweep finds nothing more.
    expect(await sweepStoredObjects(t.ctx)).toEqual({ uploads: 0, pages: 0, measured: 0 });
  });
});
