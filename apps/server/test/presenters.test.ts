// Presenters (decision "Presenters"): the operator's catalogue, added, listed and retired with the admin commands and
// offered to every user; a user's own, saved from their picture with their consent after the face check, offered to
// nobody else; and the Avatar tool making a video with either.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drawnPortrait, productPhoto } from '@reelsmith/media/fixtures';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pointsLedger } from '../src/db/schema.js';
import { runAdminCommand } from '../src/modules/admin/commands.js';
import { priceOf } from '../src/modules/points/prices.js';
import { productHoldingTask } from '../src/modules/presenters/holding.js';
import type { ProductHolding, TryOnRequest } from '../src/providers/provider.js';
import { appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, upload } from './support/files.js';
import { availableOf } from './support/points.js';
import { taskRunner } from './support/taskRunner.js';

const [testDb] = testDatabases();
const SCRIPT = 'Meet the Trail bottle. Tap the link to get yours.';

interface Listed {
  presenterId: string;
  name: string;
  source: string;
  voiceId: string | null;
  languages: string[];
  imageUrl: string;
}

describe(`presenters on ${testDb?.name}`, () => {
  const t = appOn(testDb as NonNullable<typeof testDb>);
  const tasks = taskRunner(t);
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'reelsmith-presenters-'));
  });
  afterEach(() => tasks.stop());
  afterAll(() => rm(work, { recursive: true, force: true }));

  const admin = (command: Parameters<typeof runAdminCommand>[1]) => runAdminCommand(t.ctx, command);
  const listOf = async (browser: Browser) => (await browser.ok('GET', '/video/avatar/presenters')) as Listed[];

  const avatarVideo = (browser: Browser, body: object) => tasks.run(browser, 'avatar-video', body);

  it('adds a catalogue presenter every user is offered and can use without a consent of their own; retired, it is offered no more', {
    timeout: 120_000,
  }, async () => {
    const photo = join(work, 'ana.jpg');
    await writeFile(photo, await drawnPortrait());
    const faceless = join(work, 'bottle.png');
    await writeFile(faceless, await productPhoto(600, 800));
    await expect(
      admin({ command: 'presenters add', name: 'Bottle', gender: 'female', languages: ['en'], photo: faceless }),
    ).rejects.toMatchObject({
      key: 'portraitNoFace',
    });
    const [added] = await admin({
      command: 'presenters add',
      name: 'Ana',
      gender: 'female',
      languages: ['pt', 'en'],
      voice: 'pt-ana',
      photo,
    });
    const presenterId = /as (\S+)$/.exec(added ?? '')?.[1] as string;
    expect(presenterId).toBeTruthy();
    expect((await admin({ command: 'presenters list' })).join('\n')).toMatch(
      new RegExp(`${presenterId}\\s+Ana\\s+female\\s+pt,en\\s+pt-ana\\s+offered`),
    );

    const first = await activeMember(t, 'catalogue-a');
    const second = await activeMember(t, 'catalogue-b');
    for (const { browser } of [first, second]) {
      const ana = (await listOf(browser)).find((p) => p.presenterId === presenterId);
      expect(ana).toMatchObject({ name: 'Ana', source: 'catalogue', voiceId: 'pt-ana', languages: ['pt', 'en'] });
      const picture = await t.app.inject({ method: 'GET', url: ana?.imageUrl as string });
      expect(picture.statusCode).toBe(200);
      expect((await sharp(picture.rawPayload).metadata()).width).toBe(600);
    }

    const before = await availableOf(t.ctx.db, first.userId);
    const done = await avatarVideo(first.browser, { script: SCRIPT, presenter: { presenterId } });
    expect(done.status, done.error).toBe('SUCCESS');
    // The sandbox made them talk: a stand-in, free (decision "Stand-ins are free").
    expect(await availableOf(t.ctx.db, first.userId)).toBe(before);

    expect((await admin({ command: 'presenters retire', presenterId }))[0]).toContain('is offered no more');
    expect((await listOf(second.browser)).some((p) => p.presenterId === presenterId)).toBe(false);
    const refused = await second.browser.call('POST', '/task/v1/avatar-video/submit', {
      body: { script: SCRIPT, presenter: { presenterId } },
    });
    expect(refused.body).toMatchObject({ code: 404 });
  });

  it('saves a user’s own presenter after their consent and the face check, offered to them alone', { timeout: 120_000 }, async () => {
    const owner = await activeMember(t, 'own-a');
    const other = await activeMember(t, 'own-b');
    const face = (await upload(t, owner.browser, await drawnPortrait(), 'jpeg')).body.data as { resKey: string };
    const bottle = (await upload(t, owner.browser, await productPhoto(600, 800), 'png')).body.data as { resKey: string };

    const noConsent = await owner.browser.call('POST', '/video/avatar/presenters', {
      body: { resKey: face.resKey, name: 'Me', gender: 'male' },
    });
    expect(noConsent.body).toMatchObject({ code: 40000 });
    const noFace = await owner.browser.call('POST', '/video/avatar/presenters', {
      body: { resKey: bottle.resKey, name: 'Bottle', gender: 'male', consent: true },
    });
    expect(noFace.body).toMatchObject({ code: 40093 });
    // Another user's picture is not theirs to save.
    const theirs = await other.browser.call('POST', '/video/avatar/presenters', {
      body: { resKey: face.resKey, name: 'Stolen', gender: 'male', consent: true },
    });
    expect(theirs.body).toMatchObject({ code: 404 });

    const saved = (await owner.browser.ok('POST', '/video/avatar/presenters', {
      body: { resKey: face.resKey, name: 'Me', gender: 'male', voiceId: 'en-noah', consent: true },
    })) as Listed;
    expect(saved).toMatchObject({ name: 'Me', source: 'own', voiceId: 'en-noah', languages: ['en', 'zh', 'pt'] });
    expect((await listOf(owner.browser))[0]?.presenterId).toBe(saved.presenterId);
    expect((await listOf(other.browser)).some((p) => p.presenterId === saved.presenterId)).toBe(false);

    // The other user can neither use nor remove it; it answers as if it did not exist.
    const use = await other.browser.call('POST', '/task/v1/avatar-video/submit', {
      body: { script: SCRIPT, presenter: { presenterId: saved.presenterId } },
    });
    expect(use.body).toMatchObject({ code: 404 });
    const remove = await other.browser.call('POST', '/video/avatar/presenters/remove', { body: { presenterId: saved.presenterId } });
    expect(remove.body).toMatchObject({ code: 404 });

    const done = await avatarVideo(owner.browser, { script: SCRIPT, presenter: { presenterId: saved.presenterId } });
    expect(done.status, done.error).toBe('SUCCESS');
    await owner.browser.ok('POST', '/video/avatar/presenters/remove', { body: { presenterId: saved.presenterId } });
    expect((await listOf(owner.browser)).some((p) => p.presenterId === saved.presenterId)).toBe(false);
  });

  it('keeps a presenter made from a description: the image tool’s picture, charged at its price, then saved and used', {
    timeout: 120_000,
  }, async () => {
    const { browser, userId } = await activeMember(t, 'maker');
    const original = t.ctx.providers.textToImage;
    // A vendor's text-to-image model that draws what it is asked: a head-and-shoulders portrait.
    t.ctx.providers.textToImage = {
      name: 'fal',
      generate: async (_request, job) => {
        const file = join(job.workDir, 'portrait.jpg');
        await writeFile(file, await drawnPortrait());
        return [file];
      },
    };
    try {
      const before = await availableOf(t.ctx.db, userId);
      const made = await tasks.run<{ images?: { resKey: string }[] }>(browser, 'text-to-image', {
        prompt: 'Head-and-shoulders portrait photo of a friendly man, looking at the camera',
        ratio: '3:4',
        count: 1,
      });
      expect(made.status).toBe('SUCCESS');
      expect(await availableOf(t.ctx.db, userId)).toBe(before - 4);
      const saved = (await browser.ok('POST', '/video/avatar/presenters', {
        body: { resKey: made.images?.[0]?.resKey, name: 'Made', gender: 'male', consent: true },
      })) as Listed;
      const done = await avatarVideo(browser, { script: SCRIPT, presenter: { presenterId: saved.presenterId } });
      expect(done.status, done.error).toBe('SUCCESS');
    } finally {
      t.ctx.providers.textToImage = original;
    }
  });

  it('puts the product in a presenter’s hands: a still charged at its price, face-checked, kept as my presenter; refunded when it cannot be', {
    timeout: 120_000,
  }, async () => {
    const { browser, userId } = await activeMember(t, 'holder');
    const other = await activeMember(t, 'holder-other');
    const face = (await upload(t, browser, await drawnPortrait(), 'jpeg')).body.data as { resKey: string };
    const bottle = (await upload(t, browser, await productPhoto(600, 800), 'png')).body.data as { fileId: string };
    const saved = (await browser.ok('POST', '/video/avatar/presenters', {
      body: { resKey: face.resKey, name: 'Sam', gender: 'male', voiceId: 'en-noah', consent: true },
    })) as Listed;
    const body = { presenterId: saved.presenterId, fileId: bottle.fileId, name: 'Sam with the bottle' };
    // Another user's presenter is none to them, and nothing is charged.
    const theirs = await other.browser.call('POST', '/task/v1/product-holding/submit', { body });
    expect(theirs.body).toMatchObject({ code: 404 });

    const before = await availableOf(t.ctx.db, userId);
    // No vendor here: the sandbox holds the product up before the presenter, a stand-in and free.
    const held = await tasks.run<{ presenter?: Listed }>(browser, 'product-holding', body);
    expect(held.status, held.error).toBe('SUCCESS');
    expect(await availableOf(t.ctx.db, userId)).toBe(before);
    expect(held.presenter).toMatchObject({ name: 'Sam with the bottle', source: 'own', voiceId: 'en-noah' });
    const listed = await listOf(browser);
    expect(listed.map((p) => p.name)).toEqual(expect.arrayContaining(['Sam', 'Sam with the bottle']));
    expect(listed.some((p) => p.presenterId === held.presenter?.presenterId)).toBe(true);
    expect((await listOf(other.browser)).some((p) => p.presenterId === held.presenter?.presenterId)).toBe(false);
    // The still is a picture in the library, the presenter's portrait: what the link answers is it.
    const picture = await t.app.inject({ method: 'GET', url: held.presenter?.imageUrl as string });
    expect(picture.statusCode).toBe(200);
    expect((await sharp(picture.rawPayload).metadata()).format).toBe('png');

    // A model that loses the face: the still is refused in plain words and the charge refunded.
    const original = t.ctx.providers.productHolding;
    t.ctx.providers.productHolding = {
      name: 'fal',
      hold: async (request, job) => {
        const file = join(job.workDir, 'faceless.png');
        await writeFile(file, await productPhoto(600, 800));
        return file ?? request.person;
      },
    };
    try {
      const lost = await tasks.run<{ presenter?: Listed }>(browser, 'product-holding', { ...body, name: 'Lost' });
      expect(lost.status).toBe('FAILURE');
      expect(JSON.parse(lost.error as string).message).toContain('No face was found');
      expect(await availableOf(t.ctx.db, userId)).toBe(before);
      expect((await listOf(browser)).some((p) => p.name === 'Lost')).toBe(false);
    } finally {
      t.ctx.providers.productHolding = original;
    }
  });

  it('dresses a presenter in a garment instead: the try-on provider wears it, at a try-on’s price; two pieces are refused', {
    timeout: 120_000,
  }, async () => {
    const { browser, userId } = await activeMember(t, 'wearer');
    const face = (await upload(t, browser, await drawnPortrait(), 'jpeg')).body.data as { resKey: string };
    const shirt = (await upload(t, browser, await productPhoto(600, 800), 'png')).body.data as { fileId: string };
    const saved = (await browser.ok('POST', '/video/avatar/presenters', {
      body: { resKey: face.resKey, name: 'Kim', gender: 'female', voiceId: 'en-noah', consent: true },
    })) as Listed;
    const body = { presenterId: saved.presenterId, fileId: shirt.fileId, name: 'Kim wearing the shirt' };

    // Priced a try-on when worn, a still when held (decision "Product in hand").
    const priced = (input: object) => productHoldingTask.price?.(productHoldingTask.input.parse(input), t.ctx, {} as never);
    expect(await priced(body)).toEqual({ sku: 'productHolding', count: 1 });
    expect(await priced({ ...body, garmentType: 'top' })).toEqual({ sku: 'imageTryOn', count: 1 });
    expect(await priced({ ...body, garmentType: 'onePiece' })).toEqual({ sku: 'imageTryOn', count: 1 });

    // One product picture is one garment: two pieces are refused as invalid, before anything is charged.
    const before = await availableOf(t.ctx.db, userId);
    const twoPieces = await browser.call('POST', '/task/v1/product-holding/submit', { body: { ...body, garmentType: 'twoPieces' } });
    expect(twoPieces.body).toMatchObject({ code: 40000 });
    expect(await availableOf(t.ctx.db, userId)).toBe(before);

    // The try-on provider is asked, as the try-on tool asks it (a one-piece as the top); the holding provider is not.
    // A vendor's name, so the try-on is real work, charged; the sandbox's stand-in draws it.
    const tryOn = t.ctx.providers.virtualTryOn as NonNullable<typeof t.ctx.providers.virtualTryOn>;
    const holding = t.ctx.providers.productHolding;
    const asked: TryOnRequest[] = [];
    t.ctx.providers.virtualTryOn = {
      name: 'fal',
      generate: (request, job) => {
        asked.push(request);
        return tryOn.generate(request, job);
      },
    };
    t.ctx.providers.productHolding = {
      name: 'fal',
      hold: () => Promise.reject(new Error('a garment is worn, not held')),
    } satisfies ProductHolding;
    try {
      const worn = await tasks.run<{ presenter?: Listed }>(browser, 'product-holding', { ...body, garmentType: 'onePiece' });
      expect(worn.status, worn.error).toBe('SUCCESS');
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ garmentType: 'onePiece', count: 1 });
      expect(asked[0]?.top).toBeTruthy();
      expect(asked[0]?.bottom).toBeUndefined();
      // Charged as the try-on it is, at its price.
      const ledger = await t.ctx.db.select().from(pointsLedger).where(eq(pointsLedger.taskId, worn.taskId));
      expect(ledger.map((row) => [row.operationType, row.pointsChange])).toEqual([
        ['VIRTUAL_TRY_ON', -(await priceOf(t.ctx.db, 'imageTryOn'))],
      ]);
      // The presenter wearing it is mine, with the source's voice, and its picture kept the face.
      expect(worn.presenter).toMatchObject({ name: 'Kim wearing the shirt', source: 'own', voiceId: 'en-noah' });
      expect((await listOf(browser)).some((p) => p.presenterId === worn.presenter?.presenterId)).toBe(true);
      const picture = await t.app.inject({ method: 'GET', url: worn.presenter?.imageUrl as string });
      expect(picture.statusCode).toBe(200);

      const bottom = await tasks.run<{ presenter?: Listed }>(browser, 'product-holding', {
        ...body,
        name: 'Kim in the trousers',
        garmentType: 'bottom',
      });
      expect(bottom.status, bottom.error).toBe('SUCCESS');
      expect(asked[1]).toMatchObject({ garmentType: 'bottom', count: 1 });
      expect(asked[1]?.bottom).toBeTruthy();
      expect(asked[1]?.top).toBeUndefined();
    } finally {
      t.ctx.providers.virtualTryOn = tryOn;
      t.ctx.providers.productHolding = holding;
    }
    // Without a try-on provider, a garment is refused before charging, whoever holds products here.
    t.ctx.providers.virtualTryOn = null;
    try {
      const spent = await availableOf(t.ctx.db, userId);
      const unavailable = await browser.call('POST', '/task/v1/product-holding/submit', { body: { ...body, garmentType: 'top' } });
      expect(unavailable.body).toMatchObject({ code: 50030 });
      expect(await availableOf(t.ctx.db, userId)).toBe(spent);
    } finally {
      t.ctx.providers.virtualTryOn = tryOn;
    }
  });
});
