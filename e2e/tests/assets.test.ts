// The assets library in real Chromium against `npm start`: pictures seeded through the upload calls, then
// filtered, sorted, renamed and deleted on /dashboard/assets; a real PNG uploaded from the computer with the file
// chooser and one imported from a URL on loopback; the projects tab.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api.js';
import { type Browser, openBrowser, openOverlay, visit } from '../support/browser.js';
import { uploadPicture } from '../support/library.js';
import { solidPng } from '../support/png.js';
import { type Product, startProduct } from '../support/product.js';
import { activeUser } from '../support/users.js';

const EMAIL = 'assets-owner@example.com';
const SEEDED = ['alpha.png', 'beta.png', 'gamma.png'];

interface LibraryAsset {
  fileId: string;
  fileName: string;
  source: string;
  status: string;
}
interface Statistics {
  images: number;
  videos: number;
  projects: number;
}

/** A picture host on loopback for the URL import; the product may fetch it because OUTBOUND_ALLOW_HOSTS names it. */
async function openPictureHost(): Promise<{ host: string; url: string; close: () => Promise<void> }> {
  const picture = solidPng(400, 300, [200, 120, 40]);
  const server: Server = createServer((req, res) => {
    if (req.url !== '/catalog/sneaker.png') return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': picture.length }).end(picture);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { host, url: `http://${host}/catalog/sneaker.png`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The names on the cards of the assets tab, in order. */
const cardNames = (page: Page) =>
  page
    .getByRole('list', { name: 'Assets' })
    .getByRole('article')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('aria-label')));

async function choose(page: Page, filter: string, option: string) {
  await page.getByRole('combobox', { name: filter }).click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).click();
}

describe('assets library', () => {
  let product: Product;
  let browser: Browser;
  let owner: ApiClient;
  let pictureHost: Awaited<ReturnType<typeof openPictureHost>>;

  beforeAll(async () => {
    pictureHost = await openPictureHost();
    product = await startProduct({ OUTBOUND_ALLOW_HOSTS: pictureHost.host });
    browser = await openBrowser();
    await activeUser(browser.page, product, EMAIL);
    owner = new ApiClient(product.base);
    await owner.ok('POST', '/auth/dev-login', { body: { email: EMAIL } });
    for (const [i, name] of SEEDED.entries()) await uploadPicture(owner, name, solidPng(320, 240, [40 * i, 180, 120]));
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await pictureHost?.close();
  });

  it('lists the assets newest first, then oldest first, with the sort in the address bar', async () => {
    const { page } = browser;
    await visit(page, product.base, '/dashboard/assets');
    await expect.poll(() => cardNames(page)).toEqual(['gamma.png', 'beta.png', 'alpha.png']);
    const statistics = await owner.ok<Statistics>('GET', '/assert/statistics');
    expect(statistics.images).toBe(3);
    await expect.poll(() => page.getByLabel('Library summary').innerText()).toMatch(/Images\s*3/);

    await choose(page, 'Sort', 'Oldest');
    await expect.poll(() => cardNames(page)).toEqual(['alpha.png', 'beta.png', 'gamma.png']);
    expect(new URL(page.url()).search).toBe('?sort=oldest');
  });

  it('filters by type and source, and clears the filters', async () => {
    const { page } = browser;
    await visit(page, product.base, '/dashboard/assets');
    await expect.poll(() => cardNames(page)).toHaveLength(3);
    await choose(page, 'Type', 'Video');
    await expect.poll(() => page.getByText('No assets match these filters.').count()).toBe(1);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => cardNames(page)).toHaveLength(3);

    await choose(page, 'Resource source', 'From URL');
    await expect.poll(() => page.getByText('No assets match these filters.').count()).toBe(1);
    await choose(page, 'Resource source', 'From local');
    await expect.poll(() => cardNames(page)).toEqual(['gamma.png', 'beta.png', 'alpha.png']);
    expect(new URL(page.url()).search).toBe('?source=local');
  });

  it('shows a picture enlarged from the stored file, and downloads it as an attachment', async () => {
    const { page } = browser;
    await visit(page, product.base, '/dashboard/assets');
    await expect.poll(() => cardNames(page)).toHaveLength(3);
    const card = page.getByRole('article', { name: 'alpha.png' });
    await openOverlay(page, card.getByRole('button', { name: 'Enlarge' }));
    const preview = page.getByRole('dialog', { name: 'alpha.png' }).getByRole('img', { name: 'alpha.png' });
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);
    await page.keyboard.press('Escape');

    const href = await card.getByRole('link', { name: 'Download' }).getAttribute('href');
    const answer = await page.request.get(new URL(href ?? '', product.base).href);
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-disposition']).toMatch(/^attachment;.*alpha\.png/);
  });

  it('renames an asset, and the new name is kept', async () => {
    const { page } = browser;
    await visit(page, product.base, '/dashboard/assets');
    await openOverlay(page, page.getByRole('article', { name: 'alpha.png' }).getByRole('button', { name: 'Rename' }));
    const dialog = page.getByRole('dialog', { name: 'Rename' });
    const name = dialog.getByRole('textbox', { name: 'Name' });
    await name.fill('   ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.getByRole('alert').innerText()).toBe('Please enter a name');
    await name.fill('  hero shot  ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByText('Renamed.').count()).toBe(1);
    await expect.poll(() => cardNames(page)).toEqual(['gamma.png', 'beta.png', 'hero shot']);

    await visit(page, product.base, '/dashboard/assets');
    await expect.poll(() => cardNames(page)).toEqual(['gamma.png', 'beta.png', 'hero shot']);
  });

  it('deletes an asset only after confirmation', async () => {
    const { page } = browser;
    await visit(page, product.base, '/dashboard/assets');
    await openOverlay(page, page.getByRole('article', { name: 'beta.png' }).getByRole('button', { name: 'Delete' }));
    const confirm = page.getByRole('dialog', { name: 'Delete "beta.png"?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => confirm.count()).toBe(0);
    expect(await cardNames(page)).toContain('beta.png');

    await openOverlay(page, page.getByRole('article', { name: 'beta.png' }).getByRole('button', { name: 'Delete' }));
    await page.getByRole('dialog', { name: 'Delete "beta.png"?' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => cardNames(page)).toEqual(['gamma.png', 'hero shot']);
    await visit(page, product.base, '/dashboard/assets');
    await expect.poll(() => cardNames(page)).toEqual(['gamma.png', 'hero shot']);
  });

  it('uploads a real PNG from the computer, which appears in the list', async () => {
    const { page } = browser;
    await visit(page, product.base, '/dashboard/assets');
    await expect.poll(() => cardNames(page)).toHaveLength(2);
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'studio.png', mimeType: 'image/png', buffer: solidPng(640, 480, [26, 219, 116]) });
    await expect.poll(() => page.getByText('studio.png uploaded').count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => cardNames(page)).toEqual(['studio.png', 'gamma.png', 'hero shot']);
    const thumbnail = page.getByRole('article', { name: 'studio.png' }).getByRole('button', { name: 'Enlarge' }).locator('img');
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect.poll(() => page.getByLabel('Library summary').innerText()).toMatch(/Images\s*3/);
  });

  it("shows the service's reason when it refuses a file", async () => {
    const { page } = browser;
    await visit(page, product.base, '/dashboard/assets');
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('#!/bin/sh\necho not a picture\n') });
    const error = page.locator('.ant-message-error');
    await expect.poll(() => error.count(), { timeout: 30_000 }).toBe(1);
    // What the content check says of a script named .png: not a format it takes, or not a picture it can read.
    expect(await error.innerText()).toMatch(/This file format is not supported\.|The file is damaged or incomplete and cannot be read\./);
    await expect.poll(() => cardNames(page)).toEqual(['studio.png', 'gamma.png', 'hero shot']);
  });

  it('imports a picture from a URL: a draft card first, then the stored asset, listed under From URL', async () => {
    const { page } = browser;
    await visit(page, product.base, '/dashboard/assets');
    await openOverlay(page, page.getByRole('button', { name: /Import from URL/ }));
    const dialog = page.getByRole('dialog', { name: 'Import from a URL' });
    await dialog.getByRole('textbox', { name: 'Image or video URL' }).fill(pictureHost.url);
    await dialog.getByRole('button', { name: 'Import' }).click();
    // The first poll asks at once, before the worker can have fetched the picture; the next is 2 s later.
    await expect.poll(() => page.getByRole('article', { name: pictureHost.url }).innerText()).toContain('Importing…');
    await expect.poll(() => page.getByText(`${pictureHost.url} imported`).count(), { timeout: 60_000 }).toBe(1);

    const imported = (
      await owner.ok<{ list: LibraryAsset[] }>('POST', '/assert/folders/files', { body: { page: 1, pageSize: 10, source: 'url' } })
    ).list;
    expect(imported).toHaveLength(1);
    expect(imported[0]?.status).toBe('completed');
    await expect.poll(() => cardNames(page)).toContain(imported[0]?.fileName);
    await choose(page, 'Resource source', 'From URL');
    await expect.poll(() => cardNames(page)).toEqual([imported[0]?.fileName]);
  });

  it('lists the projects on their tab, and deletes one', async () => {
    const { page } = browser;
    await owner.ok('POST', '/project/createProject', { body: { projectName: 'Summer sneakers' } });
    await owner.ok('POST', '/project/createProject', { body: { projectName: 'Desk lamp' } });
    await visit(page, product.base, '/dashboard/assets');
    await page.getByRole('tab', { name: 'Projects' }).click();
    const projects = page.getByRole('list', { name: 'Projects' }).getByRole('article');
    await expect
      .poll(() => projects.evaluateAll((cards) => cards.map((card) => card.getAttribute('aria-label'))))
      .toEqual(['Desk lamp', 'Summer sneakers']);
    await openOverlay(page, page.getByRole('article', { name: 'Desk lamp' }).getByRole('button', { name: 'Delete' }));
    await page.getByRole('dialog', { name: 'Delete "Desk lamp"?' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => projects.count()).toBe(1);
    const left = await owner.ok<{ list: { projectName: string }[] }>('POST', '/project/getProjects', { body: { page: 1, pageSize: 10 } });
    expect(left.list.map((project) => project.projectName)).toEqual(['Summer sneakers']);
  });
});
