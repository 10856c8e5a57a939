import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateTools, probe } from '@reelsmith/media';
import { grainPhoto } from '@reelsmith/media/fixtures';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { pointsLedger, tasks } from '../src/db/schema.js';
import { IMAGE_EDIT_TASKS } from '../src/modules/image-edit/tasks.js';
import { priceOf } from '../src/modules/points/prices.js';
import { startWorker, type Worker } from '../src/modules/tasks/worker.js';
import { localProviders } from '../src/providers/local/images.js';
import { appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, fixtureServer, upload } from './support/files.js';
import { availableOf, expectConsistent } from './support/points.js';

const silent = { info() {}, warn() {}, error() {} };
const tools = locateTools();

interface ImagesAnswer {
  taskId: string;
  status: string;
  progress?: string;
  error?: string;
  images: { resKey: string; url: string }[];
}

/** A product shot: a blue bottle with a dark cap on a plain beige backdrop. */
const productShot = (width = 800, height = 800) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 1024 1024" preserveAspectRatio="none"><rect width="1024" height="1024" fill="#d8d2c4"/><rect x="380" y="250" width="260" height="560" rx="60" fill="#2a6bd1"/><rect x="440" y="180" width="140" height="90" fill="#333"/></svg>`,
    ),
  )
    .jpeg({ quality: 92 })
    .toBuffer();

/** A T-shirt silhouette on white, as a shop's packshot. */
const tshirt = (background = '#ffffff') =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024"><rect width="1024" height="1024" fill="${background}"/><path transform="translate(512 512) scale(3)" fill="#c33" d="M -60 -100 L -20 -110 Q 0 -95 20 -110 L 60 -100 L 120 -50 L 95 -15 L 65 -35 L 65 110 L -65 110 L -65 -35 L -95 -15 L -120 -50 Z"/></svg>`,
    ),
  )
    .png()
    .toBuffer();

for (const testDb of testDatabases()) {
  describe(`image edit tools on ${testDb.name}`, () => {
    const fixture = fixtureServer();
    const t = appOn(testDb, () => ({ OUTBOUND_ALLOW_HOSTS: fixture.host }), IMAGE_EDIT_TASKS);
    const work = mkdtempSync(join(tmpdir(), 'reelsmith-image-edit-'));
    let worker: Worker | undefined;
    afterEach(async () => {
      await worker?.stop();
      worker = undefined;
    });
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    const startWorking = () => {
      worker ??= startWorker(t.ctx, t.ctx.tasks, { concurrency: 1, log: silent });
    };
    async function submitted(browser: Browser, kind: string, body: object): Promise<string> {
      return ((await browser.ok('POST', `/task/v1/${kind}/submit`, { body })) as { taskId: string }).taskId;
    }
    async function settled(browser: Browser, kind: string, taskId: string, locale = 'en'): Promise<ImagesAnswer> {
      startWorking();
      const stages = new Set<string>();
      for (;;) {
        const answer = (await browser.ok('GET', `/task/v1/${kind}/query`, {
          query: { taskId },
          headers: { 'accept-language': locale },
        })) as ImagesAnswer;
        if (answer.progress) stages.add(answer.progress);
        if (answer.status === 'SUCCESS' || answer.status === 'FAILURE') return answer;
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    }
    const run = async (browser: Browser, kind: string, body: object) => settled(browser, kind, await submitted(browser, kind, body));

    /** Uploads a picture through the web app's flow and answers its resKey and file id. */
    async function uploaded(browser: Browser, bytes: Buffer, format: 'jpg' | 'png' = 'jpg') {
      const answer = await upload(t, browser, bytes, format, `picture.${format}`);
      expect(answer.body.code, answer.body.message).toBe(0);
      return answer.body.data as { fileId: string; resKey: string; fileUrl: string };
    }

    /** The output as a browser gets it, through its signed link. */
    async function downloaded(url: string, name: string): Promise<string> {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      const file = join(work, name);
      writeFileSync(file, res.rawPayload);
      return file;
    }

    const ledgerOf = async (taskId: string) =>
      (await t.ctx.db.select().from(pointsLedger).where(eq(pointsLedger.taskId, taskId))).map((row) => ({
        operationType: row.operationType,
        pointsChange: row.pointsChange,
      }));
    const tasksOf = async (userId: string) => t.ctx.db.select().from(tasks).where(eq(tasks.userId, userId));

    /** The output is listed in the caller's library as a generated image, named after its source and the tool. */
    async function expectInLibrary(browser: Browser, resKey: string, fileName: string) {
      const { list } = (await browser.ok('POST', '/assert/folders/files', { body: { page: 1, pageSize: 50 } })) as {
        list: { resKey: string | null; fileName: string; source: string; type: string | null; status: string }[];
      };
      expect(list.find((asset) => asset.resKey === resKey)).toMatchObject({
        fileName,
        source: 'generated',
        type: 'image',
        status: 'completed',
      });
    }

    it('removes the background of an uploaded picture: a PNG with alpha, charged once, in the library', { timeout: 240_000 }, async () => {
      const { browser, userId } = await activeMember(t, 'cutout');
      const { resKey } = await uploaded(browser, await productShot());
      const before = await availableOf(t.ctx.db, userId);
      const price = await priceOf(t.ctx.db, 'imageBg');

      const done = await run(browser, 'remove-background', { resKey });
      expect(done.status, done.error).toBe('SUCCESS');
      expect(done.images).toHaveLength(1);
      const file = await downloaded((done.images[0] as { url: string }).url, 'cutout.png');
      expect(await sharp(file).metadata()).toMatchObject({ format: 'png', hasAlpha: true, channels: 4, width: 800, height: 800 });
      const alpha = await sharp(file).extractChannel(3).raw().toBuffer();
      expect(alpha[400 * 800 + 400]).toBeGreaterThan(230);
      expect(alpha[10 * 800 + 10]).toBeLessThan(20);

      expect(await availableOf(t.ctx.db, userId)).toBe(before - price);
      // One charge (the AI background kind of the credit history), no refund.
      expect(await ledgerOf(done.taskId)).toEqual([{ operationType: 'AI_BACKGROUND', pointsChange: -price }]);
      await expectInLibrary(browser, (done.images[0] as { resKey: string }).resKey, 'picture – Background removed.png');
      await expectConsistent(t.ctx.db);
    });

    it('fails the removal of a picture with no product in it with its message, refunding it, with no output', {
      timeout: 240_000,
    }, async () => {
      const { browser, userId } = await activeMember(t, 'no-product');
      // Grain on grey: nothing the model can call a product.
      const { resKey } = await uploaded(browser, await grainPhoto(512, 512, { low: 120, spread: 20 }));
      const before = await availableOf(t.ctx.db, userId);

      const failed = await settled(browser, 'remove-background', await submitted(browser, 'remove-background', { resKey }));
      expect(failed.status).toBe('FAILURE');
      expect(JSON.parse(failed.error as string)).toEqual({ message: 'No product was found in the image.' });
      // Nothing was added to the library: only the upload is there.
      const { list } = (await browser.ok('POST', '/assert/folders/files', { body: { page: 1, pageSize: 50 } })) as {
        list: { source: string }[];
      };
      expect(list.map((asset) => asset.source)).toEqual(['local']);
      expect(await availableOf(t.ctx.db, userId)).toBe(before);
      expect(await ledgerOf(failed.taskId)).toEqual([
        { operationType: 'AI_BACKGROUND', pointsChange: -(await priceOf(t.ctx.db, 'imageBg')) },
        { operationType: 'REFUND_TASK', pointsChange: await priceOf(t.ctx.db, 'imageBg') },
      ]);
      await expectConsistent(t.ctx.db);
    });

    it('puts a product fetched from a link on a preset background', { timeout: 240_000 }, async () => {
      const { browser } = await activeMember(t, 'scene');
      fixture.routes.set('/bottle.jpg', { type: 'image/jpeg', body: await productShot(700, 900) });
      const done = await run(browser, 'product-background', { imageUrl: `${fixture.base}/bottle.jpg`, backgroundId: 'podium-white' });
      expect(done.status, done.error).toBe('SUCCESS');
      const file = await downloaded((done.images[0] as { url: string }).url, 'scene.jpg');
      // The preset's size; the bottle stands in the middle, its blue kept.
      expect(await sharp(file).metadata()).toMatchObject({ format: 'jpeg', width: 1280, height: 1280 });
      const { data } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
      const i = (700 * 1280 + 640) * 3;
      expect(data[i + 2] as number).toBeGreaterThan((data[i] as number) + 60);
      await expectInLibrary(browser, (done.images[0] as { resKey: string }).resKey, 'bottle – New background.jpg');
    });

    it('expands a picture to a ratio and to a canvas, keeping it whole', async () => {
      const { browser, userId } = await activeMember(t, 'expand');
      const { resKey } = await uploaded(browser, await productShot(600, 600));
      const before = await availableOf(t.ctx.db, userId);
      const price = await priceOf(t.ctx.db, 'extendImg');

      const toRatio = await run(browser, 'expand-image', { resKey, ratio: '9:16' });
      expect(toRatio.status, toRatio.error).toBe('SUCCESS');
      expect(await sharp(await downloaded((toRatio.images[0] as { url: string }).url, 'ratio.jpg')).metadata()).toMatchObject({
        width: 600,
        height: 1067,
      });
      const toCanvas = await run(browser, 'expand-image', { resKey, canvas: { width: 1000, height: 700, left: 0, top: 50 } });
      expect(toCanvas.status, toCanvas.error).toBe('SUCCESS');
      expect(await sharp(await downloaded((toCanvas.images[0] as { url: string }).url, 'canvas.jpg')).metadata()).toMatchObject({
        width: 1000,
        height: 700,
      });
      expect(await availableOf(t.ctx.db, userId)).toBe(before - 2 * price);
    });

    it('enlarges a picture by 2 and by 4, n always 1', async () => {
      const { browser } = await activeMember(t, 'enlarge');
      const { resKey } = await uploaded(browser, await tshirt(), 'png');
      const twice = await run(browser, 'enlarge-image', { resKey, scale: 2, n: 1 });
      expect(twice.status, twice.error).toBe('SUCCESS');
      expect(await sharp(await downloaded((twice.images[0] as { url: string }).url, 'x2.png')).metadata()).toMatchObject({
        format: 'png',
        width: 2048,
        height: 2048,
      });
      const small = await uploaded(browser, await productShot(300, 200));
      const four = await run(browser, 'enlarge-image', { resKey: small.resKey, scale: 4 });
      expect(four.status, four.error).toBe('SUCCESS');
      expect(await sharp(await downloaded((four.images[0] as { url: string }).url, 'x4.jpg')).metadata()).toMatchObject({
        format: 'jpeg',
        width: 1200,
        height: 800,
      });
      const wrongN = await browser.call('POST', '/task/v1/enlarge-image/submit', { body: { resKey, n: 2 } });
      expect(wrongN.body.code).toBe(40000);
    });

    it('refuses bad submissions before charging, with the error table message', async () => {
      const { browser, userId } = await activeMember(t, 'refused');
      const other = await activeMember(t, 'other');
      const theirs = await uploaded(other.browser, await productShot(600, 600));
      const mine = await uploaded(browser, await productShot(600, 600));
      const big = await uploaded(browser, await productShot(1921, 800));
      const before = await availableOf(t.ctx.db, userId);
      const refused = async (kind: string, body: object, locale = 'en') =>
        (await browser.call('POST', `/task/v1/${kind}/submit`, { body, headers: { 'accept-language': locale } })).body;

      expect(await refused('remove-background', {})).toMatchObject({ code: 40070, message: 'Please upload a product image.' });
      expect(await refused('remove-background', {}, 'zh')).toMatchObject({ code: 40070, message: '请上传商品图片。' });
      expect(await refused('remove-background', { resKey: theirs.resKey })).toMatchObject({ code: 404, message: 'Not found.' });
      expect(await refused('enlarge-image', { resKey: big.resKey })).toMatchObject({
        code: 40073,
        message: 'The image is too large to enhance: its longest side may be at most 1920 px.',
      });
      expect(await refused('product-background', { resKey: mine.resKey })).toMatchObject({
        code: 40071,
        message: 'AI background needs an image and a background',
      });
      expect(await refused('product-background', { resKey: mine.resKey, backgroundId: 'moon' })).toMatchObject({ code: 40072 });
      expect(await refused('product-background', { resKey: mine.resKey, backgroundResKey: theirs.resKey })).toMatchObject({ code: 404 });
      expect(await refused('expand-image', { resKey: mine.resKey })).toMatchObject({ code: 40074 });
      expect(await refused('expand-image', { resKey: mine.resKey, canvas: { width: 700, height: 700, left: 200, top: 0 } })).toMatchObject({
        code: 40075,
      });
      fixture.routes.set('/not-a-picture.jpg', { type: 'image/jpeg', body: Buffer.from('<html>hello</html>') });
      expect(await refused('remove-background', { imageUrl: `${fixture.base}/not-a-picture.jpg` })).toMatchObject({ code: 40012 });
      expect(await refused('remove-background', { imageUrl: 'http://127.0.0.1:9/private.jpg' })).toMatchObject({ code: 40016 });

      const upscale = t.ctx.providers.upscale;
      t.ctx.providers.upscale = null;
      try {
        expect(await refused('enlarge-image', { resKey: mine.resKey })).toMatchObject({
          code: 50020,
          message: 'This tool is not available on this server.',
        });
      } finally {
        t.ctx.providers.upscale = upscale;
      }

      expect(await availableOf(t.ctx.db, userId)).toBe(before);
      expect(await tasksOf(userId)).toEqual([]);
    });

    it('fails a run whose picture is gone by then, refunding exactly once', async () => {
      const { browser, userId } = await activeMember(t, 'gone');
      const { resKey, fileId } = await uploaded(browser, await productShot(400, 400));
      const before = await availableOf(t.ctx.db, userId);
      const taskId = await submitted(browser, 'enlarge-image', { resKey, scale: 2 });
      expect(await availableOf(t.ctx.db, userId)).toBe(before - (await priceOf(t.ctx.db, 'imageEnhance')));
      await browser.ok('POST', '/assert/delete', { body: { fileIds: [fileId] } });

      const failed = await settled(browser, 'enlarge-image', taskId, 'pt');
      expect(failed.status).toBe('FAILURE');
      expect(JSON.parse(failed.error as string)).toEqual({ message: 'Não encontrado.' });
      const refunds = await t.ctx.db
        .select()
        .from(pointsLedger)
        .where(and(eq(pointsLedger.taskId, taskId), eq(pointsLedger.operationType, 'REFUND_TASK')));
      expect(refunds).toHaveLength(1);
      expect(await availableOf(t.ctx.db, userId)).toBe(before);
      await expectConsistent(t.ctx.db);
    });

    it('lists the preset backgrounds in the caller language and serves their pictures', async () => {
      const { browser } = await activeMember(t, 'presets');
      const list = (await browser.ok('GET', '/mis/product-background/list')) as {
        backgroundId: string;
        name: string;
        imageUrl: string;
        category: string;
      }[];
      expect(list.length).toBeGreaterThanOrEqual(8);
      expect(new Set(list.map((b) => b.category)).size).toBeGreaterThanOrEqual(3);
      const zh = (await browser.ok('GET', '/mis/product-background/list', {
        query: { category: 'studio' },
        headers: { 'accept-language': 'zh' },
      })) as typeof list;
      expect(zh.map((b) => b.name)).toContain('白色无缝背景纸');
      expect(zh.every((b) => b.category === 'studio')).toBe(true);
      const res = await t.app.inject({ method: 'GET', url: (list[0] as { imageUrl: string }).imageUrl });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 1280, height: 1280 });
      expect((await t.app.inject({ method: 'GET', url: `${(list[0] as { imageUrl: string }).imageUrl}x` })).statusCode).toBe(404);
      expect(list.some((b) => b.category === 'brand')).toBe(false);
      // With a brand kit saved, the same sets in its colours come first, and their pictures are those colours.
      const kit = { logoResKey: null, primaryColor: '#1e6fd9', secondaryColor: '#ffb800', fontId: 'noto-sans', callToAction: 'Buy now' };
      await browser.ok('POST', '/brand-kit/save', { body: kit });
      const branded = (await browser.ok('GET', '/mis/product-background/list')) as typeof list;
      expect(branded.slice(0, 3).map((b) => b.backgroundId)).toEqual([
        'brand-sweep-1e6fd9-ffb800',
        'brand-podium-1e6fd9-ffb800',
        'brand-wall-1e6fd9-ffb800',
      ]);
      const sweep = await t.app.inject({ method: 'GET', url: (branded[0] as { imageUrl: string }).imageUrl });
      const { channels } = await sharp(sweep.rawPayload).stats();
      expect((channels[2] as { mean: number }).mean).toBeGreaterThan((channels[0] as { mean: number }).mean + 60);
    });

    it('checks a clothing picture by its key or its link', async () => {
      const { browser } = await activeMember(t, 'cloth');
      const shirt = await uploaded(browser, await tshirt(), 'png');
      expect(await browser.ok('GET', '/image/getClothDesc', { query: { url: shirt.resKey } })).toEqual({
        ok: true,
        reason: null,
        garmentType: 'top',
        description: 'One top on a white background.',
      });
      // The signed link the web app holds for it, relative to the app: the same picture, not "Not found.".
      expect(shirt.fileUrl.startsWith('/')).toBe(true);
      expect(await browser.ok('GET', '/image/getClothDesc', { query: { url: shirt.fileUrl } })).toMatchObject({
        ok: true,
        garmentType: 'top',
      });
      fixture.routes.set('/grey-shirt.png', { type: 'image/png', body: await tshirt('#808080') });
      expect(
        await browser.ok('GET', '/image/getClothDesc', {
          query: { url: `${fixture.base}/grey-shirt.png` },
          headers: { 'accept-language': 'pt' },
        }),
      ).toMatchObject({
        ok: false,
        reason: 'background',
        garmentType: null,
        description: 'Use uma imagem da peça em um fundo branco liso.',
      });
      const other = await activeMember(t, 'cloth-other');
      expect((await other.browser.call('GET', '/image/getClothDesc', { query: { url: shirt.resKey } })).body.code).toBe(404);
    });

    it('animates a still with the local image to video provider', { timeout: 120_000 }, async () => {
      const dir = mkdtempSync(join(work, 'video-'));
      const still = join(dir, 'still.jpg');
      writeFileSync(still, await productShot(800, 800));
      const provider = localProviders(t.ctx.settings).imageToVideo;
      const out = await provider.generate(
        { image: still, duration: 5, width: 720, height: 1280, tier: 'std', soundEffect: false },
        { workDir: dir, signal: new AbortController().signal, progress: async () => {} },
      );
      const probed = await probe(tools, out);
      expect(probed).toMatchObject({ width: 720, height: 1280 });
      expect(Math.abs(probed.duration - 5)).toBeLessThan(0.1);
    });
  });
}
