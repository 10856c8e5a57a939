import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateTools, probe } from '@reelsmith/media';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { files, pointsLedger } from '../src/db/schema.js';
import { priceOf } from '../src/modules/points/prices.js';
import { startWorker, type Worker } from '../src/modules/tasks/worker.js';
import { falProviders } from '../src/providers/fal/index.js';
import { ProviderError } from '../src/providers/http.js';
import { generationProviders } from '../src/providers/registry.js';
import { loadSettings } from '../src/settings.js';
import { fakeVendor, json, outputPng } from './providers/fakeVendor.js';
import { appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, upload } from './support/files.js';
import { availableOf, expectConsistent } from './support/points.js';

// Real pictures and videos are made (sharp, ffmpeg): the end-to-end runs use the first database only; the queue
// and ledger beneath are tested on every database elsewhere.
const [testDb] = testDatabases();
const silent = { info() {}, warn() {}, error() {} };
const tools = locateTools();

interface Output {
  resKey: string;
  url: string;
  posterUrl?: string;
}
interface Answer {
  status: string;
  progress?: string;
  error?: string;
  images?: Output[];
  videos?: Output[];
}

const photo = (width: number, height: number, colour: { r: number; g: number; b: number }) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width / 2}" height="${height / 2}"><circle cx="${width / 4}" cy="${height / 4}" r="${width / 5}" fill="white"/></svg>`,
        ),
        gravity: 'centre',
      },
    ])
    .png()
    .toBuffer();

describe(`generation tools on ${testDb?.name}`, () => {
  const t = appOn(testDb as NonNullable<typeof testDb>);
  let worker: Worker | undefined;
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'reelsmith-generation-'));
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  async function submitAndWait(browser: Browser, submitPath: string, kind: string, body: object): Promise<Answer & { taskId: string }> {
    const { taskId } = (await browser.ok('POST', submitPath, { body })) as { taskId: string };
    worker ??= startWorker(t.ctx, t.ctx.tasks, { concurrency: 1, log: silent });
    for (;;) {
      const answer = (await browser.ok('GET', `/task/v1/${kind}/query`, { query: { taskId } })) as Answer;
      if (answer.status === 'SUCCESS' || answer.status === 'FAILURE') return { ...answer, taskId };
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  /** Fetches an output through its signed link, as a browser would, into a file. */
  async function fetched(url: string, name: string): Promise<string> {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    const file = join(work, name);
    writeFileSync(file, res.rawPayload);
    return file;
  }

  const generatedFiles = (userId: string) =>
    t.ctx.db
      .select()
      .from(files)
      .where(and(eq(files.userId, userId), eq(files.source, 'generated')));
  const ledgerOf = (taskId: string) => t.ctx.db.select().from(pointsLedger).where(eq(pointsLedger.taskId, taskId));
  /** The sandbox's drawing under a vendor's name: real work as far as the price goes (decision "Stand-ins are free"). */
  const asVendor = <P extends { name: string }>(provider: P | null): P => ({ ...(provider as P), name: 'fal' });

  it('makes pictures from text at the ratio and count asked, charged imageGen × count, kept as generated assets', {
    timeout: 60_000,
  }, async () => {
    const { browser, userId } = await activeMember(t, 'painter');
    const before = await availableOf(t.ctx.db, userId);
    const original = t.ctx.providers.textToImage;
    t.ctx.providers.textToImage = asVendor(original);
    const done = await submitAndWait(browser, '/image/generate', 'text-to-image', {
      prompt: '一支口红 on marble',
      ratio: '9:16',
      count: 2,
    }).finally(() => {
      t.ctx.providers.textToImage = original;
    });
    expect(done.status, done.error).toBe('SUCCESS');
    expect(done.progress).toBe('polishing');
    expect(done.images).toHaveLength(2);
    for (const [i, image] of (done.images ?? []).entries()) {
      expect(await sharp(await fetched(image.url, `t2i-${i}.png`)).metadata()).toMatchObject({ width: 576, height: 1024 });
    }
    expect(await availableOf(t.ctx.db, userId)).toBe(before - 2 * 4);
    const stored = await generatedFiles(userId);
    expect(stored.map((f) => f.resKey).sort()).toEqual((done.images ?? []).map((i) => i.resKey).sort());

    // "Detailed" is offered only where the operator named a second model of the same vendor (decision "Image models
    // named by what they do"): the vendor's choice here says so for the sandbox dressed as fal.
    const choices = t.ctx.settings.generation.choices;
    const originalChoice = choices.textToImage;
    t.ctx.providers.textToImage = asVendor(original);
    choices.textToImage = { vendor: 'fal', model: 'fal-ai/flux/schnell', proModel: 'fal-ai/flux-pro/v1.1' };
    const v2 = await submitAndWait(browser, '/image/generate', 'text-to-image', {
      prompt: 'A sofa',
      ratio: '16:9',
      quality: 'high',
      imageModel: 'v2',
    }).finally(() => {
      t.ctx.providers.textToImage = original;
      choices.textToImage = originalChoice;
    });
    expect(v2.status, v2.error).toBe('SUCCESS');
    expect(await sharp(await fetched(v2.images?.[0]?.url as string, 'v2.png')).metadata()).toMatchObject({ width: 2048, height: 1152 });
    expect(await availableOf(t.ctx.db, userId)).toBe(before - 8 - 6);
    await expectConsistent(t.ctx.db);
  });

  it('prices the sandbox’s stand-ins at 0 and charges nothing for them, the vendors’ work at its price', { timeout: 60_000 }, async () => {
    const { browser, userId } = await activeMember(t, 'sampler');
    const price = (skuCode: string) => browser.ok('GET', '/points/skuPrice', { query: { skuCode } });
    // The defaults outside production: the sandbox draws pictures and makes videos and presenters; the local engine
    // does the image editor's and image to video's real work.
    for (const sku of ['imageGen', 'imageTryOn', 't2Video_std_5s', 'avatarVideo', 'productHolding']) {
      expect(await price(sku)).toEqual({ skuCode: sku, price: 0, standIn: true });
    }
    for (const sku of ['imageEnhance', 'extendImg', 'link2V_15s', 'img2VideoLocal_std_5s'] as const) {
      const listed = await priceOf(t.ctx.db, sku);
      expect(listed).toBeGreaterThan(0);
      expect(await price(sku)).toEqual({ skuCode: sku, price: listed, standIn: false });
    }
    const before = await availableOf(t.ctx.db, userId);
    const done = await submitAndWait(browser, '/image/generate', 'text-to-image', { prompt: 'A lamp', ratio: '1:1', count: 2 });
    expect(done.status, done.error).toBe('SUCCESS');
    expect(done.images).toHaveLength(2);
    expect(await ledgerOf(done.taskId)).toEqual([]);
    expect(await availableOf(t.ctx.db, userId)).toBe(before);

    // Pictures drawn by a vendor, edited by the sandbox: the quote is the listed price unless it says an edit is
    // meant, so a charge is never more than the price shown; the charge is exact.
    const original = t.ctx.providers.textToImage;
    t.ctx.providers.textToImage = asVendor(original);
    try {
      const listed = await priceOf(t.ctx.db, 'imageGen');
      const quote = (madeBy?: string) =>
        browser.ok('GET', '/points/skuPrice', { query: { skuCode: 'imageGen', ...(madeBy ? { madeBy } : {}) } });
      expect(await quote()).toEqual({ skuCode: 'imageGen', price: listed, standIn: false });
      expect(await quote('textToImage')).toEqual({ skuCode: 'imageGen', price: listed, standIn: false });
      expect(await quote('imageToImage')).toEqual({ skuCode: 'imageGen', price: 0, standIn: true });
      // Work the SKU does not pay for is no reason to call it free.
      expect(await quote('talkingAvatar')).toEqual({ skuCode: 'imageGen', price: listed, standIn: false });
      expect((await browser.call('GET', '/points/skuPrice', { query: { skuCode: 'imageGen', madeBy: 'magic' } })).body.code).toBe(40000);
      const drawn = await submitAndWait(browser, '/image/generate', 'text-to-image', { prompt: 'A lamp', ratio: '1:1' });
      expect(drawn.status, drawn.error).toBe('SUCCESS');
      expect((await ledgerOf(drawn.taskId)).map((row) => [row.operationType, row.pointsChange])).toEqual([['TEXT_TO_IMAGE', -listed]]);
    } finally {
      t.ctx.providers.textToImage = original;
    }
  });

  it('makes a picture from the caller’s own picture, and refuses another user’s file before charging', { timeout: 60_000 }, async () => {
    const { browser } = await activeMember(t, 'editor');
    const uploaded = (await upload(t, browser, await photo(800, 600, { r: 200, g: 60, b: 60 }), 'png')).body.data as { resKey: string };
    const done = await submitAndWait(browser, '/image/generate', 'text-to-image', {
      prompt: 'Make it blue',
      ratio: '4:3',
      image: { resKey: uploaded.resKey },
    });
    expect(done.status, done.error).toBe('SUCCESS');
    expect(await sharp(await fetched(done.images?.[0]?.url as string, 'i2i.png')).metadata()).toMatchObject({ width: 1024, height: 768 });

    const stranger = await activeMember(t, 'stranger');
    const before = await availableOf(t.ctx.db, stranger.userId);
    const stolen = await stranger.browser.call('POST', '/image/generate', {
      body: { prompt: 'x', ratio: '1:1', image: { resKey: uploaded.resKey } },
    });
    expect(stolen.body.code).toBe(404);
    const peek = await stranger.browser.call('GET', '/task/v1/text-to-image/query', { query: { taskId: done.taskId } });
    expect(peek.body.code).toBe(404);
    expect(await availableOf(t.ctx.db, stranger.userId)).toBe(before);
    // The sandbox edited it: a stand-in, free.
    expect(await ledgerOf(done.taskId)).toEqual([]);
  });

  it('makes a video from text of the duration, size and sound asked, charged t2Video_<tier>_<duration>s', {
    timeout: 120_000,
  }, async () => {
    const { browser, userId } = await activeMember(t, 'director');
    const before = await availableOf(t.ctx.db, userId);
    const original = t.ctx.providers.textToVideo;
    t.ctx.providers.textToVideo = asVendor(original);
    const done = await submitAndWait(browser, '/video/text2video', 'text-to-video', {
      prompt: 'Sneakers running through a city at night',
      duration: 5,
      ratio: '16:9',
      soundEffect: true,
    }).finally(() => {
      t.ctx.providers.textToVideo = original;
    });
    expect(done.status, done.error).toBe('SUCCESS');
    const video = done.videos?.[0] as Output;
    const probed = await probe(tools, await fetched(video.url, 't2v.mp4'));
    expect(probed).toMatchObject({ width: 1280, height: 720 });
    expect(Math.abs(probed.duration - 5)).toBeLessThan(0.3);
    expect(probed.streams.map((s) => s.type).sort()).toEqual(['audio', 'video']);
    expect(await sharp(await fetched(video.posterUrl as string, 'poster.webp')).metadata()).toMatchObject({ format: 'webp' });
    expect(await availableOf(t.ctx.db, userId)).toBe(before - 20);
  });

  it('animates the caller’s picture: a silent video shaped like it; without a picture it refuses, charging nothing', {
    timeout: 120_000,
  }, async () => {
    const { browser, userId } = await activeMember(t, 'animator');
    const uploaded = (await upload(t, browser, await photo(600, 800, { r: 40, g: 120, b: 200 }), 'png')).body.data as { resKey: string };
    const before = await availableOf(t.ctx.db, userId);
    const missing = await browser.call('POST', '/video/image2video', { body: { image: {}, duration: 5 } });
    expect(missing.body).toMatchObject({ code: 40081, message: 'Please upload an image.' });
    expect(await availableOf(t.ctx.db, userId)).toBe(before);

    // No vendor model is set: the local engine makes it, quoted and charged at its own price.
    const quoted = await quote(browser, 5);
    expect(quoted).toEqual({ engine: 'local', skuCode: 'img2VideoLocal_std_5s', price: 4 });
    const done = await submitAndWait(browser, '/video/image2video', 'image-to-video', { image: { resKey: uploaded.resKey }, duration: 5 });
    expect(done.status, done.error).toBe('SUCCESS');
    const probed = await probe(tools, await fetched(done.videos?.[0]?.url as string, 'i2v.mp4'));
    expect(probed).toMatchObject({ width: 720, height: 960 });
    expect(Math.abs(probed.duration - 5)).toBeLessThan(0.3);
    expect(probed.streams.map((s) => s.type)).toEqual(['video']);
    expect(await availableOf(t.ctx.db, userId)).toBe(before - quoted.price);
  });

  /** What the image-to-video tool quotes, as it works it out: the engine of /video/models, then that SKU's price. */
  async function quote(browser: Browser, duration: 5 | 10, tier: 'std' | 'pro' = 'std') {
    const [model] = (await browser.ok('GET', '/video/models', { query: { mode: 'image' } })) as { engine: string }[];
    const skuCode = `${model?.engine === 'local' ? 'img2VideoLocal' : 'img2Video'}_${tier}_${duration}s`;
    const { price } = (await browser.ok('GET', '/points/skuPrice', { query: { skuCode } })) as { price: number };
    return { engine: model?.engine, skuCode, price };
  }

  it('charges image to video at the price quoted for the engine doing it, a vendor’s or the local one, and refunds exactly that', {
    timeout: 120_000,
  }, async () => {
    const { browser, userId } = await activeMember(t, 'pricing');
    const uploaded = (await upload(t, browser, await photo(640, 640, { r: 200, g: 90, b: 40 }), 'png')).body.data as { resKey: string };
    const original = t.ctx.providers.imageToVideo;
    const vendor = generationProviders(loadSettings({ DATA_DIR: t.ctx.settings.dataDir, PROVIDER_IMAGE_TO_VIDEO: 'sandbox' }));
    try {
      // A vendor model (the sandbox's video under a vendor's name): the vendor's SKU, for each output.
      t.ctx.providers.imageToVideo = asVendor(vendor.imageToVideo);
      const quoted = await quote(browser, 10, 'pro');
      expect(quoted).toEqual({ engine: 'vendor', skuCode: 'img2Video_pro_10s', price: 60 });
      let before = await availableOf(t.ctx.db, userId);
      const made = await submitAndWait(browser, '/video/image2video', 'image-to-video', {
        image: { resKey: uploaded.resKey },
        duration: 10,
        tier: 'pro',
      });
      expect(made.status, made.error).toBe('SUCCESS');
      expect(await availableOf(t.ctx.db, userId)).toBe(before - quoted.price);

      // The local engine failing: charged its own quoted price for two outputs, and exactly that comes back.
      t.ctx.providers.imageToVideo = {
        name: 'local',
        generate: async () => {
          throw new ProviderError('the camera move failed');
        },
      };
      const local = await quote(browser, 10);
      expect(local).toEqual({ engine: 'local', skuCode: 'img2VideoLocal_std_10s', price: 6 });
      before = await availableOf(t.ctx.db, userId);
      const failed = await submitAndWait(browser, '/video/image2video', 'image-to-video', {
        image: { resKey: uploaded.resKey },
        duration: 10,
        count: 2,
      });
      expect(failed.status).toBe('FAILURE');
      const rows = await ledgerOf(failed.taskId);
      expect(rows.map((r) => [r.operationType, r.pointsChange]).sort()).toEqual([
        ['IMAGE_TO_VIDEO', -2 * local.price],
        ['REFUND_TASK', 2 * local.price],
      ]);
      expect(await availableOf(t.ctx.db, userId)).toBe(before);
    } finally {
      t.ctx.providers.imageToVideo = original;
    }
  });

  it('tries clothes on a preset model, and asks for the garments each type needs', { timeout: 60_000 }, async () => {
    const { browser, userId } = await activeMember(t, 'stylist');
    const models = (await browser.ok('GET', '/image/getHumanInfo')) as { modelId: string; imageUrl: string }[];
    const clothes = (await browser.ok('GET', '/image/getClothInfo')) as { templateId: string; garmentType: string; imageUrl: string }[];
    expect(models.length).toBeGreaterThanOrEqual(2);
    const preset = await t.app.inject({ method: 'GET', url: models[0]?.imageUrl as string });
    expect(preset.headers['content-type']).toBe('image/png');
    const top = clothes.find((c) => c.garmentType === 'top')?.templateId;
    const bottom = clothes.find((c) => c.garmentType === 'bottom')?.templateId;
    const before = await availableOf(t.ctx.db, userId);

    const noModel = await browser.call('POST', '/image/virtualTryOn', {
      body: { garmentType: 'top', model: {}, top: { templateId: top } },
    });
    expect(noModel.body).toMatchObject({ code: 40083, message: 'Please choose a model.' });
    const noBottom = await browser.call('POST', '/image/virtualTryOn', {
      body: { garmentType: 'twoPieces', model: { modelId: models[0]?.modelId }, top: { templateId: top } },
    });
    expect(noBottom.body.code).toBe(40085);
    const noTop = await browser.call('POST', '/image/virtualTryOn', {
      body: { garmentType: 'onePiece', model: { modelId: models[0]?.modelId } },
    });
    expect(noTop.body.code).toBe(40084);
    expect(await availableOf(t.ctx.db, userId)).toBe(before);

    const done = await submitAndWait(browser, '/image/virtualTryOn', 'virtual-try-on', {
      garmentType: 'twoPieces',
      model: { modelId: models[0]?.modelId },
      top: { templateId: top },
      bottom: { templateId: bottom },
      count: 2,
    });
    expect(done.status, done.error).toBe('SUCCESS');
    expect(done.images).toHaveLength(2);
    expect(await sharp(await fetched(done.images?.[0]?.url as string, 'try-on.png')).metadata()).toMatchObject({
      width: 768,
      height: 1024,
    });
    // The sandbox's try-on is a stand-in: free (decision "Stand-ins are free").
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
  });

  it('says clearly that a prompt cannot be empty, in the caller’s language, charging nothing', async () => {
    const { browser, userId } = await activeMember(t, 'blank');
    const before = await availableOf(t.ctx.db, userId);
    const empty = await browser.call('POST', '/image/generate', { body: { prompt: '   ', ratio: '1:1' } });
    expect(empty.body).toMatchObject({ code: 40080, message: 'Please enter a prompt.' });
    const zh = await browser.call('POST', '/video/text2video', {
      body: { prompt: '', duration: 5, ratio: '9:16' },
      headers: { 'accept-language': 'zh' },
    });
    expect(zh.body).toMatchObject({ code: 40080, message: '请输入提示词。' });
    const unknownModel = await browser.call('POST', '/video/text2video', {
      body: { prompt: 'x', duration: 5, ratio: '9:16', videoModel: 'nope' },
    });
    expect(unknownModel.body).toMatchObject({ code: 40000, message: expect.stringContaining('videoModel') });
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
  });

  it('fails a task whose provider fails, with one refund that restores the balance, and keeps no output', { timeout: 30_000 }, async () => {
    const { browser, userId } = await activeMember(t, 'unlucky');
    const before = await availableOf(t.ctx.db, userId);
    const original = t.ctx.providers.textToImage;
    t.ctx.providers.textToImage = {
      name: 'fal',
      generate: async () => {
        throw new ProviderError('POST https://queue.fal.run/fal-ai/flux/dev answered 429: rate limited', 429);
      },
    };
    try {
      const done = await submitAndWait(browser, '/image/generate', 'text-to-image', { prompt: 'A lamp', ratio: '1:1', count: 3 });
      expect(done.status).toBe('FAILURE');
      expect(JSON.parse(done.error as string)).toEqual({
        message: 'The generation service is busy right now. Please try again in a few minutes.',
      });
      const rows = await ledgerOf(done.taskId);
      expect(rows.map((r) => [r.operationType, r.pointsChange]).sort()).toEqual([
        ['REFUND_TASK', 12],
        ['TEXT_TO_IMAGE', -12],
      ]);
      expect(await availableOf(t.ctx.db, userId)).toBe(before);
      expect(await generatedFiles(userId)).toEqual([]);

      const history = (await browser.ok('POST', '/generation/history', { body: { tool: 'text-to-image', page: 1, pageSize: 10 } })) as {
        status: string;
        error: string;
      }[];
      expect(history[0]).toMatchObject({
        status: 'FAILURE',
        error: 'The generation service is busy right now. Please try again in a few minutes.',
      });
    } finally {
      t.ctx.providers.textToImage = original;
    }
    await expectConsistent(t.ctx.db);
  });

  it('lists a tool’s history newest first, paged, with fresh links, only the caller’s', { timeout: 60_000 }, async () => {
    const { browser } = await activeMember(t, 'historian');
    const first = await submitAndWait(browser, '/image/generate', 'text-to-image', { prompt: 'first', ratio: '1:1' });
    const second = await submitAndWait(browser, '/image/generate', 'text-to-image', { prompt: 'second', ratio: '1:1' });
    const page = (await browser.ok('POST', '/generation/history', { body: { tool: 'text-to-image', page: 1, pageSize: 1 } })) as {
      taskId: string;
      input: { prompt: string };
      outputs: Output[];
      status: string;
      progress: string;
    }[];
    expect(page).toHaveLength(1);
    expect(page[0]).toMatchObject({ taskId: second.taskId, status: 'SUCCESS', progress: 'polishing', input: { prompt: 'second' } });
    expect((await t.app.inject({ method: 'GET', url: page[0]?.outputs[0]?.url as string })).statusCode).toBe(200);
    const next = (await browser.ok('POST', '/generation/history', { body: { tool: 'text-to-image', page: 2, pageSize: 1 } })) as {
      taskId: string;
    }[];
    expect(next.map((r) => r.taskId)).toEqual([first.taskId]);
    expect(await browser.ok('POST', '/generation/history', { body: { tool: 'text-to-video', page: 1, pageSize: 10 } })).toEqual([]);
    // The modes of one page in one list: each record names its own tool.
    const modes = (await browser.ok('POST', '/generation/history', {
      body: { tool: ['text-to-video', 'text-to-image'], page: 1, pageSize: 10 },
    })) as { taskId: string; tool: string }[];
    expect(modes.map((r) => [r.taskId, r.tool])).toEqual([
      [second.taskId, 'text-to-image'],
      [first.taskId, 'text-to-image'],
    ]);
    const other = await activeMember(t, 'nosy');
    expect(await other.browser.ok('POST', '/generation/history', { body: { tool: 'text-to-image', page: 1, pageSize: 10 } })).toEqual([]);
  });

  it('offers "Fast" only where no second image model is set, and refuses "Detailed" there before charging', async () => {
    const { browser, userId } = await activeMember(t, 'detailed');
    expect(await browser.ok('GET', '/image/models', { query: { mode: 'text' } })).toEqual(['v1']);
    expect(await browser.ok('GET', '/image/models', { query: { mode: 'image' } })).toEqual(['v1']);
    const before = await availableOf(t.ctx.db, userId);
    const answer = await browser.call('POST', '/image/generate', { body: { prompt: 'a lamp', ratio: '1:1', imageModel: 'v2' } });
    expect(answer.body).toMatchObject({ code: 40134, message: 'This image model is not available. Please choose another.' });
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
  });

  it('lists the sandbox video model, twelve product demos in the caller’s language, and names providers in /health', async () => {
    const { browser } = await activeMember(t, 'browser');
    expect(await browser.ok('GET', '/video/models', { query: { mode: 'text' } })).toEqual([
      { modelId: 'sandbox', name: 'Sandbox', tiers: ['std', 'pro'], durations: [5, 10], engine: 'vendor' },
    ]);
    const demos = (await new (browser.constructor as typeof Browser)(t.app, 'pt').ok('GET', '/mis/product-demo')) as {
      category: string;
      name: string;
      prompt: string;
      imageUrl: string;
    }[];
    expect(demos).toHaveLength(12);
    expect(demos.find((d) => d.category === 'sneakers')?.name).toBe('Tênis');
    const card = await t.app.inject({ method: 'GET', url: demos[0]?.imageUrl as string });
    expect((await sharp(card.rawPayload).metadata()).width).toBe(768);
    const health = (await browser.ok('GET', '/health')) as { engine: { providers: Record<string, string | null> } };
    expect(health.engine.providers).toMatchObject({ textToImage: 'sandbox', textToVideo: 'sandbox', virtualTryOn: 'sandbox' });
  });
});

describe(`generation in production without providers on ${testDb?.name}`, () => {
  const t = appOn(testDb as NonNullable<typeof testDb>);
  // Production's providers and choices (no sandbox, no vendor) in an app that still signs members in by e-mail,
  // which production itself refuses.
  beforeAll(() => {
    const production = loadSettings({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://reelsmith@db/reelsmith',
      SESSION_SECRET: 'p'.repeat(32),
      PUBLIC_URL: 'https://studio.example',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      METRICS_TOKEN: 'm'.repeat(16),
      DATA_DIR: t.ctx.settings.dataDir,
    });
    t.ctx.providers = generationProviders(production);
    Object.assign(t.ctx.settings, { generation: production.generation });
  });

  it('refuses each generation tool before charging anything', async () => {
    const { browser, userId } = await activeMember(t, 'prod');
    const before = await availableOf(t.ctx.db, userId);
    for (const [path, body] of [
      ['/image/generate', { prompt: 'x', ratio: '1:1' }],
      ['/video/text2video', { prompt: 'x', duration: 5, ratio: '9:16' }],
      ['/image/virtualTryOn', { garmentType: 'top', model: { modelId: 'ava' }, top: { templateId: 'tee-green' } }],
      [
        '/task/v1/avatar-video/submit',
        { script: 'Meet the lamp.', consent: true, presenter: { imageUrl: 'https://shop.example/face.jpg' } },
      ],
    ] as const) {
      const answer = await browser.call('POST', path, { body });
      expect(answer.body).toMatchObject({
        code: 50030,
        message: 'This tool is not available on this server yet. Your credits were not used.',
      });
    }
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
    expect(await browser.ok('GET', '/video/models', { query: { mode: 'text' } })).toEqual([]);
    expect(await browser.ok('GET', '/image/models', { query: { mode: 'text' } })).toEqual([]);
    expect(await browser.ok('GET', '/video/avatar/engine')).toEqual({ engine: null });
  });
});

// A stand-in's result says so in words wherever it is shown, not only by its mark (decision "Stand-ins are free"):
// the library and the tool's history tell a sandbox's picture from a vendor's, here one fal's queue on loopback made.
describe.each(testDatabases())('stand-ins named as such on $name', (database) => {
  const t = appOn(database);
  const fal = fakeVendor();
  let worker: Worker | undefined;
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });

  /** fal's queue answering one picture at once, and the text-to-image provider that asks it. */
  async function falDrawing() {
    const png = await outputPng();
    const app = 'fal-ai/flux';
    fal.handlers.set('GET /files/a.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    fal.handlers.set('POST /fal-ai/flux/dev', (_req, res) =>
      json(res, 200, {
        request_id: 'req-1',
        status: 'IN_QUEUE',
        status_url: `${fal.base}/${app}/requests/req-1/status`,
        response_url: `${fal.base}/${app}/requests/req-1`,
      }),
    );
    fal.handlers.set(`GET /${app}/requests/req-1/status`, (_req, res) => json(res, 200, { status: 'COMPLETED' }));
    fal.handlers.set(`GET /${app}/requests/req-1`, (_req, res) => json(res, 200, { images: [{ url: `${fal.base}/files/a.png` }] }));
    const settings = loadSettings({
      DATA_DIR: t.ctx.settings.dataDir,
      FAL_KEY: 'fal-secret',
      FAL_BASE_URL: fal.base,
      PROVIDER_TEXT_TO_IMAGE: 'fal:fal-ai/flux/dev',
      PROVIDER_POLL_MS: '20',
    });
    return falProviders(settings, settings.generation.fal as NonNullable<typeof settings.generation.fal>).textToImage;
  }

  async function draw(browser: Browser, prompt: string): Promise<Answer & { taskId: string; standIn?: boolean }> {
    const { taskId } = (await browser.ok('POST', '/image/generate', { body: { prompt, ratio: '1:1' } })) as { taskId: string };
    worker ??= startWorker(t.ctx, t.ctx.tasks, { concurrency: 1, log: silent });
    for (;;) {
      const answer = (await browser.ok('GET', '/task/v1/text-to-image/query', { query: { taskId } })) as Answer;
      if (answer.status === 'FAILURE') throw new Error(answer.error);
      if (answer.status === 'SUCCESS') return { ...answer, taskId };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('lists a picture the sandbox made with standIn: true, one a vendor made and an upload without it, in the library and the history', {
    timeout: 60_000,
  }, async () => {
    const { browser } = await activeMember(t, 'labeller');
    const sandboxTask = await draw(browser, 'A lamp');
    // The task's own answer says so too, for a result shown as soon as it is made.
    expect(sandboxTask.standIn).toBe(true);
    const original = t.ctx.providers.textToImage;
    t.ctx.providers.textToImage = (await falDrawing()) ?? null;
    const vendorTask = await draw(browser, 'A vase').finally(() => {
      t.ctx.providers.textToImage = original;
    });
    expect(vendorTask).not.toHaveProperty('standIn');
    await upload(t, browser, await outputPng(), 'png', 'mine.png');

    const { list } = (await browser.ok('POST', '/assert/folders/files', { body: { page: 1, pageSize: 10 } })) as {
      list: { fileName: string; standIn?: boolean }[];
    };
    const labelled = Object.fromEntries(list.map((asset) => [asset.fileName, 'standIn' in asset ? asset.standIn : 'absent']));
    expect(labelled).toEqual({ 'Text to image – A lamp 1.png': true, 'Text to image – A vase 1.png': 'absent', 'mine.png': 'absent' });

    const history = (await browser.ok('POST', '/generation/history', { body: { tool: 'text-to-image', page: 1, pageSize: 10 } })) as {
      taskId: string;
      outputs: unknown[];
      standIn?: boolean;
    }[];
    expect(history.map((record) => [record.taskId, record.outputs.length, 'standIn' in record ? record.standIn : 'absent'])).toEqual([
      [vendorTask.taskId, 1, 'absent'],
      [sandboxTask.taskId, 1, true],
    ]);
  });
});
