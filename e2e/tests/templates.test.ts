// Ad templates in real Chromium against `npm start` (decision "Template picker"): the price and brand the shop's
// page states arrive in the product editor, the user saves a brand kit and picks a template whose thumbnails show
// their own product, the previews and the export are made in it and say so, and the exported video shows the
// kit's call to action, read back from its pictures by OCR.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyText, openOverlay, visit } from '../support/browser.js';
import { productInBrowser } from '../support/lifecycle.js';
import { lastFrame, readText, shareOfColour } from '../support/ocr.js';
import { PREFIX } from '../support/product.js';
import { openShop, type Shop } from '../support/shop.js';
import { activeUser } from '../support/users.js';

const PRODUCT = {
  name: 'Aurora Insulated Water Bottle',
  description: 'Double-wall vacuum insulation keeps drinks cold for 24 hours and hot for 12. Leak-proof lid, fits cup holders.',
  brand: 'Northwind',
  colours: [
    [40, 120, 200],
    [220, 90, 60],
  ] as [number, number, number][],
};
/** Words a render could not have found anywhere but in the brand kit. */
const CALL_TO_ACTION = 'Grab yours now';
/** The kit's accent colour: a violet no template uses of its own and the shop's blue and orange picture lacks. */
const ACCENT = '#8e24aa';
/** Renders on this 2-core machine take tens of seconds each; three previews are made at once. */
const RENDER_MS = 300_000;

/** The product page with JSON-LD naming the brand and an offer, as shops write it. */
function productPage(imageUrls: string[]): string {
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: PRODUCT.name,
    description: PRODUCT.description,
    image: imageUrls,
    brand: { '@type': 'Brand', name: PRODUCT.brand },
    offers: { '@type': 'Offer', price: '24.90', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
  };
  return `<!doctype html><html lang="en"><head><title>${PRODUCT.name}</title>
<script type="application/ld+json">${JSON.stringify(jsonLd)}</script></head><body><h1>${PRODUCT.name}</h1></body></html>`;
}

let shop: Shop;
beforeAll(async () => {
  shop = await openShop({ ...PRODUCT, page: productPage });
});
afterAll(() => shop?.close());
const running = productInBrowser(() => ({ OUTBOUND_ALLOW_HOSTS: shop.host }));

/** The pictures of a region that have really loaded. */
const loadedPictures = (region: ReturnType<Page['getByRole']>) =>
  region.locator('img').evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length);

/** The user's library entries, as the assets page asks for them (the session's cookie, the client header). */
const libraryOf = (page: Page) =>
  page.evaluate(async (prefix) => {
    const response = await fetch(`/${prefix}/api/assert/folders/files`, {
      method: 'POST',
      headers: { client: 'WEB', 'content-type': 'application/json' },
      body: JSON.stringify({ page: 1, pageSize: 50 }),
    });
    return ((await response.json()) as { data: { list: { resKey: string | null; thumbnailUrl: string | null }[] } }).data.list;
  }, PREFIX);

const draftOf = (page: Page) =>
  page.evaluate(() => {
    const id = new URL(location.href).searchParams.get('projectId');
    return JSON.parse(localStorage.getItem(`projectDraftData-${id}`) ?? 'null') as {
      exports: { exportVideos: { resKey: string; videoUrl: string; templateId?: string }[] } | null;
    } | null;
  });

describe('ad templates', () => {
  it('prefills the price and brand the page states', async () => {
    const { page } = running.browser;
    await activeUser(page, running.product, 'templates@example.com');
    await visit(page, running.product.base, '/tools/link-to-video');
    await page.getByRole('textbox', { name: 'Product link' }).fill(shop.productUrl);
    await page.getByRole('button', { name: 'Generate video' }).click();
    await page.waitForURL('**/tools/link-to-video/edit-product?projectId=*');
    await expect.poll(() => page.locator('#product-name').inputValue(), { timeout: 60_000 }).toBe(PRODUCT.name);
    await expect.poll(() => page.getByRole('textbox', { name: 'Price', exact: true }).inputValue(), { timeout: 15_000 }).toBe('24.90');
    expect(await page.getByRole('textbox', { name: 'Brand' }).inputValue()).toBe(PRODUCT.brand);
    expect(await page.locator('.ant-select', { has: page.getByRole('combobox', { name: 'Currency' }) }).innerText()).toContain('USD');
  });

  it('saves a brand kit and picks a template whose thumbnails show the product itself', async () => {
    const { page } = running.browser;
    await openOverlay(page, page.getByRole('button', { name: 'Brand kit' }));
    const panel = page.getByRole('dialog', { name: 'Brand kit' });
    await panel.getByRole('textbox', { name: 'Call to action' }).fill(CALL_TO_ACTION);
    // An accent no template has of its own: the Sale template's stickers take it.
    await panel.getByLabel('Secondary colour').click();
    const hex = page.locator('.ant-color-picker-hex-input input');
    await hex.fill(ACCENT.slice(1));
    await hex.press('Enter');
    await page.keyboard.press('Escape');
    await panel.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => bodyText(page), { timeout: 15_000 }).toContain('Brand kit saved.');
    await panel.waitFor({ state: 'hidden' });

    const picker = page.getByRole('radiogroup', { name: 'Template' });
    expect(await picker.getByRole('radio', { name: 'Automatic' }).isChecked()).toBe(true);
    // Every template's thumbnail is drawn by the renderer from the shop's first picture (the automatic tile repeats four).
    await expect.poll(() => loadedPictures(picker), { timeout: 120_000, interval: 1000 }).toBe(10);
    const sources = await picker.locator('img').evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).src));
    expect(sources.every((src) => src.includes('/link-video/templates/thumbnail?'))).toBe(true);

    // The radio is hidden under its picture: a person clicks the picture.
    await picker.getByText('Sale', { exact: true }).click();
    expect(await picker.getByRole('radio', { name: 'Sale' }).isChecked()).toBe(true);
  });

  it(
    'makes every preview in the chosen template and says so, in the grid and in the quick editor',
    async () => {
      const { page } = running.browser;
      await page.getByRole('button', { name: 'Generate videos' }).click();
      await page.waitForURL('**/tools/link-to-video/preview?projectId=*');
      const previews = page.getByRole('list', { name: 'Previews' });
      await expect.poll(() => previews.locator('video').count(), { timeout: RENDER_MS, interval: 1000 }).toBe(3);
      expect((await previews.innerText()).match(/Template: Sale/g)).toHaveLength(3);
      // There the tiles are buttons: choosing one re-renders the video at once.
      const editor = page.getByRole('complementary', { name: 'Quick editor' });
      const current = editor.getByRole('group', { name: 'Template' }).getByRole('button', { pressed: true });
      expect(await current.innerText()).toBe('Sale');
    },
    RENDER_MS + 60_000,
  );

  it(
    'exports in the template, says which, closes on the brand kit’s call to action, and its poster is the Sale hook in the kit’s accent',
    async () => {
      const { page } = running.browser;
      await page.getByRole('checkbox', { name: 'Video 1' }).check();
      await openOverlay(page, page.getByRole('button', { name: 'Render 1 video' }));
      await page.getByRole('button', { name: 'Yes, render' }).click();
      await page.waitForURL('**/tools/link-to-video/video-export?projectId=*');
      await expect
        .poll(() => bodyText(page), { timeout: RENDER_MS, interval: 1000 })
        .toContain('Your video has been exported and is ready for download.');
      expect(await page.getByRole('region', { name: 'Video 1' }).innerText()).toContain('Template: Sale');
      const exported = (await draftOf(page))?.exports?.exportVideos[0];
      expect(exported?.templateId).toBe('sale');

      const video = await page.request.get(new URL(exported?.videoUrl ?? '', running.product.base).toString());
      expect(video.status()).toBe(200);
      // The end card closes the ad with the call to action.
      const end = lastFrame(await video.body());
      expect(await readText(end)).toContain(CALL_TO_ACTION.toLowerCase());

      // The poster the library shows for the export.
      const entry = (await libraryOf(page)).find((item) => item.resKey === exported?.resKey);
      expect(entry?.thumbnailUrl).toBeTruthy();
      const poster = await page.request.get(new URL(entry?.thumbnailUrl ?? '', running.product.base).toString());
      expect(poster.status()).toBe(200);
      // A designed frame, not the first black one: the Sale template opens on the page's price, on a sticker in the
      // kit's accent colour.
      const posterBytes = await poster.body();
      expect(await readText(posterBytes)).toContain('24.90');
      expect(await shareOfColour(posterBytes, ACCENT)).toBeGreaterThan(0.01);
    },
    RENDER_MS + 60_000,
  );
});
