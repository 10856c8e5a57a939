// The Batch page in a real browser against `npm start` (decision "Batch"): a CSV of two product links on
// loopback shops uploaded, each row followed to done, the zip of the previews downloaded and read, and each row
// opening its project in the editor, rebuilt from its tasks (decision "Projects without a draft").
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOverlay, visit } from '../support/browser.js';
import { productInBrowser } from '../support/lifecycle.js';
import { openShop, type Shop } from '../support/shop.js';
import { activeUser } from '../support/users.js';

const PRODUCTS = [
  {
    name: 'Aurora Insulated Water Bottle',
    description: 'Keeps drinks cold for 24 hours and hot for 12, with a leak-proof lid.',
    colours: [
      [230, 90, 60],
      [60, 140, 220],
    ] as [number, number, number][],
  },
  {
    name: 'Summit Trail Mug',
    description: 'An enamel camping mug that takes the campfire and the dishwasher.',
    colours: [
      [80, 190, 120],
      [240, 200, 70],
    ] as [number, number, number][],
  },
];
/** A row is analysed and previewed once in its template: tens of seconds on this 2-core machine. */
const BATCH_MS = 100_000;

let shops: Shop[] = [];
beforeAll(async () => {
  shops = await Promise.all(PRODUCTS.map((product) => openShop(product)));
});
afterAll(() => Promise.all(shops.map((shop) => shop.close())));
// Three task slots, so both rows' tasks run at once (batches get all but one slot).
const running = productInBrowser(() => ({ OUTBOUND_ALLOW_HOSTS: shops.map((shop) => shop.host).join(','), WORKER_CONCURRENCY: '3' }));

const download = mkdtempSync(join(tmpdir(), 'reelsmith-batch-zip-'));
afterAll(() => rmSync(download, { recursive: true, force: true }));

describe('batch page', () => {
  it('runs a CSV of product links to done, downloads the zip of their videos, and links each row to its project', {
    timeout: 180_000,
  }, async () => {
    const { page } = running.browser;
    await activeUser(page, running.product, 'batch@example.com');
    await visit(page, running.product.base, '/tools/link-to-video/batch');

    const csv = ['link,name', `${shops[0]?.productUrl},Aurora bottle`, `${shops[1]?.productUrl},Trail mug`, ''].join('\n');
    await page.getByLabel('Upload CSV').setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => page.getByRole('textbox', { name: 'Product links' }).inputValue()).toBe(csv);
    await page.getByText('2 rows: previews only, free').waitFor();
    // Square previews: the smallest frames, so the two renders fit this file's time on a shared machine.
    await openOverlay(page, page.getByRole('combobox', { name: 'Aspect ratio' }));
    await page.locator('.ant-select-item-option', { hasText: '1:1' }).click();
    await page.getByRole('button', { name: 'Start batch' }).click();

    // The page follows the rows by itself until both are done.
    await page.getByText('2 done · 0 failed · 0 in progress · 0 waiting').waitFor({ timeout: BATCH_MS });
    await page.locator('.ant-tag', { hasText: 'Finished' }).waitFor();
    const rows = page.locator('tbody tr');
    await expect(rows.count()).resolves.toBe(2);
    for (const [i, name] of ['Aurora bottle', 'Trail mug'].entries()) {
      const row = rows.nth(i);
      await expect(row.innerText()).resolves.toContain(name);
      await expect(row.locator('.ant-tag').innerText()).resolves.toBe('Done');
      await expect(row.getByRole('link', { name: 'Preview' }).count()).resolves.toBe(1);
      await expect(row.getByRole('link', { name: 'Open project' }).getAttribute('href')).resolves.toMatch(
        /^\/tools\/link-to-video\/preview\?projectId=[\w-]+$/,
      );
    }

    const [saved] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /Download all \(zip\)/ }).click()]);
    const zip = join(download, 'videos.zip');
    await saved.saveAs(zip);
    expect(readFileSync(zip).subarray(0, 4)).toEqual(Buffer.from('PK\x03\x04', 'latin1'));
    const entries = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n');
    expect(entries).toEqual(['1-Aurora bottle.mp4', '2-Trail mug.mp4']);
    for (const entry of entries) {
      const video = execFileSync('unzip', ['-p', zip, entry], { maxBuffer: 64 * 1024 * 1024 });
      // An MP4 starts with its ftyp box.
      expect(video.subarray(4, 8).toString('latin1'), entry).toBe('ftyp');
      expect(video.length, entry).toBeGreaterThan(10_000);
    }

    // A batch's project has no draft: the editor rebuilds it from its tasks and opens it on its preview page, with
    // the row's name, its preview playing, and the page's product behind it.
    await rows.nth(0).getByRole('link', { name: 'Open project' }).click();
    await page.waitForURL(/\/tools\/link-to-video\/preview\?projectId=/);
    await expect.poll(() => page.locator('header').innerText()).toContain('Aurora bottle');
    const previews = page.getByRole('list', { name: 'Previews' }).locator('video');
    const preview = previews.and(page.getByLabel('Video 1'));
    await expect
      .poll(() => preview.evaluate((v: HTMLVideoElement) => (Number.isFinite(v.duration) ? v.duration : 0)), { timeout: 15_000 })
      .toBeGreaterThan(5);
    await expect(previews.count()).resolves.toBe(1);
    expect(new URL(page.url()).pathname).toBe('/tools/link-to-video/preview');
    await page.getByRole('button', { name: 'Back to product' }).click();
    await expect.poll(() => page.getByLabel('Product name').inputValue()).toBe('Aurora bottle');
    await expect(page.getByLabel('Product description', { exact: true }).inputValue()).resolves.toBe(PRODUCTS[0]?.description);
    // The shop's two pictures, imported by the analysis, shown from the project's files.
    const pictures = page.getByRole('list', { name: 'Assets' }).locator('img');
    await expect.poll(() => pictures.evaluateAll((imgs: HTMLImageElement[]) => imgs.filter((img) => img.naturalWidth > 0).length)).toBe(2);
  });
});
