// The template picker's call (decision "Template picker"): six templates, each with a thumbnail the renderer
// draws. Samples are public; thumbnails of a user's own picture come through a link signed for that user and
// file, which cannot be bent to another template, file or expiry, and stops working when the file is deleted.
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEMPLATE_IDS, type TemplatePreview } from '@reelsmith/contract';
import { locateTools } from '@reelsmith/media';
import { makeImage, makeVideo } from '@reelsmith/media/fixtures';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { pruneThumbnails, THUMBNAILS_PER_MINUTE, THUMBNAILS_PER_PICTURE } from '../src/modules/link-video/catalogue/templates.js';
import { appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, upload } from './support/files.js';

type Query = Record<string, string>;

const split = (url: string) => {
  const [path = '', search = ''] = url.split('?');
  return { path, query: Object.fromEntries(new URLSearchParams(search)) as Query };
};
const urlOf = (path: string, query: Query) => `${path}?${new URLSearchParams(query)}`;

describe.each(testDatabases())('template thumbnails on $name', (testDb) => {
  const t = appOn(testDb);
  const dir = mkdtempSync(join(tmpdir(), 'templates-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const templates = async (browser: Browser, query: Query = {}) =>
    (await browser.ok('GET', '/link-video/templates', { query })) as TemplatePreview[];
  const fetch = (url: string) => t.app.inject({ method: 'GET', url });
  const uploaded = async (browser: Browser, bytes: Buffer, format: string) => {
    const answer = await upload(t, browser, bytes, format, `picture.${format}`);
    return (answer.body.data as { fileId: string }).fileId;
  };

  it('answers the six templates in order, drawn from the sample product in the shape and language asked', async () => {
    const { browser } = await activeMember(t, 'sampler');
    const answer = await templates(browser, { aspectRatio: '1:1', language: 'pt' });
    expect(answer.map((item) => item.templateId)).toEqual([...TEMPLATE_IDS]);
    const sale = split(answer.find((item) => item.templateId === 'sale')?.previewUrl ?? '');
    expect(sale).toEqual({ path: '/reelsmith/api/link-video/samples/template/sale', query: { aspectRatio: '1:1', language: 'pt' } });

    const picture = await fetch(urlOf(sale.path, sale.query));
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/jpeg');
    expect(await sharp(picture.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 270, height: 270 });
    // Made once: the same bytes from the cache.
    expect((await fetch(urlOf(sale.path, sale.query))).rawPayload.equals(picture.rawPayload)).toBe(true);
    // The language defaults to the caller's, the shape to the ads' 9:16.
    const defaults = split((await templates(browser))[0]?.previewUrl ?? '');
    expect(defaults.query).toEqual({ aspectRatio: '9:16', language: 'en' });

    const wrongs: Query[] = [
      { aspectRatio: '2:1', language: 'pt' },
      { aspectRatio: '1:1' },
      { aspectRatio: '1:1', language: 'pt', x: '1' },
    ];
    for (const wrong of wrongs) {
      expect((await fetch(urlOf(sale.path, wrong))).statusCode).toBe(404);
    }
    expect((await fetch(urlOf(sale.path.replace(/sale$/, 'no-such-template'), sale.query))).statusCode).toBe(404);
  });

  it('draws the user’s own picture, with the product’s name and offer, through a signed link; made once and cached', async () => {
    const { browser } = await activeMember(t, 'owner');
    const fileId = await uploaded(browser, await makeImage(900, 1200, 'jpeg'), 'jpg');
    const query = { fileId, aspectRatio: '9:16', name: 'Aurora Bottle', price: '24.90', currency: 'USD', listPrice: '34.90' };
    const answer = await templates(browser, query);
    expect(answer.map((item) => item.templateId)).toEqual([...TEMPLATE_IDS]);
    const link = split(answer[0]?.previewUrl ?? '');
    expect(link.path).toBe('/reelsmith/api/link-video/templates/thumbnail');
    expect(link.query).toMatchObject({ fileId, templateId: 'clean-studio', aspectRatio: '9:16', language: 'en', name: 'Aurora Bottle' });

    // Fetched as an <img> does: no session, no client header.
    const picture = await fetch(answer[0]?.previewUrl as string);
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/jpeg');
    expect(picture.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(await sharp(picture.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 270, height: 480 });
    const cached = () =>
      readdirSync(join(t.ctx.settings.dataDir, 'cache', 'templates', 'thumbnails')).filter((name) => name.endsWith('.jpg'));
    expect(cached()).toEqual([expect.stringMatching(new RegExp(`^${fileId}-clean-studio-9x16-`))]);
    expect((await fetch(answer[0]?.previewUrl as string)).rawPayload.equals(picture.rawPayload)).toBe(true);
    expect(cached()).toHaveLength(1);

    // A Chinese name is drawn in the ad's language, whatever the page's.
    const chinese = split((await templates(browser, { fileId, name: '保温杯' }))[0]?.previewUrl ?? '');
    expect(chinese.query.language).toBe('zh');
  });

  it('draws the user’s own picture in their brand kit: a saved kit gives new links and pictures in its colours', async () => {
    const { browser } = await activeMember(t, 'branded');
    const fileId = await uploaded(browser, await makeImage(900, 1200, 'jpeg'), 'jpg');
    const query = { fileId, aspectRatio: '9:16', name: 'Aurora Bottle', price: '24.90', currency: 'USD', listPrice: '34.90' };
    const saleOf = async () => (await templates(browser, query)).find((item) => item.templateId === 'sale')?.previewUrl as string;
    /** The share of a thumbnail's pixels near the violet below: the Sale hook's sticker is in the kit's accent. */
    const violet = async (url: string) => {
      const picture = await fetch(url);
      expect(picture.statusCode).toBe(200);
      const { data, info } = await sharp(picture.rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      let near = 0;
      for (let p = 0; p < data.length; p += 3) {
        const d = Math.abs((data[p] as number) - 142) + Math.abs((data[p + 1] as number) - 36) + Math.abs((data[p + 2] as number) - 170);
        if (d < 40) near++;
      }
      return near / (info.width * info.height);
    };
    const before = await saleOf();
    const violetBefore = await violet(before);
    await browser.ok('POST', '/brand-kit/save', {
      body: { logoResKey: null, primaryColor: '#ffffff', secondaryColor: '#8e24aa', fontId: 'noto-sans', callToAction: 'Grab yours' },
    });
    const after = await saleOf();
    expect(split(after).query.kit).not.toBe(split(before).query.kit);
    // The sticker takes a few per cent of the picture (the test picture's gradient has a little violet of its own).
    expect((await violet(after)) - violetBefore).toBeGreaterThan(0.01);
  });

  it('refuses another user’s picture, a video and a file that does not exist alike, as not found', async () => {
    const { browser: owner } = await activeMember(t, 'victim');
    const { browser: stranger } = await activeMember(t, 'stranger');
    const theirs = await uploaded(owner, await makeImage(400, 400, 'png'), 'png');
    const video = await uploaded(stranger, await readVideo(dir), 'mp4');
    const answers = await Promise.all(
      [theirs, video, '00000000-0000-4000-8000-000000000000'].map((fileId) =>
        stranger.call('GET', '/link-video/templates', { query: { fileId } }),
      ),
    );
    for (const answer of answers) expect(answer.body).toEqual(answers[2]?.body);
    expect(answers[0]?.body).toMatchObject({ code: 404, data: null });
    expect(answers[0]?.status).toBe(404);
  });

  it('refuses an offer the contract would not take, and a caller who is not signed in', async () => {
    const { browser } = await activeMember(t, 'pricer');
    const fileId = await uploaded(browser, await makeImage(400, 400, 'png'), 'png');
    const offers: Query[] = [
      { price: '24.90' },
      { price: '24.90', currency: 'USD', listPrice: '20' },
      { currency: 'USD' },
      { price: '1,5', currency: 'USD' },
    ];
    for (const offer of offers) {
      const answer = await browser.call('GET', '/link-video/templates', { query: { fileId, ...offer } });
      expect(answer.body.code, JSON.stringify(offer)).toBe(40000);
    }
    const signedOut = await t.app.inject({ method: 'GET', url: '/reelsmith/api/link-video/templates', headers: { client: 'WEB' } });
    expect(signedOut.json()).toMatchObject({ code: 401 });
  });

  it('serves a user at most THUMBNAILS_PER_MINUTE thumbnails a minute, and another user all the same', async () => {
    const { browser } = await activeMember(t, 'flooder');
    const { browser: other } = await activeMember(t, 'patient');
    const fileId = await uploaded(browser, await makeImage(300, 400, 'jpeg'), 'jpg');
    const theirs = await uploaded(other, await makeImage(300, 400, 'jpeg'), 'jpg');
    const link = (await templates(browser, { fileId, name: 'Flood' }))[0]?.previewUrl as string;
    // Cached after the first: what is counted is the asking, so a flood of new words and of the same alike.
    const answers = [];
    for (let i = 0; i <= THUMBNAILS_PER_MINUTE; i++) answers.push((await fetch(link)).statusCode);
    expect(answers.slice(0, THUMBNAILS_PER_MINUTE).every((status) => status === 200)).toBe(true);
    expect(answers.at(-1)).toBe(429);
    const othersLink = (await templates(other, { fileId: theirs, name: 'Calm' }))[0]?.previewUrl as string;
    expect((await fetch(othersLink)).statusCode).toBe(200);
  });

  it('refuses a signed link that was tampered with, and one whose file was deleted since', async () => {
    const { browser: owner } = await activeMember(t, 'linker');
    const { browser: other } = await activeMember(t, 'neighbour');
    const mine = await uploaded(owner, await makeImage(500, 500, 'png'), 'png');
    const theirs = await uploaded(other, await makeImage(500, 500, 'png'), 'png');
    const honest = split((await templates(owner, { fileId: mine, name: 'Lamp' }))[1]?.previewUrl ?? '');
    const othersLink = split((await templates(other, { fileId: theirs, name: 'Lamp' }))[1]?.previewUrl ?? '');
    const tampered: [string, Query][] = [
      ['another template', { ...honest.query, templateId: 'sale' }],
      ['another user’s file', { ...honest.query, fileId: theirs }],
      ['another user', { ...honest.query, userId: othersLink.query.userId as string }],
      ['another user’s signature', { ...honest.query, signature: othersLink.query.signature as string }],
      ['other words on the hook', { ...honest.query, name: 'Free lamp' }],
      ['words added to the hook', { ...honest.query, price: '1', currency: 'USD' }],
      ['a stretched expiry', { ...honest.query, expires: String(Number(honest.query.expires) + 1) }],
      ['a forged signature', { ...honest.query, signature: 'forged' }],
      ['no signature', Object.fromEntries(Object.entries(honest.query).filter(([name]) => name !== 'signature'))],
    ];
    for (const [what, query] of tampered) {
      const answer = await fetch(urlOf(honest.path, query));
      expect(answer.statusCode, what).toBe(403);
      expect(answer.headers['content-type'], what).toMatch(/^application\/json/);
    }
    expect((await fetch(urlOf(honest.path, honest.query))).statusCode).toBe(200);
    const cache = (folder: string) => readdirSync(join(t.ctx.settings.dataDir, 'cache', 'templates', folder));
    expect((await fetch(urlOf(othersLink.path, othersLink.query))).statusCode).toBe(200);
    expect(cache('thumbnails').filter((name) => name.startsWith(`${mine}-`))).toHaveLength(1);
    expect(cache('pictures').filter((name) => name.startsWith(`${mine}.`))).toHaveLength(1);

    await owner.ok('POST', '/assert/delete', { body: { fileIds: [mine] } });
    const gone = await fetch(urlOf(honest.path, honest.query));
    expect(gone.statusCode).toBe(404);
    // Its thumbnails and the picker's copy of it went with it (finding F4); another user's stay.
    expect(cache('thumbnails').filter((name) => name.startsWith(`${mine}-`))).toEqual([]);
    expect(cache('pictures').filter((name) => name.startsWith(`${mine}.`))).toEqual([]);
    expect(cache('thumbnails').filter((name) => name.startsWith(`${theirs}-`))).toHaveLength(1);
  });
});

describe('a picture’s thumbnails are bounded', () => {
  const dir = mkdtempSync(join(tmpdir(), 'thumbnails-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the most recently used of a picture’s thumbnails, and no other picture’s nor one being made', async () => {
    const at = (name: string, agoMs: number) => {
      writeFileSync(join(dir, name), 'jpeg');
      const when = new Date(Date.now() - agoMs);
      utimesSync(join(dir, name), when, when);
    };
    for (let i = 0; i < 6; i++) at(`f1-sale-9x16-${i}.jpg`, (i + 1) * 60_000);
    at('f1-sale-9x16-x.1234.part.jpg', 3_600_000);
    at('f2-sale-9x16-0.jpg', 3_600_000);
    await pruneThumbnails(dir, 'f1', 4);
    expect(readdirSync(dir).sort()).toEqual(
      [
        'f1-sale-9x16-0.jpg',
        'f1-sale-9x16-1.jpg',
        'f1-sale-9x16-2.jpg',
        'f1-sale-9x16-3.jpg',
        'f1-sale-9x16-x.1234.part.jpg',
        'f2-sale-9x16-0.jpg',
      ].sort(),
    );
    expect(THUMBNAILS_PER_PICTURE).toBeGreaterThanOrEqual(TEMPLATE_IDS.length * 2);
  });
});

/** A short MP4 to upload: a file of the user's that is not a picture. */
async function readVideo(dir: string): Promise<Buffer> {
  return readFile(await makeVideo(locateTools(), join(dir, 'clip.mp4'), { seconds: 1 }));
}
