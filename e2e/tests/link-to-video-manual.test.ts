// Link to video when the page does not give a product, in real Chromium against `npm start`, with a shop on
// loopback (decisions "Manual product entry", "Projects named after the product", "Media import report"): a page
// with no product says why on the page, even after a reload; the product is entered by hand, a picture uploaded
// from the computer, and the product editor and the previews follow as if the page had been read; the project is
// named after the product, never the shop's host. A product whose shop refuses its pictures says how many could
// not be imported and why, with the upload right there.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyText, pathOf, visit } from '../support/browser.js';
import { productInBrowser } from '../support/lifecycle.js';
import { solidPng } from '../support/png.js';
import { PREFIX } from '../support/product.js';
import { activeUser } from '../support/users.js';

const NAME = 'Brass Desk Lamp';
const DESCRIPTION = 'Solid brass, warm dimmable light, a heavy base that does not tip.';
const REFUSED_PRODUCT = 'Harbor Linen Shirt';

/** A shop on loopback: an "About us" page (no product), and a product whose pictures the shop refuses to servers. */
async function openShop(): Promise<{ host: string; base: string; close: () => Promise<void> }> {
  let base = '';
  const pages: Record<string, () => { status: number; type: string; body: string }> = {
    '/about-us': () => ({
      status: 200,
      type: 'text/html; charset=utf-8',
      body: '<!doctype html><html lang="en"><head><title>About us | Northwind</title></head><body><h1>About us</h1><p>Makers since 2016.</p></body></html>',
    }),
    '/products/harbor-linen-shirt': () => ({
      status: 200,
      type: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en"><head><title>${REFUSED_PRODUCT}</title><script type="application/ld+json">${JSON.stringify({
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: REFUSED_PRODUCT,
        description: 'Breathable linen for warm days.',
        image: [`${base}/cdn/shirt-1.jpg`, `${base}/cdn/shirt-2.jpg`],
      })}</script></head><body><h1>${REFUSED_PRODUCT}</h1></body></html>`,
    }),
  };
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/cdn/')) return res.writeHead(403, { 'content-type': 'text/plain' }).end('Access denied');
    const page = pages[req.url ?? '']?.();
    if (!page) return res.writeHead(404).end('not here');
    res.writeHead(page.status, { 'content-type': page.type }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  base = `http://${host}`;
  return { host, base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let shop: Awaited<ReturnType<typeof openShop>>;
let pictures: string;
beforeAll(async () => {
  shop = await openShop();
  pictures = mkdtempSync(join(tmpdir(), 'reelsmith-manual-'));
  writeFileSync(join(pictures, 'brass-lamp.png'), solidPng(900, 1200, [190, 150, 60]));
});
afterAll(async () => {
  await shop?.close();
  rmSync(pictures, { recursive: true, force: true });
});
const running = productInBrowser(() => ({ OUTBOUND_ALLOW_HOSTS: shop.host }));

const projectIdOf = (page: Page) => new URL(page.url()).searchParams.get('projectId') ?? '';

/** The project's name as the service answers it to the signed-in browser. */
async function savedName(page: Page): Promise<string> {
  const url = `${running.product.base}/${PREFIX}/api/project/getProjectById?projectId=${projectIdOf(page)}`;
  const res = await page.request.get(url, { headers: { client: 'WEB', origin: running.product.base, 'accept-language': 'en' } });
  return ((await res.json()) as { data: { projectName: string } }).data.projectName;
}

const headerText = (page: Page) => page.locator('header').innerText();

/** Pastes a link on the landing page and waits for the product page of the new project to settle. */
async function analyse(page: Page, link: string) {
  await visit(page, running.product.base, '/tools/link-to-video');
  await page.getByRole('textbox', { name: 'Product link' }).fill(link);
  await page.getByRole('button', { name: 'Generate video' }).click();
  await page.waitForURL('**/tools/link-to-video/edit-product?projectId=*');
}

describe('link to video without a product from the page', () => {
  it('a page with no product says why on the page, also after a reload, and the project stays untitled', async () => {
    const { page } = running.browser;
    await activeUser(page, running.product, 'manual-entry@example.com');
    await analyse(page, `${shop.base}/about-us`);
    const failure = page.getByRole('alert').filter({ hasText: 'The product could not be analysed' });
    await failure.waitFor({ timeout: 60_000 });
    await expect.poll(() => failure.innerText()).toContain('No product found on this page. Please provide a valid product url');
    await expect.poll(() => headerText(page)).toContain('Untitled project');
    expect(await headerText(page)).not.toContain('127.0.0.1');
    expect(await savedName(page)).toBe('Untitled project');

    await page.reload();
    expect(pathOf(page)).toBe('/tools/link-to-video/edit-product');
    await expect.poll(() => failure.innerText(), { timeout: 30_000 }).toContain('No product found on this page.');
    expect(await page.getByRole('textbox', { name: 'Product link' }).inputValue()).toBe(`${shop.base}/about-us`);
  });

  it('the product entered by hand, with a picture from the computer, goes on to the editor and names the project', async () => {
    const { page } = running.browser;
    const manual = page.getByRole('region', { name: 'Enter the product yourself' });
    await manual.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => manual.innerText()).toContain('Please enter the product name.');
    await expect.poll(() => manual.innerText()).toContain('Please upload at least one picture.');

    await manual.getByRole('textbox', { name: 'Product name' }).fill(NAME);
    await manual.getByRole('textbox', { name: 'Product description' }).fill(DESCRIPTION);
    const chooser = page.waitForEvent('filechooser');
    await manual.getByRole('button', { name: 'Upload pictures' }).click();
    await (await chooser).setFiles(join(pictures, 'brass-lamp.png'));
    const picture = manual.getByRole('img', { name: 'brass-lamp.png' });
    await picture.waitFor({ timeout: 30_000 });
    await expect.poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 30_000 }).toBe(900);

    await manual.getByRole('button', { name: 'Continue' }).click();
    const name = page.locator('#product-name');
    await expect.poll(() => name.inputValue()).toBe(NAME);
    expect(await page.locator('#product-description').inputValue()).toBe(DESCRIPTION);
    const assets = page.getByRole('list', { name: 'Assets' }).locator('img');
    await expect.poll(() => assets.count()).toBe(1);
    // Named after the product, never the host; the header says so without a reload.
    await expect.poll(() => savedName(page)).toBe(NAME);
    await expect.poll(() => headerText(page)).toContain(NAME);
    expect(await headerText(page)).not.toContain('Untitled project');

    // The draft keeps it: a reload opens the same product.
    await page.reload();
    await expect.poll(() => name.inputValue(), { timeout: 30_000 }).toBe(NAME);
    await expect.poll(() => assets.count()).toBe(1);

    // The video task takes it as it takes an analysed product.
    await page.getByRole('button', { name: 'Generate videos' }).click();
    await page.waitForURL('**/tools/link-to-video/preview?projectId=*');
    await page.getByRole('status').filter({ hasText: 'Parsing content' }).waitFor({ timeout: 60_000 });
    expect(await bodyText(page)).not.toContain('Generation failed');
  });

  it('a product whose shop refuses its pictures says how many could not be imported and why, with the upload right there', async () => {
    const { page } = running.browser;
    await analyse(page, `${shop.base}/products/harbor-linen-shirt`);
    const name = page.locator('#product-name');
    await expect.poll(() => name.inputValue(), { timeout: 60_000 }).toBe(REFUSED_PRODUCT);
    const notice = page.getByRole('alert').filter({ hasText: 'could not be imported' });
    await expect.poll(() => notice.innerText()).toContain('2 pictures could not be imported: the shop refused the download.');
    expect(await notice.getByRole('button', { name: 'Upload pictures' }).count()).toBe(1);
    await expect.poll(() => savedName(page)).toBe(REFUSED_PRODUCT);
    await expect.poll(() => headerText(page)).toContain(REFUSED_PRODUCT);
  });
});
