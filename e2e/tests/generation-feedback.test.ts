// What a generation tool tells its user as they work (decision "Tool form feedback"), in real Chromium against
// `npm start`: Generate and its price in view on the tall text to video form at 1440×900 and 390×844, the new record
// brought into view below the header, Cancel saying how it ended (with the balance back), and an image extension to
// 16:9 previewed over its whole new frame and shown at its own shape once made. Text to video is given to a fal.ai
// model whose queue (a fake on loopback) keeps every request waiting in line, so it is charged as real work (the
// sandbox's stand-in is free: decision "Stand-ins are free") and is still running when Cancel is pressed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visit } from '../support/browser.js';
import { productInBrowser } from '../support/lifecycle.js';
import { solidPng } from '../support/png.js';
import { activeUser } from '../support/users.js';

/** Local generations take seconds, renders of video tens of seconds on this 2-core machine. */
const GENERATION_MS = 180_000;
/** The sticky header's height: what is under it is not in view. */
const HEADER = 64;

/** fal.ai's queue as its API reference describes it, for requests that never leave the line: submit, status, cancel. */
let waitingFal: Server;
const cancelled: string[] = [];
beforeAll(async () => {
  waitingFal = createServer((req, res) => {
    const answer = (body: object, status = 200) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const url = req.url ?? '';
    if (req.method === 'POST') return answer({ request_id: `waiting-${Date.now()}` });
    if (req.method === 'GET' && url.endsWith('/status')) return answer({ status: 'IN_QUEUE', queue_position: 3 });
    if (req.method === 'PUT' && url.endsWith('/cancel')) {
      cancelled.push(url);
      return answer({ status: 'CANCELLATION_REQUESTED' }, 202);
    }
    return answer({ detail: 'Not found' }, 404);
  });
  await new Promise<void>((resolve) => waitingFal.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => waitingFal.close(() => resolve())));

const running = productInBrowser(() => ({
  PROVIDER_TEXT_TO_VIDEO: 'fal:fake/text-to-video',
  FAL_KEY: 'test-key',
  FAL_BASE_URL: `http://127.0.0.1:${(waitingFal.address() as AddressInfo).port}`,
}));
let pictures: string;
beforeAll(() => {
  pictures = mkdtempSync(join(tmpdir(), 'reelsmith-feedback-'));
  writeFileSync(join(pictures, 'mug.png'), solidPng(900, 600, [40, 120, 200]));
});
afterAll(() => rmSync(pictures, { recursive: true, force: true }));

const history = (page: Page) => page.getByRole('region', { name: 'Generation history' });
const credits = async (page: Page) => Number((await page.getByRole('button', { name: /credits$/ }).innerText()).replace(/\D+/g, ''));

/** Whether a person sees the element: inside the window below the header, and not covered by anything else. */
const inView = (element: Locator) =>
  element.evaluate((node: HTMLElement, header: number) => {
    const box = node.getBoundingClientRect();
    if (box.top < header || box.bottom > window.innerHeight || box.left < 0 || box.right > window.innerWidth) return false;
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return top !== null && node.contains(top);
  }, HEADER);

const scrollTo = (page: Page, where: 'top' | 'bottom') =>
  page.evaluate((to) => window.scrollTo(0, to === 'top' ? 0 : document.documentElement.scrollHeight), where);

describe('generation tool feedback', () => {
  beforeAll(() => activeUser(running.browser.page, running.product, 'feedback@example.com'), 120_000);
  afterAll(() => running.browser.page.setViewportSize({ width: 1440, height: 900 }));

  for (const size of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`text to video keeps Generate and its price in view at ${size.width}×${size.height}, wherever the form is scrolled`, async () => {
      const { page } = running.browser;
      await page.setViewportSize(size);
      await visit(page, running.product.base, '/tools/video/text-to-video');
      const generate = page.getByRole('button', { name: 'Generate' });
      const price = page.getByText(/^Cost: \d+ credits$/);
      await price.waitFor();
      const form = page.getByRole('region', { name: 'Text to video' });
      // The form is taller than the window: without the sticky foot, Generate would be below the fold.
      expect(await form.evaluate((node: HTMLElement) => node.getBoundingClientRect().bottom)).toBeGreaterThan(size.height);
      expect(await inView(generate)).toBe(true);
      expect(await inView(price)).toBe(true);

      // Scrolled to the middle of the form, Generate is still there, on top of the fields going under it.
      await page.getByRole('group', { name: 'Quality' }).scrollIntoViewIfNeeded();
      expect(await inView(generate)).toBe(true);
      await scrollTo(page, 'top');
      expect(await inView(generate)).toBe(true);
    });
  }

  it(
    'text to video: the price follows the length, the new record comes into view, and Cancel gives the credits back',
    async () => {
      const { page } = running.browser;
      await page.setViewportSize({ width: 1440, height: 900 });
      await visit(page, running.product.base, '/tools/video/text-to-video');
      await expect.poll(() => credits(page)).toBeGreaterThan(0);
      const price = page.getByText(/^Cost: \d+ credits$/);
      await expect.poll(() => price.innerText()).toBe('Cost: 20 credits');
      await page.getByRole('group', { name: 'Duration' }).getByText('10 s').click();
      await expect.poll(() => price.innerText()).toBe('Cost: 35 credits');
      await page.getByRole('group', { name: 'Duration' }).getByText('5 s').click();
      await expect.poll(() => price.innerText()).toBe('Cost: 20 credits');
      const before = await credits(page);
      await page.getByRole('textbox', { name: 'Prompt', exact: true }).fill('A mug turning slowly on a turntable');
      await page.getByRole('group', { name: 'Quality' }).scrollIntoViewIfNeeded();
      await page.getByRole('button', { name: 'Generate' }).click();
      await expect.poll(() => credits(page), { timeout: 30_000 }).toBe(before - 20);

      const entry = history(page).getByRole('listitem').filter({ hasText: 'A mug turning slowly on a turntable' }).first();
      await expect.poll(() => inView(entry), { timeout: 30_000 }).toBe(true);

      // The vendor still has it in line: Cancel stops it there, and a message and the record both say so.
      await entry.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => entry.getByText('Cancelled, credits returned').count(), { timeout: 30_000 }).toBe(1);
      await expect.poll(() => credits(page), { timeout: 30_000 }).toBe(before);
      expect(await entry.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
      await expect.poll(() => cancelled.length, { timeout: 30_000 }).toBe(1);
      await page.reload();
      await expect
        .poll(() => history(page).getByRole('listitem').first().getByText('Cancelled, credits returned').count(), { timeout: 30_000 })
        .toBe(1);
    },
    GENERATION_MS + 60_000,
  );

  it(
    'image extension to 16:9: the preview fills the new frame, and the result shows at its own shape',
    async () => {
      const { page } = running.browser;
      await page.setViewportSize({ width: 1440, height: 900 });
      await visit(page, running.product.base, '/tools/image-edit');
      await page.getByRole('tab', { name: 'Image extension' }).click();
      await page.locator('input[type=file][aria-label="Product image file"]').setInputFiles(join(pictures, 'mug.png'));
      const canvas = page.locator('.konvajs-content canvas').first();
      await expect.poll(() => canvas.count(), { timeout: 30_000 }).toBe(1);

      await page.getByRole('group', { name: 'Extend to' }).getByText('16:9').click();
      // The 900×600 mug sits in a 1067×600 frame; near its right edge, outside the mug, the pixelated preview of
      // the area to generate (the mug's blue at 35 %) must be drawn, not the empty canvas of a preview left at 1:1.
      const edge = () =>
        canvas.evaluate((node: HTMLCanvasElement) => {
          const context = node.getContext('2d') as CanvasRenderingContext2D;
          const [r = 0, , b = 0, a = 0] = context.getImageData(Math.floor(node.width * 0.96), Math.floor(node.height / 2), 1, 1).data;
          return { ratio: node.width / node.height, blue: b > r + 20, alpha: a };
        });
      await expect.poll(async () => Math.abs((await edge()).ratio - 1067 / 600), { timeout: 30_000 }).toBeLessThan(0.02);
      await expect.poll(async () => (await edge()).blue && (await edge()).alpha > 60, { timeout: 30_000 }).toBe(true);

      await page.getByRole('button', { name: 'Generate' }).click();
      const result = history(page).getByRole('img', { name: 'Image 1' }).first();
      await expect
        .poll(() => result.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), {
          timeout: GENERATION_MS,
          interval: 1000,
        })
        .toBeGreaterThan(0);
      // Shown at its own shape: the box on screen has the picture's ratio, not a square crop.
      const shape = await result.evaluate((img: HTMLImageElement) => {
        const box = img.getBoundingClientRect();
        return { natural: img.naturalWidth / img.naturalHeight, shown: box.width / box.height, fit: getComputedStyle(img).objectFit };
      });
      expect(shape.natural).toBeCloseTo(16 / 9, 1);
      expect(shape.fit).toBe('contain');
      expect(Math.abs(shape.shown - shape.natural)).toBeLessThan(0.05);
    },
    GENERATION_MS + 60_000,
  );
});
