// AI background in Chromium (decision "Studio backdrops"): a background removed is shown over a checkerboard in
// the history, so its transparency reads as transparency, not as a colour.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visit } from '../support/browser.js';
import { productInBrowser } from '../support/lifecycle.js';
import { activeUser } from '../support/users.js';

/** A local cut-out takes seconds on this 2-core machine, more under load. */
const GENERATION_MS = 180_000;

const running = productInBrowser();
let pictures: string;
beforeAll(async () => {
  pictures = mkdtempSync(join(tmpdir(), 'reelsmith-background-'));
  // A product shot: a blue bottle with a dark cap on a plain beige backdrop.
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800"><rect width="800" height="800" fill="#d8d2c4"/><rect x="290" y="200" width="220" height="460" rx="50" fill="#2a6bd1"/><rect x="340" y="140" width="120" height="70" fill="#333"/></svg>';
  writeFileSync(join(pictures, 'bottle.png'), await sharp(Buffer.from(svg)).png().toBuffer());
});
afterAll(() => rmSync(pictures, { recursive: true, force: true }));

const loadedWidth = (image: Locator) => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0));

describe('AI background', () => {
  beforeAll(() => activeUser(running.browser.page, running.product, 'background@example.com'), 120_000);

  it(
    'shows a removed background over a checkerboard',
    async () => {
      const { page } = running.browser;
      await visit(page, running.product.base, '/tools/image-edit');
      await page.locator('input[type=file][aria-label="Product image file"]').setInputFiles(join(pictures, 'bottle.png'));
      await expect.poll(() => loadedWidth(page.getByRole('img', { name: 'bottle.png' })), { timeout: 30_000 }).toBe(800);
      await page.getByRole('group', { name: 'Background' }).getByText('Remove background').click();
      await page.getByRole('button', { name: 'Generate' }).click();
      const result = page.getByRole('region', { name: 'Generation history' }).getByRole('img', { name: 'Image 1' }).first();
      await expect.poll(() => loadedWidth(result), { timeout: GENERATION_MS, interval: 1000 }).toBe(800);

      // The picture is transparent around the bottle…
      const cornerAlpha = await result.evaluate((img: HTMLImageElement) => {
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const context = canvas.getContext('2d') as CanvasRenderingContext2D;
        context.drawImage(img, 0, 0);
        return context.getImageData(20, 20, 1, 1).data[3];
      });
      expect(cornerAlpha).toBe(0);
      // …and what shows there on the page is a checkerboard: two tones alternating, not one colour.
      await result.scrollIntoViewIfNeeded();
      const shot = await result.screenshot();
      const { data, info } = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const tones = new Set<number>();
      for (let y = 2; y < Math.min(40, info.height); y++) {
        for (let x = 2; x < Math.min(40, info.width); x++) tones.add(data[(y * info.width + x) * 3] as number);
      }
      expect(tones.has(255)).toBe(true);
      expect([...tones].some((tone) => tone < 235)).toBe(true);
    },
    GENERATION_MS + 60_000,
  );
});
