// The generation tools in real Chromium against `npm start` with its default providers (the local engine, and the
// sandbox stand-ins where no local model can do the job): each tool's price before submitting (free, and said so,
// on a stand-in), its validation messages, a run whose progress and result show in the history beside the tool, the
// balance going down by the price, the history kept across a reload, and the image editor opened from the assets page. Image to image is
// given to a fal.ai model whose queue (a fake on loopback) fails every request: a failed run and its refund.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawnPortrait, productPhoto } from '../../packages/media/test/fixtures.js';
import { openOverlay, visit } from '../support/browser.js';
import { productInBrowser } from '../support/lifecycle.js';
import { solidPng } from '../support/png.js';
import { activeUser } from '../support/users.js';

/** Local generations take seconds, renders of video tens of seconds on this 2-core machine. */
const GENERATION_MS = 180_000;
/** SIGNUP_CREDITS, granted on activation. */
const SIGNUP_CREDITS = 100;

/** A fal.ai queue that fails every submission the way fal does: an error status with a JSON `detail`. */
let failingFal: Server;
beforeAll(async () => {
  failingFal = createServer((_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'The model crashed on this input' }));
  });
  await new Promise<void>((resolve) => failingFal.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => failingFal.close(() => resolve())));

const running = productInBrowser(() => ({
  PROVIDER_IMAGE_TO_IMAGE: 'fal:fake/image-to-image',
  FAL_KEY: 'test-key',
  FAL_BASE_URL: `http://127.0.0.1:${(failingFal.address() as AddressInfo).port}`,
}));
let pictures: string;
beforeAll(async () => {
  pictures = mkdtempSync(join(tmpdir(), 'reelsmith-generation-'));
  writeFileSync(join(pictures, 'mug.png'), solidPng(900, 600, [40, 120, 200]));
  // A product on a white backdrop: a cut-out of a picture with no subject is refused (decision "Cut-outs keep the subject").
  writeFileSync(join(pictures, 'bottle.jpg'), await productPhoto(900, 600, { white: true }));
  writeFileSync(join(pictures, 'presenter.jpg'), await drawnPortrait());
});
afterAll(() => rmSync(pictures, { recursive: true, force: true }));

const history = (page: Page) => page.getByRole('region', { name: 'Generation history' });
const balance = (page: Page) =>
  page
    .locator('header')
    .getByRole('button', { name: /credits$/ })
    .innerText();
const credits = async (page: Page) => Number((await balance(page)).replace(/\D+/g, ''));

/** Waits until a picture has really loaded, and answers its natural width. */
const loadedWidth = (image: Locator) => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0));

/** What the tool says before submitting where the sandbox stands in: free, and what the user will get (decision "Stand-ins are free"). */
async function saysFreeStandIn(page: Page) {
  await page.getByText('Free · stand-in', { exact: true }).waitFor();
  expect(await page.getByText(/makes a free stand-in marked “SANDBOX”: a sample of the layout, not a real result/).count()).toBe(1);
}

/** The price the tool shows before submitting, in credits. */
async function shownPrice(page: Page): Promise<number> {
  const text = page.getByText(/^Cost: \d+ credits$/);
  await text.waitFor();
  return Number((await text.innerText()).replace(/\D+/g, ''));
}

/** Generates on the try-on page: the dressed picture loads in the history, free (the sandbox's try-on is a stand-in). */
async function dressesFree(page: Page) {
  const before = await credits(page);
  await page.getByRole('button', { name: 'Generate' }).click();
  const picture = history(page).getByRole('img', { name: 'Image 1' }).first();
  await expect.poll(() => loadedWidth(picture), { timeout: GENERATION_MS, interval: 1000 }).toBeGreaterThan(0);
  expect(await credits(page)).toBe(before);
}

describe('generation tools', () => {
  beforeAll(() => activeUser(running.browser.page, running.product, 'generation@example.com'), 120_000);

  it(
    'text to image: an empty prompt is refused; the sandbox’s picture is free, says so first, and shows in the history',
    async () => {
      const { page } = running.browser;
      await visit(page, running.product.base, '/tools/image/text-to-image');
      await expect.poll(() => credits(page)).toBeGreaterThan(0);
      const before = await credits(page);
      expect(before).toBeLessThanOrEqual(SIGNUP_CREDITS);
      await saysFreeStandIn(page);

      await page.getByRole('button', { name: 'Generate' }).click();
      await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Prompts cannot be empty' }).count()).toBe(1);

      await page.getByRole('textbox', { name: 'Prompt', exact: true }).fill('A ceramic mug on a wooden table, morning light');
      await page.getByRole('button', { name: 'Generate' }).click();
      const picture = history(page).getByRole('img', { name: 'Image 1' }).first();
      await expect.poll(() => loadedWidth(picture), { timeout: GENERATION_MS, interval: 1000 }).toBeGreaterThan(0);
      expect(await credits(page)).toBe(before);
      expect(await history(page).getByRole('link', { name: 'Download' }).count()).toBeGreaterThan(0);

      await page.reload();
      await expect
        .poll(() => loadedWidth(history(page).getByRole('img', { name: 'Image 1' }).first()), { timeout: 30_000 })
        .toBeGreaterThan(0);
      await expect.poll(() => history(page).getByText('A ceramic mug on a wooden table, morning light').count()).toBeGreaterThan(0);
      // The stand-in's picture says so in words, in the history and in the library (decision "Stand-ins are free").
      await history(page).getByText('Stand-in', { exact: true }).first().waitFor();
      await visit(page, running.product.base, '/dashboard/assets');
      await page
        .getByRole('article', { name: /^Text to image – A ceramic mug/ })
        .first()
        .getByText('Stand-in', { exact: true })
        .waitFor();
    },
    GENERATION_MS + 60_000,
  );

  it(
    'text to video: the sandbox’s video is free and says so first; its stages show, and the video made plays',
    async () => {
      const { page } = running.browser;
      await visit(page, running.product.base, '/tools/video/text-to-video');
      await saysFreeStandIn(page);

      const before = await credits(page);
      await page.getByRole('textbox', { name: 'Prompt', exact: true }).fill('A mug turning slowly on a turntable');
      await page.getByRole('button', { name: 'Generate' }).click();
      const stages = history(page).getByRole('status').first();
      await expect.poll(() => stages.innerText(), { timeout: 30_000 }).toContain('Parsing content');
      const video = history(page).getByLabel('Video 1').first();
      await expect
        .poll(() => video.evaluate((v: HTMLVideoElement) => (Number.isFinite(v.duration) ? v.duration : 0)), {
          timeout: GENERATION_MS,
          interval: 1000,
        })
        .toBeGreaterThan(0);
      expect(await credits(page)).toBe(before);
    },
    GENERATION_MS + 60_000,
  );

  it(
    'image to video needs an image; a picture from the computer becomes a video that plays',
    async () => {
      const { page } = running.browser;
      await visit(page, running.product.base, '/tools/video/image-to-video');
      await page.getByRole('button', { name: 'Generate' }).click();
      await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Please add an image' }).count()).toBe(1);

      await page.locator('input[type=file][aria-label="Image file"]').setInputFiles(join(pictures, 'mug.png'));
      await expect.poll(() => loadedWidth(page.getByRole('img', { name: 'mug.png' })), { timeout: 30_000 }).toBe(900);
      // No vendor model is set up: the server's own engine makes it, at its own price (decision "Image-to-video price").
      expect(await shownPrice(page)).toBe(4);
      const before = await credits(page);
      await page.getByRole('button', { name: 'Generate' }).click();
      await expect.poll(() => credits(page), { timeout: 30_000 }).toBe(before - 4);
      const video = history(page).getByLabel('Video 1').first();
      await expect
        .poll(() => video.evaluate((v: HTMLVideoElement) => (Number.isFinite(v.duration) ? v.duration : 0)), {
          timeout: GENERATION_MS,
          interval: 1000,
        })
        .toBeGreaterThan(4);
    },
    GENERATION_MS + 60_000,
  );

  it(
    'Avatar: a portrait and a script become a captioned talking video that plays, free as the sandbox’s stand-in',
    async () => {
      const { page } = running.browser;
      await visit(page, running.product.base, '/tools/avatar');
      const presenter = page.locator('input[type=file][aria-label="Presenter file"]');
      await presenter.setInputFiles(join(pictures, 'mug.png'));
      await expect.poll(() => loadedWidth(page.getByRole('img', { name: 'mug.png' })), { timeout: 30_000 }).toBe(900);
      // Nine words and two sentences: 9 / 2.5 + 2 × 0.3 = 4.2, so 5 s (decision "The Avatar tool"), free on the stand-in.
      await page.getByRole('textbox', { name: 'Script', exact: true }).fill('Meet the Harbour mug. Tap the link to get yours.');
      await expect.poll(() => page.getByText('About 5 s of video').count()).toBe(1);
      await page.getByText('Free · stand-in', { exact: true }).waitFor();
      await page.getByRole('checkbox', { name: "I have the right to use this person's face in my videos" }).check();
      // No lip-sync vendor is set up: the page says its videos are stand-ins before anyone pays for one.
      await expect.poll(() => page.getByText('Videos are free, marked stand-ins', { exact: false }).count()).toBe(1);
      const before = await credits(page);
      // A mug is no presenter: said before anything is charged (decision "Presenter portraits").
      await page.getByRole('button', { name: 'Generate' }).click();
      await expect
        .poll(() => page.getByText("No face was found in the presenter's photo", { exact: false }).count(), { timeout: 30_000 })
        .toBeGreaterThan(0);
      expect(await credits(page)).toBe(before);
      await page.getByRole('button', { name: 'Remove mug.png' }).click();
      await presenter.setInputFiles(join(pictures, 'presenter.jpg'));
      await expect.poll(() => loadedWidth(page.getByRole('img', { name: 'presenter.jpg' })), { timeout: 30_000 }).toBe(600);
      // The statement is about a face: another photo asks for it again.
      await page.getByRole('checkbox', { name: "I have the right to use this person's face in my videos" }).check();
      await page.getByRole('button', { name: 'Generate' }).click();
      await expect.poll(() => history(page).getByText('Meet the Harbour mug.').count(), { timeout: 30_000 }).toBeGreaterThan(0);
      const video = history(page).getByLabel('Video 1').first();
      await expect
        .poll(() => video.evaluate((v: HTMLVideoElement) => (Number.isFinite(v.duration) ? v.duration : 0)), {
          timeout: GENERATION_MS,
          interval: 1000,
        })
        .toBeGreaterThan(2);
      expect(await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([1080, 1920]);
      expect(await credits(page)).toBe(before);
    },
    GENERATION_MS + 60_000,
  );

  it(
    'AI model try-on with a preset model and an apparel template makes a picture, free as the sandbox’s stand-in',
    async () => {
      const { page } = running.browser;
      await visit(page, running.product.base, '/tools/image/ai-model');
      await page.getByRole('list', { name: 'Models' }).getByRole('button').first().click();
      await page.getByRole('list', { name: 'Top templates' }).getByRole('button').first().click();
      await saysFreeStandIn(page);
      await dressesFree(page);
    },
    GENERATION_MS + 60_000,
  );

  it(
    'a failed generation says so, and its credits come back: the credit details list the refund',
    async () => {
      const { page } = running.browser;
      await visit(page, running.product.base, '/tools/image/text-to-image');
      await expect.poll(() => credits(page)).toBeGreaterThan(0);
      const before = await credits(page);
      await page
        .locator('input[type=file][aria-label="Reference image (optional, for image to image) file"]')
        .setInputFiles(join(pictures, 'mug.png'));
      await expect.poll(() => loadedWidth(page.getByRole('img', { name: 'mug.png' })), { timeout: 30_000 }).toBe(900);
      await page.getByRole('textbox', { name: 'Prompt', exact: true }).fill('The same mug on a marble counter');
      await page.getByRole('button', { name: 'Generate' }).click();
      await expect
        .poll(() => history(page).getByText('Generation failed', { exact: true }).count(), { timeout: GENERATION_MS, interval: 1000 })
        .toBeGreaterThan(0);
      expect(await history(page).getByText("Don't worry, your credits remain unchanged").count()).toBeGreaterThan(0);

      await page.reload();
      await expect.poll(() => credits(page), { timeout: 30_000 }).toBe(before);
      await openOverlay(page, page.getByRole('button', { name: /credits$/ }));
      const earned = page.getByRole('dialog', { name: 'Credit details' }).getByRole('region', { name: 'Earned credit records' });
      const newest = earned.locator('tbody tr.ant-table-row').first();
      await expect.poll(() => newest.innerText(), { timeout: 30_000 }).toContain('Refund for a failed task');
      expect(await newest.innerText()).toContain('+4');
    },
    GENERATION_MS + 60_000,
  );

  it(
    "AI model try-on with the user's own garment uploaded from the computer: checked, not 'Not found.', and dressed",
    async () => {
      const { page } = running.browser;
      await visit(page, running.product.base, '/tools/image/ai-model');
      // A T-shirt packshot on white, as a shop photographs one.
      const shirt = join(pictures, 'red-tee.png');
      const tee =
        'M -60 -100 L -20 -110 Q 0 -95 20 -110 L 60 -100 L 120 -50 L 95 -15 L 65 -35 L 65 110 L -65 110 L -65 -35 L -95 -15 L -120 -50 Z';
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024"><rect width="1024" height="1024" fill="#fff"/><path transform="translate(512 512) scale(3)" fill="#c33" d="${tee}"/></svg>`;
      writeFileSync(shirt, await sharp(Buffer.from(svg)).png().toBuffer());
      await page.getByRole('list', { name: 'Models' }).getByRole('button').first().click();
      await page.locator('input[type=file][aria-label="Your own Top picture file"]').setInputFiles(shirt);
      await expect.poll(() => loadedWidth(page.getByRole('img', { name: 'red-tee.png' })), { timeout: 30_000 }).toBe(1024);
      expect(await page.getByText('Not found.').count()).toBe(0);
      await dressesFree(page);
    },
    GENERATION_MS + 60_000,
  );

  it('AI model try-on needs a model and clothes, and refuses a clothing picture outside the limits before uploading', async () => {
    const { page } = running.browser;
    await visit(page, running.product.base, '/tools/image/ai-model');
    await saysFreeStandIn(page);
    await page.getByRole('button', { name: 'Generate' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Please choose a model and clothes' }).count()).toBe(1);

    const small = join(pictures, 'small-shirt.png');
    writeFileSync(small, solidPng(300, 300, [250, 250, 250]));
    await page.locator('input[type=file][aria-label="Your own Top picture file"]').setInputFiles(small);
    await expect
      .poll(() => page.getByText('Please upload a JPG/JPEG/PNG image of at most 10 MB, with the shorter side at least 512 px').count())
      .toBe(1);

    await page.getByRole('button', { name: 'Clothing picture guidelines' }).click();
    await expect
      .poll(() => page.getByRole('dialog').getByText('Use a flat white background with nothing else in the picture.').count())
      .toBe(1);
    await page.getByRole('button', { name: 'Got it' }).click();
  });

  it(
    'image edit: a picture uploaded from the computer is enhanced 2× into a picture twice as wide',
    async () => {
      const { page } = running.browser;
      await visit(page, running.product.base, '/tools/image-edit');
      await page.getByRole('tab', { name: 'HD enhancement' }).click();
      await page.getByRole('button', { name: 'Generate' }).click();
      await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Please add a product image' }).count()).toBe(1);

      await page.locator('input[type=file][aria-label="Product image file"]').setInputFiles(join(pictures, 'mug.png'));
      await expect.poll(() => loadedWidth(page.getByRole('img', { name: 'mug.png' })), { timeout: 30_000 }).toBe(900);
      expect(await shownPrice(page)).toBe(2);
      await page.getByRole('button', { name: 'Generate' }).click();
      const result = history(page).getByRole('img', { name: 'Image 1' }).first();
      await expect.poll(() => loadedWidth(result), { timeout: GENERATION_MS, interval: 1000 }).toBe(1800);
    },
    GENERATION_MS + 60_000,
  );

  it(
    'image edit from the assets page: the picture shows in the frame to extend, a free frame grows by its edge, and the extension has the ratio',
    async () => {
      const { page } = running.browser;
      await visit(page, running.product.base, '/dashboard/assets');
      await page.getByRole('article', { name: 'mug.png' }).first().getByRole('button', { name: 'Edit' }).click();
      await page.waitForURL('**/tools/image-edit?fileId=*');
      await expect.poll(() => loadedWidth(page.getByRole('img', { name: 'mug.png' })), { timeout: 30_000 }).toBe(900);

      await page.getByRole('tab', { name: 'Image extension' }).click();
      // A free frame starts at 1.5 × the picture (1350 px) and grows by dragging the grip on its right edge.
      await page.getByRole('group', { name: 'Extend to' }).getByText('Free size').click();
      const width = page.getByRole('spinbutton', { name: 'Canvas width' });
      await expect.poll(() => width.inputValue()).toBe('1350');
      const canvas = page.locator('.konvajs-content');
      await expect.poll(() => canvas.locator('canvas').count(), { timeout: 30_000 }).toBeGreaterThan(0);
      await canvas.scrollIntoViewIfNeeded();
      const box = (await canvas.boundingBox()) as { x: number; y: number; width: number; height: number };
      const grip = { x: box.x + box.width - 4, y: box.y + box.height / 2 };
      await page.mouse.move(grip.x, grip.y);
      await page.mouse.down();
      await page.mouse.move(grip.x + box.width / 6, grip.y, { steps: 8 });
      await page.mouse.up();
      // A sixth of the canvas's width is a sixth of 1350 px: 225 px wider, give or take a pixel of rounding.
      await expect.poll(async () => Math.abs(Number(await width.inputValue()) - 1575)).toBeLessThanOrEqual(2);

      await page.getByRole('group', { name: 'Extend to' }).getByText('1:1').click();
      // Konva draws into a canvas: the frame is there once the picture has loaded into it.
      await expect.poll(() => page.locator('.konvajs-content canvas').count(), { timeout: 30_000 }).toBeGreaterThan(0);
      expect(await shownPrice(page)).toBe(3);
      await page.getByRole('button', { name: 'Generate' }).click();
      const result = history(page).getByRole('img', { name: 'Image 1' }).first();
      await expect.poll(() => loadedWidth(result), { timeout: GENERATION_MS, interval: 1000 }).toBe(900);
      expect(await result.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(900);
    },
    GENERATION_MS + 60_000,
  );

  it(
    'AI background: replacing needs a background; removing one makes a picture of the same size',
    async () => {
      const { page } = running.browser;
      await visit(page, running.product.base, '/tools/image-edit');
      await page.locator('input[type=file][aria-label="Product image file"]').setInputFiles(join(pictures, 'bottle.jpg'));
      await expect.poll(() => loadedWidth(page.getByRole('img', { name: 'bottle.jpg' })), { timeout: 30_000 }).toBe(900);
      await page.getByRole('group', { name: 'Background' }).getByText('Replace background').click();
      await page.getByRole('button', { name: 'Generate' }).click();
      await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Please choose a background' }).count()).toBe(1);

      await page.getByRole('group', { name: 'Background' }).getByText('Remove background').click();
      await page.getByRole('button', { name: 'Generate' }).click();
      const result = history(page).getByRole('img', { name: 'Image 1' }).first();
      await expect.poll(() => loadedWidth(result), { timeout: GENERATION_MS, interval: 1000 }).toBe(900);
    },
    GENERATION_MS + 60_000,
  );
});
