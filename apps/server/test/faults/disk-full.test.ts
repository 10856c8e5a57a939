// Fault: the disk full while writing a file. The file store of a server process of `main.ts`
// (DATA_DIR/files) is a small tmpfs, filled up with a ballast file. An upload that does not fit is refused with a
// clear error (507, "no room to store files") and leaves no half-written object and no asset; an image-to-video
// render whose video does not fit ends FAILURE with the same message and its credits back, storing nothing. Once
// the space is freed, the same upload and the same render succeed.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../src/db/schema.js';
import { filesDirOf } from '../../src/modules/files/storage/index.js';
import { tmpDirOf } from '../../src/modules/files/workDir.js';
import { priceOf } from '../../src/modules/points/prices.js';
import type { TestDb } from '../support/databases.js';
import {
  availableOf,
  expectLedgerConsistent,
  expectStoreMatchesAssets,
  faultDatabase,
  filesUnder,
  ledgerOf,
  printFigures,
  putFile,
  serverEnv,
  signUp,
  taskEnded,
  uploadFile,
} from '../support/faults.js';
import type { HttpClient } from '../support/httpClient.js';
import { freePort, type ServerProcess, startServer, whenHealthy } from '../support/serverProcess.js';
import { type SmallDisk, smallDisk } from '../support/smallDisk.js';

const DISK_BYTES = 16 * 1024 * 1024;
/** What the full disk still has room for: less than the upload and the video below. */
const ROOM_BYTES = 8 * 1024;
const figures: Record<string, string | number> = {};

/** A photo that does not compress: random pixels, about 1.7 MB as PNG. */
const noisePng = () =>
  sharp(randomBytes(760 * 760 * 3), { raw: { width: 760, height: 760, channels: 3 } })
    .png()
    .toBuffer();
/** The picture the video is made from: a product on a plain background, small. */
const productPng = () =>
  sharp({ create: { width: 720, height: 960, channels: 3, background: { r: 235, g: 225, b: 210 } } })
    .composite([
      {
        input: Buffer.from('<svg width="300" height="420"><rect x="40" y="40" width="220" height="340" rx="40" fill="#2a6"/></svg>'),
        top: 270,
        left: 210,
      },
    ])
    .png()
    .toBuffer();

describe('the disk full while a file is written', () => {
  let database: TestDb;
  let dataDir: string;
  let disk: SmallDisk;
  let server: ServerProcess;
  const db = () => database.db;

  beforeAll(async () => {
    database = await faultDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-fault-disk-'));
    disk = smallDisk(filesDirOf(dataDir), DISK_BYTES);
    figures['how the disk is made small'] =
      disk.how === 'tmpfs' ? `a tmpfs of ${DISK_BYTES / 1024 / 1024} MB on DATA_DIR/files` : 'prlimit --fsize';
    server = startServer(serverEnv(database.url as string, dataDir, { WORKER_CONCURRENCY: '1' }), await freePort());
    await whenHealthy(server);
  }, 120_000);

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    // Unmounted whatever happened above, before the directory under it goes.
    disk?.release();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    printFigures('disk full', figures);
  });

  const assetCount = async (userId: string) => (await db().select().from(files).where(eq(files.userId, userId))).length;

  async function imageToVideo(client: HttpClient, resKey: string) {
    const { taskId } = await client.ok<{ taskId: string }>('POST', '/video/image2video', { body: { image: { resKey }, duration: 5 } });
    const row = await taskEnded(db(), taskId, 120_000);
    return { taskId, row };
  }

  it('refuses the upload and fails the render with a clear error and a refund, stores nothing, and does both once there is room', async () => {
    const { client, userId } = await signUp(db(), server.base, 'disk-full@example.com');
    const source = await uploadFile(client, await productPng(), 'png', 'bottle.png');
    const [sourceRow] = await db().select().from(files).where(eq(files.id, source));
    const sourceKey = sourceRow?.resKey as string;
    const noise = await noisePng();
    // The server under test has no vendor video model: its own engine's price (decision "Image-to-video price").
    const price = await priceOf(db(), 'img2VideoLocal_std_5s');
    const full = errorMessage('storageFull', 'en');

    disk.fill(server.child.pid as number, ROOM_BYTES);
    figures['room left on the full disk (KB)'] = Number.isFinite(disk.available()) ? Math.round(disk.available() / 1024) : 'n/a';
    const assetsBefore = await assetCount(userId);
    const before = await availableOf(db(), userId);

    // The upload does not fit: a clear answer, nothing half-written, nothing to register.
    const refused = await putFile(client, noise, 'png');
    figures['upload of a PNG that does not fit'] =
      `${(noise.length / 1024 / 1024).toFixed(2)} MB → HTTP ${refused.put.status}, "${refused.put.body.message}"`;
    expect(refused.put).toEqual({ status: 507, body: { code: 507, message: full, data: null } });
    const register = await client.call('POST', '/assert/uploadFileWithUrl', { body: { resKey: refused.resKey, fileName: 'noise.png' } });
    expect(register.body.code).toBe(404);
    expect(await assetCount(userId)).toBe(assetsBefore);
    await expectStoreMatchesAssets(db(), filesDirOf(dataDir), userId);

    // The render's video does not fit: FAILURE with the same message, refunded once, no asset, no file.
    const failed = await imageToVideo(client, sourceKey);
    expect(failed.row.status).toBe('FAILURE');
    const answer = await client.ok<{ error: string }>('GET', '/task/v1/image-to-video/query', { query: { taskId: failed.taskId } });
    // Under prlimit the limit may hit ffmpeg first, which then dies of it: a failed render, "Generation failed".
    const messages = disk.how === 'tmpfs' ? [full] : [full, errorMessage('generationFailed', 'en')];
    expect(messages).toContain(JSON.parse(answer.error).message);
    expect((await ledgerOf(db(), failed.taskId)).map((r) => r.change)).toEqual([-price, price]);
    expect(await availableOf(db(), userId)).toBe(before);
    expect(await assetCount(userId)).toBe(assetsBefore);
    await expectStoreMatchesAssets(db(), filesDirOf(dataDir), userId);
    expect(filesUnder(tmpDirOf(dataDir))).toEqual([]);
    figures['image-to-video whose video does not fit'] =
      `FAILURE after ${(((failed.row.finishedAt as Date).getTime() - (failed.row.startedAt as Date).getTime()) / 1000).toFixed(1)} s, "${JSON.parse(answer.error).message}", refunds: ${(await ledgerOf(db(), failed.taskId)).filter((r) => r.type === 'REFUND_TASK').length}`;

    // Space freed: the same upload and the same render succeed, the render charged once.
    disk.free(server.child.pid as number);
    const uploaded = await uploadFile(client, noise, 'png', 'noise.png');
    expect(await assetCount(userId)).toBe(assetsBefore + 1);
    const made = await imageToVideo(client, sourceKey);
    expect(made.row.status, JSON.stringify(made.row.error)).toBe('SUCCESS');
    expect((await ledgerOf(db(), made.taskId)).map((r) => r.change)).toEqual([-price]);
    expect(await availableOf(db(), userId)).toBe(before - price);
    expect(await assetCount(userId)).toBe(assetsBefore + 2);
    const held = await expectStoreMatchesAssets(db(), filesDirOf(dataDir), userId);
    await expectLedgerConsistent(db());
    const [video] = await db()
      .select()
      .from(files)
      .where(eq(files.resKey, (made.row.result as { videos: { resKey: string }[] }).videos[0]?.resKey as string));
    figures['after freeing the space'] =
      `upload ${uploaded ? 'stored' : 'missing'}, video ${((video?.size ?? 0) / 1024).toFixed(0)} KB stored; ${held.length} objects in the store, all of them assets'`;
  }, 240_000);
});
