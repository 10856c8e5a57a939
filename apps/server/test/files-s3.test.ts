// The S3 driver against a real S3-protocol server (s3rver, on the local disk): presigned uploads and downloads
// straight to the bucket, ranges, registration by content, deletion, the health check, the quota's signed upload
// length and the sweep of uploads never registered and captured pages analysed.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';
import { ERRORS, type LibraryAsset } from '@reelsmith/contract';
import { makeImage } from '@reelsmith/media/fixtures';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedObjects, tasks } from '../src/db/schema.js';
import { storageOrigins } from '../src/modules/files/storage/origins.js';
import { S3Storage } from '../src/modules/files/storage/s3.js';
import { sweepStoredObjects } from '../src/modules/files/storageSweep.js';
import type { StorageSettings } from '../src/settings.js';
import { API, appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, type PutTarget, putUrl } from './support/files.js';

const BUCKET = 'reelsmith-test';
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-s3rver-'));
const s3 = { endpoint: '' };
let server: S3rver;
beforeAll(async () => {
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  s3.endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Objects s3rver holds under a user's prefix (it keeps each object as a file named after its key). */
function bucketObjectsOf(userId: string): string[] {
  const root = join(dir, BUCKET, 'u', userId);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('._S3rver_object'))
    .map((entry) => entry.name.replace('._S3rver_object', ''));
}

describe.each(testDatabases())('files on S3 storage, $name', (testDb) => {
  const t = appOn(testDb, () => ({
    STORAGE_DRIVER: 's3',
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  }));
  let png: Buffer;
  beforeAll(async () => {
    png = await makeImage(640, 480, 'png');
  });

  const putToBucket = (target: PutTarget, body: Buffer) => fetch(target.uploadUrl, { method: 'PUT', headers: target.headers, body });
  async function uploaded(browser: Browser, body: Buffer, fileName = 'photo.png') {
    const target = await putUrl(browser, 'png', body.length);
    expect((await putToBucket(target, body)).status).toBe(200);
    return browser.call('POST', '/assert/uploadFileWithUrl', { body: { resKey: target.resKey, fileName } });
  }

  it('reports the bucket healthy', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/health` });
    expect(res.json()).toMatchObject({ code: 0, data: { storage: 'ok' } });
  });

  it('uploads straight to the bucket with a presigned PUT that carries no body checksum', async () => {
    const { browser, userId } = await activeMember(t);
    const target = await putUrl(browser, 'png', png.length);
    expect(target.uploadUrl.startsWith(`${s3.endpoint}/${BUCKET}/u/${userId}/upload/`)).toBe(true);
    expect(target.uploadUrl).not.toMatch(/checksum/i);
    expect(target.headers).toEqual({ 'Content-Type': 'image/png' });
    expect((await putToBucket(target, png)).status).toBe(200);
    expect(await t.ctx.storage.stat(target.resKey)).toEqual({ size: png.length });
  });

  it('registers the upload by content, serves it from the bucket with ranges and a download name, and deletes it', async () => {
    const { browser, userId } = await activeMember(t);
    const res = await uploaded(browser, png, 'Front.png');
    expect(res.body.code).toBe(0);
    const asset = res.body.data as LibraryAsset;
    expect(asset).toMatchObject({ type: 'image', format: 'png', width: 640, height: 480, status: 'completed' });
    expect(bucketObjectsOf(userId).sort()).toEqual([`${asset.fileId}.png`, `${asset.fileId}.thumb.webp`]);

    const file = await fetch(asset.fileUrl as string);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
    const part = await fetch(asset.fileUrl as string, { headers: { range: 'bytes=10-99' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(png.subarray(10, 100))).toBe(true);
    const download = await fetch(asset.downloadUrl as string);
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="Front.png"');
    expect((await fetch(asset.thumbnailUrl as string)).headers.get('content-type')).toBe('image/webp');

    const forged = await fetch((asset.fileUrl as string).replace(/X-Amz-Signature=[0-9a-f]+/, `X-Amz-Signature=${'0'.repeat(64)}`));
    expect(forged.status).toBe(403);

    await browser.ok('POST', '/assert/delete', { body: { fileIds: [asset.fileId] } });
    expect(bucketObjectsOf(userId)).toEqual([]);
  });

  it('needs the size of an upload, and the bucket takes no other length (the quota reserves that size)', async () => {
    const { browser, userId } = await activeMember(t);
    const unsized = await browser.call('GET', '/file/user/put-url', { query: { format: 'png' } });
    expect(unsized.body).toEqual({
      code: ERRORS.uploadSizeRequired.code,
      message: 'The size of the file to upload is required.',
      data: null,
    });
    const target = await putUrl(browser, 'png', png.length);
    expect((await browser.ok('GET', '/assert/statistics')) as { bytes: number }).toMatchObject({ bytes: png.length });
    expect((await putToBucket(target, Buffer.concat([png, Buffer.alloc(1024 * 1024)]))).status).toBe(403);
    expect((await putToBucket(target, png.subarray(0, 100))).status).toBe(403);
    expect(bucketObjectsOf(userId)).toEqual([]);
    expect((await putToBucket(target, png)).status).toBe(200);
  });

  it('sweeps uploads never registered after a day and captured pages once analysed, from the bucket and the quota', async () => {
    const { browser, userId } = await activeMember(t);
    const old = await putUrl(browser, 'png', png.length);
    expect((await putToBucket(old, png)).status).toBe(200);
    const fresh = await putUrl(browser, 'png', png.length);
    expect((await putToBucket(fresh, png)).status).toBe(200);
    const html = '<h1>A bottle</h1>';
    const page = (await browser.ok('POST', '/link-video/page/upload', { body: { html } })) as { resKey: string };
    const bytesOf = async () => ((await browser.ok('GET', '/assert/statistics')) as { bytes: number }).bytes;
    expect(await bytesOf()).toBe(png.length * 2 + html.length);
    await t.ctx.db
      .update(storedObjects)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60_000) })
      .where(eq(storedObjects.key, old.resKey));
    await t.ctx.db.insert(tasks).values({
      id: randomUUID(),
      userId,
      kind: 'link-analysis',
      input: { productLink: 'https://shop.example/bottle', resKey: page.resKey },
      status: 'SUCCESS',
    });

    expect(await sweepStoredObjects(t.ctx)).toMatchObject({ uploads: 1, pages: 1 });
    expect(bucketObjectsOf(userId)).toEqual([fresh.resKey.split('/').pop()]);
    expect(await bytesOf()).toBe(png.length);
  });

  it('refuses an upload that is not what it claims, leaving nothing in the bucket', async () => {
    const { browser, userId } = await activeMember(t);
    const res = await uploaded(browser, Buffer.from('#!/bin/sh\necho hi\n'));
    expect(res.body.code).toBe(ERRORS.fileFormatUnsupported.code);
    expect(bucketObjectsOf(userId)).toEqual([]);
  });

  it('lets the web app upload, show and play files from the bucket (CSP)', async () => {
    const csp = String((await t.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    for (const directive of ['connect-src', 'img-src', 'media-src']) expect(csp).toMatch(new RegExp(`${directive} [^;]*${s3.endpoint}`));
  });

  it('serves no files through the app: the local file routes do not exist', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/file/object?key=x` });
    expect(res.statusCode).toBe(404);
  });
});

describe('the origin of S3 file links, which the page CSP allows', () => {
  const s3Settings = (over: Partial<Extract<StorageSettings, { driver: 's3' }>>): Extract<StorageSettings, { driver: 's3' }> => ({
    driver: 's3',
    bucket: 'shop-files',
    region: 'eu-west-1',
    endpoint: undefined,
    credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    forcePathStyle: false,
    ...over,
  });
  it.each([
    ['AWS', {}],
    ['AWS, path style', { forcePathStyle: true }],
    ['another store', { endpoint: 'https://account.r2.example.com', region: 'auto' }],
    ['a self-hosted store, path style', { endpoint: 'http://127.0.0.1:9000', forcePathStyle: true }],
  ])('%s', async (_name, over) => {
    const settings = s3Settings(over);
    const link = await new S3Storage(settings, 60).downloadUrl('u/someone/file.png');
    expect(storageOrigins(settings)).toEqual([new URL(link).origin]);
  });

  it('is the app itself with the local driver', () => {
    expect(storageOrigins({ driver: 'local' })).toEqual([]);
  });
});
