// The browser extension in real Chromium (loaded unpacked from its build) against `npm start`. The product page
// is on a loopback shop the server may not fetch (not in OUTBOUND_ALLOW_HOSTS), and its product is drawn by a
// script, so it exists only in the page as the browser rendered it: the analysis can only have read the HTML
// the extension captured. The pictures are on another loopback host that the server may fetch, as a shop's CDN.
// The popup is opened as a page with `?tabId=` naming the shop's tab (a headless browser has no toolbar to
// click), and the shop's origin is granted in the manifest in place of the activeTab grant that click gives.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, openBrowser, pathOf } from '../support/browser.js';
import { type UnpackedExtension, unpackedExtension } from '../support/extension.js';
import { type Product, startProduct } from '../support/product.js';
import { openShop, type Shop } from '../support/shop.js';
import { activate } from '../support/users.js';

const PRODUCT = {
  name: 'Trailhead Merino Beanie',
  description: 'Soft merino wool that keeps you warm on the trail and never itches.',
  colours: [
    [200, 60, 60],
    [60, 120, 200],
    [90, 170, 90],
  ] as [number, number, number][],
};

/** A recognised shop's address, which the browser resolves to the loopback shop (`--host-resolver-rules`). */
const AMAZON_HOST = 'www.amazon.com';
const AMAZON_PATH = '/dp/B0BEANIE';

/** The extension's service worker API, as much of it as the test calls. */
declare const chrome: { tabs: { query(filter: { url: string }): Promise<{ id?: number }[]> } };

interface ScriptedShop {
  origin: string;
  productUrl: string;
  /** The port of the same shop over https, as the recognised shop's address (HSTS-preloaded: https only). */
  httpsPort: string;
  /** The User-Agent of every request for the product page. */
  pageRequests: IncomingHttpHeaders['user-agent'][];
  close: () => Promise<void>;
}

/** A storefront whose HTML is an empty shell: its script draws the product, JSON-LD included, in the browser. */
async function openScriptedShop(imageUrls: string[]): Promise<ScriptedShop> {
  const pageRequests: ScriptedShop['pageRequests'] = [];
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: PRODUCT.name,
    description: PRODUCT.description,
    image: imageUrls,
  };
  const script = `
    document.title = ${JSON.stringify(`${PRODUCT.name} | Quiet Goods`)};
    const ld = document.createElement('script');
    ld.type = 'application/ld+json';
    ld.textContent = ${JSON.stringify(JSON.stringify(jsonLd))};
    document.head.append(ld);
    const main = document.getElementById('app');
    main.innerHTML = '<h1>' + ${JSON.stringify(PRODUCT.name)} + '</h1><p>' + ${JSON.stringify(PRODUCT.description)} + '</p>';
    for (const src of ${JSON.stringify(imageUrls)}) {
      const img = document.createElement('img');
      img.src = src;
      main.append(img);
    }`;
  const serve: RequestListener = (req, res) => {
    if (req.url === '/p/beanie' || req.url === AMAZON_PATH) {
      pageRequests.push(req.headers['user-agent']);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(
        '<!doctype html><html lang="en"><head><title>Loading</title></head><body><main id="app">Loading…</main><script src="/shop.js"></script></body></html>',
      );
    }
    if (req.url === '/shop.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    res.writeHead(404).end('not here');
  };
  const servers: Server[] = [createServer(serve), createHttpsServer(selfSignedFor(AMAZON_HOST), serve)];
  const ports = await Promise.all(
    servers.map(
      (server) =>
        new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(String((server.address() as AddressInfo).port)))),
    ),
  );
  const origin = `http://127.0.0.1:${ports[0]}`;
  return {
    origin,
    productUrl: `${origin}/p/beanie`,
    httpsPort: ports[1] as string,
    pageRequests,
    close: async () => {
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}

/** A throwaway certificate for a host (the browser is told to accept it), made by Debian's openssl. */
function selfSignedFor(host: string): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'reelsmith-tls-'));
  try {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        `/CN=${host}`,
        '-addext',
        `subjectAltName=DNS:${host}`,
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let pictures: Shop;
let shop: ScriptedShop;
let extension: UnpackedExtension;
let product: Product;
let browser: Browser;
let worker: Worker;

beforeAll(async () => {
  pictures = await openShop(PRODUCT);
  shop = await openScriptedShop(pictures.imageUrls);
  extension = unpackedExtension();
  product = await startProduct({ OUTBOUND_ALLOW_HOSTS: pictures.host, EXTENSION_ORIGINS: extension.id });
  extension.grantHosts([product.base, shop.origin]);
  browser = await openBrowser([
    ...extension.args,
    `--host-resolver-rules=MAP ${AMAZON_HOST} 127.0.0.1:${shop.httpsPort}`,
    '--ignore-certificate-errors',
  ]);
  worker = browser.context.serviceWorkers()[0] ?? (await browser.context.waitForEvent('serviceworker'));
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  extension?.remove();
  await shop?.close();
  await pictures?.close();
});

const extensionPage = (page: string) => `chrome-extension://${extension.id}/${page}`;

/** Saves the options page with a change made by `edit`. */
async function saveOptions(edit: (options: Page) => Promise<void>) {
  const options = await browser.context.newPage();
  await options.goto(extensionPage('options.html'));
  await expect.poll(() => options.getByLabel('App address').inputValue()).not.toBe('');
  await edit(options);
  await options.getByRole('button', { name: 'Save' }).click();
  await options.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  await options.close();
}

/** Opens the shop's product page in a tab of its own and answers that tab's id. */
async function openProductTab(): Promise<number> {
  const tab = await browser.context.newPage();
  await tab.goto(shop.productUrl);
  await tab.getByRole('heading', { name: PRODUCT.name }).waitFor();
  const [found] = await worker.evaluate((url) => chrome.tabs.query({ url }), shop.productUrl);
  if (found?.id === undefined) throw new Error('the shop tab was not found');
  return found.id;
}

/** Clicks "Make a video" in the popup for a tab; answers the popup and the tab the extension opened. */
async function makeVideo(tabId: number): Promise<{ popup: Page; opened: Page }> {
  const popup = await browser.context.newPage();
  await popup.goto(`${extensionPage('popup.html')}?tabId=${tabId}`);
  const opened = browser.context.waitForEvent('page', { timeout: 60_000 });
  await popup.getByRole('button', { name: 'Make a video' }).click();
  return { popup, opened: await opened };
}

/** The product editor showing what the analysis found. */
async function expectAnalysedProduct(page: Page) {
  // Polled rather than awaited as one navigation: the app's own move after sign-in may be cut short by the extension's.
  await expect.poll(() => pathOf(page), { timeout: 60_000 }).toBe('/tools/link-to-video/edit-product');
  await expect.poll(() => page.locator('#product-name').inputValue(), { timeout: 90_000 }).toBe(PRODUCT.name);
  const shown = page.getByRole('list', { name: 'Assets' }).locator('img');
  await expect
    .poll(() => shown.evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length), { timeout: 30_000 })
    .toBe(PRODUCT.colours.length);
}

describe('the browser extension', () => {
  it('saves the app address in its options', async () => {
    await saveOptions(async (options) => {
      expect(await options.getByLabel('App address').inputValue()).toBe('http://127.0.0.1:3000');
      await options.getByLabel('App address').fill(`${product.base}/`);
    });
    const options = await browser.context.newPage();
    await options.goto(extensionPage('options.html'));
    await expect.poll(() => options.getByLabel('App address').inputValue()).toBe(product.base);
    await options.close();
  });

  it('sends a signed-out user to sign in, then opens link to video with the captured page in that tab', async () => {
    const tabId = await openProductTab();
    const { popup, opened: login } = await makeVideo(tabId);
    await popup.getByRole('status').filter({ hasText: 'Please sign in to Reelsmith' }).waitFor();
    await login.waitForURL('**/account/login');

    const email = login.locator('input[type=email][name=email]');
    await email.fill('extension@example.com');
    await email.press('Enter');
    await login.waitForURL('**/account/activate');
    expect(pathOf(login)).toBe('/account/activate');
    await activate(login, product);

    await expectAnalysedProduct(login);
    // The arrival parameters are gone from the address (spec "States and transitions").
    const params = new URL(login.url()).searchParams;
    expect([...params.keys()]).toEqual(['projectId']);
  });

  it('a signed-in user gets link to video at once, analysed from the page as the browser showed it', async () => {
    const tabId = await openProductTab();
    const { popup, opened } = await makeVideo(tabId);
    await popup
      .getByRole('status')
      .filter({ hasText: `Opened in Reelsmith. Product pictures found: ${PRODUCT.colours.length}.` })
      .waitFor();
    await expectAnalysedProduct(opened);
    // Only the browser ever asked for the product page: the server analysed what the extension sent.
    expect(shop.pageRequests.length).toBeGreaterThan(0);
    for (const agent of shop.pageRequests) expect(agent).toMatch(/Chrome/);
  });

  it('shows a floating button on a recognised shop that makes the video, until the options turn it off', async () => {
    const tab = await browser.context.newPage();
    await tab.goto(`https://${AMAZON_HOST}${AMAZON_PATH}`);
    const button = tab.getByRole('button', { name: 'Make a video' });
    const opened = browser.context.waitForEvent('page', { timeout: 60_000 });
    await button.click();
    await expectAnalysedProduct(await opened);
    await tab.getByRole('status').filter({ hasText: 'Opened in Reelsmith.' }).waitFor();

    await saveOptions((options) => options.getByLabel(/Show a Make a video button/).uncheck());
    await expect.poll(() => button.count()).toBe(0);
    await tab.reload();
    await tab.getByRole('heading', { name: PRODUCT.name }).waitFor();
    expect(await button.count()).toBe(0);
  });
});
