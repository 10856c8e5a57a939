import { readdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, projects } from '../../src/db/schema.js';
import { cacheDirOf } from '../../src/modules/files/workDir.js';
import { linkAnalysisTask } from '../../src/modules/link-video/analysis/task.js';
import { learnAhead } from '../../src/modules/link-video/video/learnAhead.js';
import { startWorker, type Worker } from '../../src/modules/tasks/worker.js';
import { appOn, type Browser } from '../support/app.js';
import { testDatabases } from '../support/databases.js';
import { activeMember, fixtureServer } from '../support/files.js';

const silent = { info() {}, warn() {}, error() {} };
const NAME = 'Aurora Insulated Water Bottle 750 ml';
const COLOURS: [number, number, number][] = [
  [230, 90, 60],
  [60, 140, 220],
  [80, 190, 120],
  [240, 200, 70],
];

const png = (width: number, height: number, [r, g, b]: [number, number, number]) =>
  sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

/** A product page as a shop serves it: JSON-LD naming four real pictures and one broken link, a logo in the header. */
const productPage = (base: string) => `<!doctype html><html lang="en"><head>
<title>${NAME} | Northwind Outfitters</title>
<meta property="og:title" content="${NAME}">
<meta property="og:image" content="${base}/img/1.png">
<script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org',
  '@type': 'Product',
  name: NAME,
  description: 'Double-wall vacuum insulation keeps drinks cold for 24 hours and hot for 12.',
  image: [...[1, 2, 3, 4].map((i) => `${base}/img/${i}.png`), `${base}/img/missing.png`],
  brand: { '@type': 'Brand', name: 'Northwind &amp; Co' },
  offers: {
    '@type': 'Offer',
    price: '34.95',
    priceCurrency: 'USD',
    priceSpecification: { '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/StrikethroughPrice', price: '44.95' },
  },
})}</script></head>
<body><header><img src="/img/logo.png" alt="Northwind"></header><h1>${NAME}</h1></body></html>`;

/** A product with 33 pictures, the second of them a broken link. */
const manyPage = (base: string) =>
  `<script type="application/ld+json">${JSON.stringify({
    '@type': 'Product',
    name: 'Sticker pack',
    image: [1, 'broken', ...Array.from({ length: 31 }, (_, i) => i + 2)].map((i) => `${base}/many/${i}.png`),
  })}</script>`;

/** An Amazon page as the extension captures it: "$" is the marketplace's dollar, known only from the product link. */
const amazonPage = (base: string) => `<!doctype html><html lang="en"><head><title>Amazon.com: Brightway Earbuds</title></head><body>
<div id="imgTagWrapperId"><img id="landingImage" src="${base}/img/1.png" data-old-hires="${base}/img/2.png"></div>
<h1 id="title"><span id="productTitle">Brightway Wireless Earbuds</span></h1><a id="bylineInfo" href="/stores/Brightway">Visit the Brightway Store</a>
<div id="corePriceDisplay_desktop_feature_div"><span class="a-price priceToPay"><span class="a-offscreen">$29.99</span></span>
<span class="basisPrice">List Price: <span class="a-price a-text-price" data-a-strike="true"><span class="a-offscreen">$39.99</span></span></span></div>
</body></html>`;

/** A product whose shop refuses every download of its pictures (a CDN that turns servers away). */
const refusedPage = (base: string) =>
  `<script type="application/ld+json">${JSON.stringify({
    '@type': 'Product',
    name: 'Harbor Linen Shirt',
    image: [1, 2, 3].map((i) => `${base}/locked/${i}.png`),
  })}</script>`;

/** A product page that shows no picture at all. */
const barePage = `<script type="application/ld+json">${JSON.stringify({ '@type': 'Product', name: 'Gift card', description: 'Any amount.' })}</script>`;

/**
 * A shop page whose pictures declare no sizes at all: a tracking pixel, a promotion banner and a 360° badge icon come
 * before the product's two photos, as the page's markup has them, under names that say nothing. Only measuring the
 * files tells them apart.
 */
const undeclaredPage = (base: string) => `<!doctype html><html lang="en"><head><title>Juniper Wool Throw | Fieldhouse</title></head><body>
<img src="${base}/plain/p1.png" alt=""><div class="promo"><img src="${base}/plain/p3.png" alt="Free shipping over $50"></div>
<main><h1>Juniper Wool Throw</h1><div class="gallery"><img src="${base}/plain/p2.png" alt="360° view">
<img src="${base}/plain/p4.png" alt="Juniper Wool Throw">
<img src="${base}/plain/p5.png" alt="Juniper Wool Throw, folded"></div><p>A heavy throw woven from undyed wool.</p></main>
</body></html>`;

const aboutPage =
  '<!doctype html><html lang="en"><head><title>About us</title></head><body><h1>About us</h1><p>Makers since 2016.</p></body></html>';

interface Analysis {
  taskId: string;
  status: string;
  error?: string;
  productName?: string;
  productDescription?: string;
  productImages?: { fileId?: string; fileUrl?: string }[];
  productVideos?: { fileId?: string; fileUrl?: string }[];
  productOffer?: { price: string; currency: string; listPrice?: string };
  productBrand?: string;
  mediaImport?: unknown;
}

describe.each(testDatabases())('link analysis on $name', (testDb) => {
  const fixture = fixtureServer();
  const t = appOn(testDb, () => ({ OUTBOUND_ALLOW_HOSTS: fixture.host }), [linkAnalysisTask]);
  let worker: Worker;
  beforeAll(async () => {
    fixture.routes.set('/product.html', { type: 'text/html; charset=utf-8', body: Buffer.from(productPage(fixture.base)) });
    fixture.routes.set('/about.html', { type: 'text/html', body: Buffer.from(aboutPage) });
    for (const [i, colour] of COLOURS.entries())
      fixture.routes.set(`/img/${i + 1}.png`, { type: 'image/png', body: await png(900, 1200, colour) });
    fixture.routes.set('/img/logo.png', { type: 'image/png', body: await png(300, 100, [0, 0, 0]) });
    const small = await png(64, 64, [20, 20, 20]);
    for (let i = 1; i <= 32; i++) fixture.routes.set(`/many/${i}.png`, { type: 'image/png', body: small });
    fixture.routes.set('/many.html', { type: 'text/html', body: Buffer.from(manyPage(fixture.base)) });
    fixture.routes.set('/refused.html', { type: 'text/html', body: Buffer.from(refusedPage(fixture.base)) });
    for (const i of [1, 2, 3])
      fixture.routes.set(`/locked/${i}.png`, { type: 'text/plain', body: Buffer.from('Access denied'), status: 403 });
    const plain: [string, number, number][] = [
      ['p1', 1, 1],
      ['p2', 40, 40],
      ['p3', 1200, 200],
      ['p4', 1000, 1250],
      ['p5', 1200, 900],
    ];
    for (const [name, width, height] of plain)
      fixture.routes.set(`/plain/${name}.png`, { type: 'image/png', body: await png(width, height, [120, 100, 80]) });
    fixture.routes.set('/undeclared.html', { type: 'text/html', body: Buffer.from(undeclaredPage(fixture.base)) });
    fixture.routes.set('/bare.html', { type: 'text/html', body: Buffer.from(barePage) });
    worker = startWorker(t.ctx, [linkAnalysisTask], { concurrency: 2, pollMs: 25, log: silent });
  });
  afterAll(() => worker.stop());

  const projectOf = async (browser: Browser) =>
    ((await browser.ok('POST', '/project/createProject', { body: { projectName: 'Bottle ad' } })) as { projectId: string }).projectId;

  const analyse = async (browser: Browser, body: Record<string, string>): Promise<Analysis> => {
    const { taskId } = (await browser.ok('POST', '/task/v1/link-analysis/submit', { body })) as { taskId: string };
    for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) {
      const state = (await browser.ok('GET', '/task/v1/link-analysis/query', { query: { taskId } })) as Analysis;
      if (state.status === 'SUCCESS' || state.status === 'FAILURE') return state;
    }
    throw new Error(`task ${taskId} did not finish`);
  };
  const messageOf = (state: Analysis) => (JSON.parse(state.error ?? '{}') as { message?: string }).message;

  it('reads the product and imports its pictures as files of the project, skipping the broken one', async () => {
    const { browser, userId } = await activeMember(t, 'seller');
    const projectId = await projectOf(browser);
    const productLink = `${fixture.base}/product.html`;
    const state = await analyse(browser, { projectId, productLink });
    expect(state).toMatchObject({ status: 'SUCCESS', productName: NAME, productVideos: [] });
    // The offer card's price and struck price, the end card's brand.
    expect(state.productOffer).toEqual({ price: '34.95', currency: 'USD', listPrice: '44.95' });
    expect(state.productBrand).toBe('Northwind & Co');
    expect(state.productDescription).toMatch(/cold for 24 hours/);
    expect(state.productImages).toHaveLength(4);

    const rows = await t.ctx.db.select().from(files).where(eq(files.projectId, projectId));
    expect(rows).toHaveLength(4);
    for (const image of state.productImages ?? []) {
      const row = rows.find((r) => r.id === image.fileId);
      expect(row).toMatchObject({ userId, status: 'completed', type: 'image', source: 'url', width: 900, height: 1200 });
      expect(image.fileUrl).toEqual(expect.any(String));
      expect(await t.ctx.storage.stat(row?.resKey as string)).not.toBeNull();
    }
    // In the order the page lists them.
    const sourceOf = new Map(rows.map((row) => [row.id, row.sourceUrl]));
    expect(state.productImages?.map((image) => sourceOf.get(image.fileId as string))).toEqual(
      [1, 2, 3, 4].map((i) => `${fixture.base}/img/${i}.png`),
    );
    // The broken link is counted and said; the project keeps the name it was given.
    expect(state.mediaImport).toEqual({ imagesFound: 5, imagesFailed: 1, videosFound: 0, videosFailed: 0, failure: 'notFound' });
    const [project] = await t.ctx.db.select().from(projects).where(eq(projects.id, projectId));
    expect(project?.productLink).toBe(productLink);
    expect(project?.name).toBe('Bottle ad');
    // While the user reads the page, each picture's subject is found into the render cache for the first preview.
    await learnAhead(t.ctx, silent, []);
    const stills = cacheDirOf(t.ctx.settings.dataDir, 'stills');
    expect(readdirSync(stills).filter((name) => name.endsWith('.subject.json'))).toHaveLength(4);
  });

  it('a product none of whose pictures could be imported succeeds without them, saying how many and why', async () => {
    const { browser } = await activeMember(t, 'refused');
    const untitled = async () => ((await browser.ok('POST', '/project/createProject', { body: {} })) as { projectId: string }).projectId;
    const projectId = await untitled();
    const state = await analyse(browser, { projectId, productLink: `${fixture.base}/refused.html` });
    expect(state).toMatchObject({ status: 'SUCCESS', productName: 'Harbor Linen Shirt', productImages: [], productVideos: [] });
    expect(state.mediaImport).toEqual({ imagesFound: 3, imagesFailed: 3, videosFound: 0, videosFailed: 0, failure: 'refused' });
    // An untitled project takes the product's name.
    expect(await browser.ok('GET', '/project/getProjectById', { query: { projectId } })).toMatchObject({
      projectName: 'Harbor Linen Shirt',
    });

    const bare = await analyse(browser, { projectId: await untitled(), productLink: `${fixture.base}/bare.html` });
    expect(bare).toMatchObject({ status: 'SUCCESS', productName: 'Gift card', productImages: [] });
    expect(bare.mediaImport).toEqual({ imagesFound: 0, imagesFailed: 0, videosFound: 0, videosFailed: 0 });
  });

  it('measures the pictures of a page that declares no sizes: icons, pixels and banners are dropped, the photos kept in order', async () => {
    const { browser, userId } = await activeMember(t, 'measured');
    const projectId = await projectOf(browser);
    const state = await analyse(browser, { projectId, productLink: `${fixture.base}/undeclared.html` });
    expect(state).toMatchObject({ status: 'SUCCESS', productName: 'Juniper Wool Throw' });
    const rows = await t.ctx.db.select().from(files).where(eq(files.userId, userId));
    const sourceOf = new Map(rows.map((row) => [row.id, row.sourceUrl]));
    // The product's photos, first of all, and nothing else in the project or the user's library.
    expect(state.productImages?.map((image) => sourceOf.get(image.fileId as string))).toEqual([
      `${fixture.base}/plain/p4.png`,
      `${fixture.base}/plain/p5.png`,
    ]);
    expect(rows.map((row) => [row.width, row.height])).toEqual(
      expect.arrayContaining([
        [1000, 1250],
        [1200, 900],
      ]),
    );
    expect(rows).toHaveLength(2);
    // What was dropped is said: the pixel could not be stored at all (under 32 px), the icon and the banner are no photos.
    expect(state.mediaImport).toEqual({ imagesFound: 5, imagesFailed: 3, videosFound: 0, videosFailed: 0, failure: 'notPhoto' });
  });

  it('imports at most 30 assets, a broken picture giving its place to the next one', async () => {
    const { browser } = await activeMember(t, 'collector');
    const projectId = await projectOf(browser);
    const state = await analyse(browser, { projectId, productLink: `${fixture.base}/many.html` });
    expect(state.status).toBe('SUCCESS');
    expect(state).not.toHaveProperty('productOffer');
    expect(state).not.toHaveProperty('productBrand');
    const rows = await t.ctx.db.select().from(files).where(eq(files.projectId, projectId));
    const sourceOf = new Map(rows.map((row) => [row.id, row.sourceUrl]));
    expect(state.productImages?.map((image) => sourceOf.get(image.fileId as string))).toEqual(
      Array.from({ length: 30 }, (_, i) => `${fixture.base}/many/${i + 1}.png`),
    );
    // The two past the cap were never tried.
    expect(state.mediaImport).toMatchObject({ imagesFound: 33, imagesFailed: 1, failure: 'notFound' });
  });

  it('reads the page the browser extension captured when given its key', async () => {
    const { browser, userId } = await activeMember(t, 'extension');
    const projectId = await projectOf(browser);
    const resKey = `u/${userId}/capture/product.html`;
    await t.ctx.storage.put(resKey, Buffer.from(productPage(fixture.base)), { contentType: 'text/html' });
    const state = await analyse(browser, { projectId, productLink: 'https://shop.invalid/p/bottle', resKey });
    expect(state).toMatchObject({ status: 'SUCCESS', productName: NAME });
    expect(state.productImages).toHaveLength(4);

    const stranger = await activeMember(t, 'stranger');
    const refused = await stranger.browser.call('POST', '/task/v1/link-analysis/submit', {
      body: { projectId: await projectOf(stranger.browser), productLink: 'https://shop.invalid/p', resKey },
    });
    expect(refused.body).toMatchObject({ code: 40035 });
  });

  it("reads a captured Amazon page's price in the currency of the marketplace the product link names", async () => {
    const { browser, userId } = await activeMember(t, 'amazon-shopper');
    const resKey = `u/${userId}/capture/amazon.html`;
    await t.ctx.storage.put(resKey, Buffer.from(amazonPage(fixture.base)), { contentType: 'text/html' });
    const analyseLink = async (productLink: string) => analyse(browser, { projectId: await projectOf(browser), productLink, resKey });
    const state = await analyseLink('https://www.amazon.com/dp/B0TEST1234');
    expect(state).toMatchObject({
      status: 'SUCCESS',
      productName: 'Brightway Wireless Earbuds',
      productOffer: { price: '29.99', currency: 'USD', listPrice: '39.99' },
      productBrand: 'Brightway',
    });
    // The same "$" under a link that names no marketplace could be any dollar: no offer card rather than a wrong one.
    const elsewhere = await analyseLink('https://shop.invalid/dp/B0TEST1234');
    expect(elsewhere).toMatchObject({ status: 'SUCCESS', productBrand: 'Brightway' });
    expect(elsewhere).not.toHaveProperty('productOffer');
  });

  it('fails with the blocked message for a loopback address that is not allowed', async () => {
    const { browser } = await activeMember(t, 'prober');
    const state = await analyse(browser, { projectId: await projectOf(browser), productLink: 'http://127.0.0.1:9/admin' });
    expect(state.status).toBe('FAILURE');
    expect(messageOf(state)).toBe('Analysis failed: only public http or https pages can be analysed.');
  });

  it('fails with a clear message on a page with no product', async () => {
    const { browser } = await activeMember(t, 'reader');
    const { projectId } = (await browser.ok('POST', '/project/createProject', { body: {} })) as { projectId: string };
    const state = await analyse(browser, { projectId, productLink: `${fixture.base}/about.html` });
    expect(state.status).toBe('FAILURE');
    expect(messageOf(state)).toBe('No product found on this page. Please provide a valid product url');
    // Still untitled: named neither after the page's host nor its title.
    expect(await browser.ok('GET', '/project/getProjectById', { query: { projectId } })).toMatchObject({ projectName: 'Untitled project' });
  });

  it("refuses another user's project", async () => {
    const owner = await activeMember(t, 'owner');
    const projectId = await projectOf(owner.browser);
    const other = await activeMember(t, 'other');
    const answer = await other.browser.call('POST', '/task/v1/link-analysis/submit', {
      body: { projectId, productLink: `${fixture.base}/product.html` },
    });
    expect(answer.body).toMatchObject({ code: 404 });
  });
});
