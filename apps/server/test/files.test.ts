import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ERRORS, type LibraryAsset } from '@reelsmith/contract';
import { locateTools, probe } from '@reelsmith/media';
import { makeImage, makeVideo, truncate } from '@reelsmith/media/fixtures';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../src/db/schema.js';
import { createUrlSigner } from '../src/http/signedUrl.js';
import { uploadKey } from '../src/modules/files/storage/keys.js';
import { apiBase, sessionSecret } from '../src/settings.js';
import { API, appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, fixtureServer, objectsOf, putTo, putUrl, upload, workFiles } from './support/files.js';

const tools = locateTools();
const work = mkdtempSync(join(tmpdir(), 'reelsmith-files-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Sample media, made once: real files of each kind, and broken ones. */
const media = {} as Record<'png' | 'jpeg' | 'webp' | 'tiff' | 'tiny' | 'noise' | 'truncatedPng' | 'mp4' | 'truncatedMp4', Buffer>;
beforeAll(async () => {
  media.png = await makeImage(640, 480, 'png');
  media.jpeg = await makeImage(640, 480, 'jpeg');
  media.webp = await makeImage(300, 200, 'webp');
  media.tiff = await makeImage(200, 200, 'tiff');
  media.tiny = await makeImage(16, 16, 'png');
  // Noise does not compress: a real PNG well over the 1 MB image limit of these tests.
  media.noise = await sharp(randomBytes(900 * 900 * 3), { raw: { width: 900, height: 900, channels: 3 } })
    .png()
    .toBuffer();
  const png = join(work, 'whole.png');
  writeFileSync(png, media.png);
  media.truncatedPng = readFileSync(await truncate(png, join(work, 'cut.png'), 0.6));
  const mp4 = await makeVideo(tools, join(work, 'clip.mp4'), { seconds: 2, width: 320, height: 240 });
  media.mp4 = readFileSync(mp4);
  media.truncatedMp4 = readFileSync(await truncate(mp4, join(work, 'clip-cut.mp4'), 0.5));
});

describe.each(testDatabases())('files on $name', (testDb) => {
  const fixtures = fixtureServer();
  const t = appOn(testDb, () => ({ MAX_IMAGE_MB: '1', OUTBOUND_ALLOW_HOSTS: fixtures.host }));

  const fetchFile = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const rowsOf = (userId: string) => t.ctx.db.select().from(files).where(eq(files.userId, userId));
  const uploaded = async (browser: Browser, bytes: Buffer, format: string, fileName?: string) => {
    const answer = await upload(t, browser, bytes, format, fileName);
    if (answer.body.code !== 0) throw new Error(`upload answered ${answer.body.code}: ${answer.body.message}`);
    return answer.body.data as LibraryAsset;
  };

  /** Fails unless a user has nothing stored: no row, no object, no work file. */
  async function expectNothingStored(userId: string) {
    expect(await rowsOf(userId)).toEqual([]);
    expect(objectsOf(t.ctx, userId)).toEqual([]);
    expect(workFiles(t.ctx)).toEqual([]);
  }

  describe('put-url', () => {
    it('answers a signed upload URL for a key of the caller, in the format asked', async () => {
      const { browser, userId } = await activeMember(t);
      const target = await putUrl(browser, 'JPEG');
      expect(target).toEqual({
        uploadUrl: expect.stringMatching(new RegExp(`^${API}/file/upload\\?`)),
        resKey: expect.stringMatching(new RegExp(`^u/${userId}/upload/[0-9a-f-]{36}\\.jpg$`)),
        method: 'PUT',
        headers: { 'Content-Type': 'image/jpeg' },
      });
    });

    it('refuses a format the library does not take, naming those it does', async () => {
      const { browser } = await activeMember(t);
      for (const format of ['gif', 'exe', 'svg']) {
        const res = await browser.call('GET', '/file/user/put-url', { query: { format } });
        expect(res.body).toMatchObject({ code: ERRORS.fileFormatUnsupported.code });
        expect(res.body.message).toBe('This file format is not supported. Please use JPG, PNG, WEBP, MP4, MOV, WEBM.');
      }
    });

    it('needs an active user', async () => {
      const res = await t.app.inject({ method: 'GET', url: `${API}/file/user/put-url?format=png`, headers: { client: 'WEB' } });
      expect(res.json()).toMatchObject({ code: 401 });
    });
  });

  describe('upload and register', () => {
    it('stores a PNG with its thumbnail, serves it back byte for byte, and removes the upload object', async () => {
      const { browser, userId } = await activeMember(t);
      const asset = await uploaded(browser, media.png, 'png', 'Bottle front.png');
      expect(asset).toMatchObject({
        fileName: 'Bottle front.png',
        type: 'image',
        format: 'png',
        source: 'local',
        status: 'completed',
        size: media.png.length,
        width: 640,
        height: 480,
        duration: null,
        errorMsg: null,
        resKey: `u/${userId}/${asset.fileId}.png`,
      });
      const file = await fetchFile(asset.fileUrl as string);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.headers['content-disposition']).toBe('inline');
      expect(file.rawPayload.equals(media.png)).toBe(true);
      const thumb = await fetchFile(asset.thumbnailUrl as string);
      expect(thumb.headers['content-type']).toBe('image/webp');
      expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 480, height: 360 });
      expect(objectsOf(t.ctx, userId).sort()).toEqual([`${asset.fileId}.png`, `${asset.fileId}.thumb.webp`]);
      expect(workFiles(t.ctx)).toEqual([]);
    });

    it('offers a download under the asset name, with a safe Content-Disposition', async () => {
      const { browser } = await activeMember(t);
      const asset = await uploaded(browser, media.webp, 'webp', 'Été "summer"');
      const res = await fetchFile(asset.downloadUrl as string);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="_t_ _summer_.webp"; filename*=UTF-8''${encodeURIComponent('Été "summer".webp')}`,
      );
      expect(res.rawPayload.equals(media.webp)).toBe(true);
    });

    it('goes by the content, not the name: a JPEG sent as .png is stored as a JPEG', async () => {
      const { browser, userId } = await activeMember(t);
      const asset = await uploaded(browser, media.jpeg, 'png', 'photo.png');
      expect(asset).toMatchObject({ format: 'jpg', resKey: `u/${userId}/${asset.fileId}.jpg` });
      expect((await fetchFile(asset.fileUrl as string)).headers['content-type']).toBe('image/jpeg');
    });

    it('stores an ffmpeg-made MP4 with its duration, size and a poster frame', async () => {
      const { browser } = await activeMember(t);
      const asset = await uploaded(browser, media.mp4, 'mp4', 'clip.mp4');
      expect(asset).toMatchObject({ type: 'video', format: 'mp4', width: 320, height: 240 });
      expect(asset.duration).toBeGreaterThan(1.9);
      expect(asset.duration).toBeLessThan(2.2);
      const poster = await fetchFile(asset.thumbnailUrl as string);
      expect(await sharp(poster.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 320, height: 240 });
      const copy = join(work, 'served.mp4');
      writeFileSync(copy, (await fetchFile(asset.fileUrl as string)).rawPayload);
      expect(await probe(tools, copy)).toMatchObject({ width: 320, height: 240 });
    });

    it('keeps one asset per uploaded file: the same bytes again answer the asset already stored, for that user only', async () => {
      const { browser, userId } = await activeMember(t);
      const first = await uploaded(browser, media.png, 'png', 'model.png');
      const again = await uploaded(browser, media.png, 'png', 'model (1).png');
      expect(again).toMatchObject({ fileId: first.fileId, fileName: 'model.png', resKey: first.resKey });
      const other = await uploaded(browser, media.jpeg, 'jpg', 'model.jpg');
      expect(other.fileId).not.toBe(first.fileId);
      expect((await rowsOf(userId)).map((row) => row.id).sort()).toEqual([first.fileId, other.fileId].sort());
      // The second upload object is removed like any other: only the two assets' files and thumbnails are left.
      expect(objectsOf(t.ctx, userId)).toHaveLength(4);
      expect(workFiles(t.ctx)).toEqual([]);

      const someoneElse = await activeMember(t);
      const theirs = await uploaded(someoneElse.browser, media.png, 'png', 'model.png');
      expect(theirs.fileId).not.toBe(first.fileId);
      expect(theirs.resKey).toBe(`u/${someoneElse.userId}/${theirs.fileId}.png`);
    });

    it('attaches the asset to a project of the caller only', async () => {
      const { browser } = await activeMember(t);
      const { projectId } = (await browser.ok('POST', '/project/createProject', { body: { projectName: 'P' } })) as { projectId: string };
      const target = await putUrl(browser, 'png');
      await putTo(t, target, media.png);
      const asset = (await browser.ok('POST', '/assert/uploadFileWithUrl', {
        body: { resKey: target.resKey, fileName: 'a', projectId },
      })) as LibraryAsset;
      expect(asset.projectId).toBe(projectId);

      const other = await activeMember(t);
      const theirs = await putUrl(other.browser, 'png');
      await putTo(t, theirs, media.png);
      const res = await other.browser.call('POST', '/assert/uploadFileWithUrl', {
        body: { resKey: theirs.resKey, fileName: 'a', projectId },
      });
      expect(res.body.code).toBe(404);
    });
  });

  describe('refused uploads store nothing', () => {
    const refusals: [string, () => Buffer, string, keyof typeof ERRORS, string][] = [
      [
        'a .png that is a script',
        () => Buffer.from('#!/bin/sh\necho pwned\n'),
        'png',
        'fileFormatUnsupported',
        'This file format is not supported. Please use JPG, PNG, WEBP, MP4, MOV, WEBM.',
      ],
      [
        'a real image of a format the library does not take (TIFF)',
        () => media.tiff,
        'png',
        'fileFormatUnsupported',
        'This file format is not supported. Please use JPG, PNG, WEBP, MP4, MOV, WEBM.',
      ],
      ['a truncated PNG', () => media.truncatedPng, 'png', 'fileUnreadable', 'The file is damaged or incomplete and cannot be read.'],
      ['a truncated MP4', () => media.truncatedMp4, 'mp4', 'fileUnreadable', 'The file is damaged or incomplete and cannot be read.'],
      ['an icon-sized image', () => media.tiny, 'png', 'fileSideOutOfRange', 'Each side must be between 32 px and 10000 px.'],
    ];
    it.each(refusals)('%s', async (_name, bytes, format, key, message) => {
      const { browser, userId } = await activeMember(t);
      const res = await upload(t, browser, bytes(), format);
      expect(res.body).toEqual({ code: ERRORS[key].code, message, data: null });
      await expectNothingStored(userId);
    });

    it('a zero-byte file: the PUT is refused', async () => {
      const { browser, userId } = await activeMember(t);
      const target = await putUrl(browser, 'png');
      const put = await putTo(t, target, Buffer.alloc(0));
      expect(put.statusCode).toBe(400);
      expect(put.json()).toEqual({ code: ERRORS.fileEmpty.code, message: 'The file is empty.', data: null });
      const res = await browser.call('POST', '/assert/uploadFileWithUrl', { body: { resKey: target.resKey, fileName: 'x' } });
      expect(res.body.code).toBe(404);
      await expectNothingStored(userId);
    });

    it('an oversized image: the PUT stops at the limit, in the caller language', async () => {
      const { browser, userId } = await activeMember(t);
      expect(media.noise.length).toBeGreaterThan(1024 * 1024);
      const target = await putUrl(browser, 'png');
      const put = await putTo(t, target, media.noise);
      expect(put.statusCode).toBe(413);
      expect(put.json()).toEqual({ code: ERRORS.fileTooLarge.code, message: 'The file is too large: up to 1 MB.', data: null });
      // Without a Content-Length the cap is kept while streaming.
      const streamed = await t.app.inject({
        method: 'PUT',
        url: target.uploadUrl,
        headers: { 'content-type': 'image/png', 'transfer-encoding': 'chunked', 'accept-language': 'zh' },
        payload: Readable.from([media.noise.subarray(0, 600_000), media.noise.subarray(600_000)]),
      });
      expect(streamed.statusCode).toBe(413);
      expect(streamed.json().message).toBe('文件过大：最大 1 MB。');
      await expectNothingStored(userId);
    });

    it('an oversized image over a real connection: the uploader reads the 413, with or without a length', async () => {
      const { browser, userId } = await activeMember(t);
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      for (const body of [media.noise, Readable.toWeb(Readable.from([media.noise.subarray(0, 600_000), media.noise.subarray(600_000)]))]) {
        const target = await putUrl(browser, 'png');
        const res = await fetch(`${address}${target.uploadUrl}`, {
          method: 'PUT',
          headers: target.headers,
          body,
          duplex: 'half',
        } as RequestInit);
        expect(res.status).toBe(413);
        expect(((await res.json()) as { code: number }).code).toBe(ERRORS.fileTooLarge.code);
      }
      await expectNothingStored(userId);
    });

    it('an oversized or empty object that reached storage another way (as with S3) is refused when registered, and removed', async () => {
      const { browser, userId } = await activeMember(t);
      for (const [bytes, key] of [
        [media.noise, 'fileTooLarge'],
        [Buffer.alloc(0), 'fileEmpty'],
      ] as const) {
        const resKey = uploadKey(userId, 'png');
        await t.ctx.storage.put(resKey, bytes, { contentType: 'image/png' });
        const res = await browser.call('POST', '/assert/uploadFileWithUrl', { body: { resKey, fileName: 'x.png' } });
        expect(res.body.code).toBe(ERRORS[key].code);
      }
      await expectNothingStored(userId);
    });
  });

  describe('signed file links', () => {
    it('serves byte ranges of a video with 206 and the exact bytes', async () => {
      const { browser } = await activeMember(t);
      const asset = await uploaded(browser, media.mp4, 'mp4');
      const size = media.mp4.length;
      const whole = await fetchFile(asset.fileUrl as string);
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(whole.headers['content-type']).toBe('video/mp4');
      expect(Number(whole.headers['content-length'])).toBe(size);
      const cases: [string, number, number][] = [
        ['bytes=100-199', 100, 199],
        ['bytes=1000-', 1000, size - 1],
        ['bytes=-500', size - 500, size - 1],
        [`bytes=0-${size + 100}`, 0, size - 1],
      ];
      for (const [range, start, end] of cases) {
        const res = await fetchFile(asset.fileUrl as string, { range });
        expect(res.statusCode).toBe(206);
        expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
        expect(res.rawPayload.equals(media.mp4.subarray(start, end + 1))).toBe(true);
      }
      const past = await fetchFile(asset.fileUrl as string, { range: `bytes=${size}-` });
      expect(past.statusCode).toBe(416);
      expect(past.headers['content-range']).toBe(`bytes */${size}`);
    });

    it('refuses forged, re-pointed and expired links', async () => {
      const { browser, userId } = await activeMember(t);
      const asset = await uploaded(browser, media.png, 'png');
      const url = asset.fileUrl as string;
      const other = await uploaded((await activeMember(t)).browser, media.png, 'png');
      const refused = [
        url.replace(/signature=[^&]+/, 'signature=forged'),
        url.replace(encodeURIComponent(asset.resKey as string), encodeURIComponent(other.resKey as string)),
        url.replace(/expires=\d+/, `expires=${Date.now() + 10 ** 9}`),
      ];
      const signer = createUrlSigner(sessionSecret(t.ctx.settings), () => Date.now() - 10 * 60_000);
      const stale = signer.link(`${apiBase(t.ctx.settings)}/file/object`, { fields: ['key'], ttlMs: 60_000 });
      refused.push(stale.sign({ key: asset.resKey as string }));
      for (const link of refused) {
        const res = await fetchFile(link);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ code: 403, message: 'This upload or download link is invalid or has expired.' });
      }
      // An upload link is no download link, nor the other way round.
      const target = await putUrl(browser, 'png');
      expect((await fetchFile(target.uploadUrl.replace('/file/upload', '/file/object'))).statusCode).toBe(403);
      const put = await t.app.inject({ method: 'PUT', url: url.replace('/file/object', '/file/upload'), payload: media.png });
      expect(put.statusCode).toBe(403);
      expect(objectsOf(t.ctx, userId)).toHaveLength(2);
    });

    it('maps the caller keys to URLs and leaves out anybody else keys', async () => {
      const { browser } = await activeMember(t);
      const mine = await uploaded(browser, media.png, 'png');
      const theirs = await uploaded((await activeMember(t)).browser, media.png, 'png');
      const map = (await browser.ok('POST', '/file/url/transfer', {
        body: { data: [mine.resKey, theirs.resKey, '../etc/passwd', `${mine.resKey}/../x`] },
      })) as Record<string, string>;
      expect(Object.keys(map)).toEqual([mine.resKey]);
      expect((await fetchFile(map[mine.resKey as string] as string)).rawPayload.equals(media.png)).toBe(true);
    });

    it('registers only the caller upload keys', async () => {
      const a = await activeMember(t);
      const b = await activeMember(t);
      const target = await putUrl(a.browser, 'png');
      await putTo(t, target, media.png);
      for (const resKey of [target.resKey, `u/${a.userId}/whatever.png`, `u/${b.userId}/../${a.userId}/upload/x.png`]) {
        const res = await b.browser.call('POST', '/assert/uploadFileWithUrl', { body: { resKey, fileName: 'mine now' } });
        expect(res.body.code).toBe(404);
      }
      expect(objectsOf(t.ctx, a.userId)).toEqual([target.resKey.slice(`u/${a.userId}/`.length)]);
      await expectNothingStored(b.userId);
    });
  });

  describe('product files imported into a project', () => {
    beforeAll(() => {
      for (const i of [1, 2, 3, 4]) fixtures.routes.set(`/img/${i}.png`, { type: 'image/png', body: media.png });
      fixtures.routes.set('/img/script.png', { type: 'image/png', body: Buffer.from('<script>alert(1)</script>') });
      fixtures.routes.set('/video/clip.mp4', { type: 'video/mp4', body: media.mp4 });
    });
    const project = async (browser: Browser) =>
      ((await browser.ok('POST', '/project/createProject', { body: { projectName: 'Bottle' } })) as { projectId: string }).projectId;

    it('imports each URL into the project and answers items with file ids and URLs', async () => {
      const { browser, userId } = await activeMember(t);
      const projectId = await project(browser);
      const urls = [...[1, 2, 3, 4].map((i) => `${fixtures.base}/img/${i}.png`), `${fixtures.base}/video/clip.mp4`];
      const items = (await browser.ok('POST', '/link-video/file/upload', { body: { projectId, urls } })) as {
        fileId: string;
        fileName: string;
        fileUrl: string;
        resKey: string;
        format: string;
      }[];
      expect(items.map((i) => [i.fileName, i.format])).toEqual([
        ['1.png', 'png'],
        ['2.png', 'png'],
        ['3.png', 'png'],
        ['4.png', 'png'],
        ['clip.mp4', 'mp4'],
      ]);
      for (const item of items) expect((await fetchFile(item.fileUrl)).statusCode).toBe(200);
      const rows = await rowsOf(userId);
      expect(rows).toHaveLength(5);
      for (const row of rows) expect(row).toMatchObject({ projectId, source: 'url', status: 'completed' });
      expect(rows.map((r) => r.sourceUrl).sort()).toEqual([...urls].sort());
    });

    it('leaves out the files that cannot be imported, and fails with the reason when none can', async () => {
      const { browser, userId } = await activeMember(t);
      const projectId = await project(browser);
      const items = (await browser.ok('POST', '/link-video/file/upload', {
        body: { projectId, urls: [`${fixtures.base}/img/missing.png`, `${fixtures.base}/img/1.png`, `${fixtures.base}/img/script.png`] },
      })) as { fileName: string }[];
      expect(items.map((i) => i.fileName)).toEqual(['1.png']);
      const cases: [string, keyof typeof ERRORS, string][] = [
        [`${fixtures.base}/img/missing.png`, 'importHttpError', 'Import failed: the address answered with HTTP 404.'],
        ['http://10.0.0.1/a.png', 'importBlocked', 'Import failed: only public http or https addresses can be imported.'],
        [`http://127.0.0.1:1/a.png`, 'importBlocked', 'Import failed: only public http or https addresses can be imported.'],
        [
          `${fixtures.base}/img/script.png`,
          'fileFormatUnsupported',
          'This file format is not supported. Please use JPG, PNG, WEBP, MP4, MOV, WEBM.',
        ],
      ];
      for (const [url, key, message] of cases) {
        const res = await browser.call('POST', '/link-video/file/upload', { body: { projectId, urls: [url] } });
        expect(res.body).toEqual({ code: ERRORS[key].code, message, data: null });
      }
      expect(await rowsOf(userId)).toHaveLength(1);
      expect(workFiles(t.ctx)).toEqual([]);
    });

    it('refuses a project that is not the caller', async () => {
      const owner = await activeMember(t);
      const projectId = await project(owner.browser);
      const stranger = await activeMember(t);
      const res = await stranger.browser.call('POST', '/link-video/file/upload', {
        body: { projectId, urls: [`${fixtures.base}/img/1.png`] },
      });
      expect(res.body.code).toBe(404);
      await expectNothingStored(stranger.userId);
    });
  });
});
