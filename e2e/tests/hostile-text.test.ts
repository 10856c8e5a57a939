// HTML and script in every user-controlled text the web app shows are inert in real Chromium against `npm start`:
// project names (projects tab, header, rename field, delete confirmation), the product's name and description read
// from a shop page on loopback (JSON-LD and OpenGraph), asset names (cards, viewer, rename and delete dialogs, the
// upload toast, the library picker), friends' user names on the invite page, and the script on the preview page.
// Each shows literally; no element of a payload exists, no handler ran (window.__xss stays unset, no dialog), and
// the browser asked for none of the payloads' URLs.
//
// The page's CSP (script-src 'self') would stop an injected handler from running, so a clean window.__xss alone
// proves little: the DOM scan, the requests (the payloads' pictures are on our own origin, which the CSP allows)
// and the CSP's own reports are what would catch an injection the CSP then blocked.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api.js';
import { bodyText, openOverlay, visit } from '../support/browser.js';
import { uploadPicture } from '../support/library.js';
import { productInBrowser } from '../support/lifecycle.js';
import { solidPng } from '../support/png.js';
import { openShop, type Shop } from '../support/shop.js';
import { activeUser } from '../support/users.js';

const EMAIL = 'hostile-text@example.com';
/** Where the payloads' pictures point: a path of the product's own origin, so an injected one would be fetched. */
const PROBE = 'xss-probe';

/** The shapes of attack, each tagged with the field it went into so a hit names it; short enough for a user name. */
const attacks = (tag: string) => [
  `<img src="/${PROBE}/${tag}.png" onerror="window.__xss='${tag}';alert(1)">`,
  `<script>window.__xss='${tag}'</script>`,
  `"><svg onload="window.__xss='${tag}'">`,
  `javascript:window.__xss='${tag}'`,
];
/** All four in one text, for fields long enough. */
const allAttacks = (tag: string) => attacks(tag).join(' ');

const PRODUCT_NAME = `Aurora bottle ${allAttacks('pn')}`;
const PRODUCT_DESCRIPTION = `Keeps drinks cold. ${allAttacks('pd')}`;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A shop page written as a careful shop writes one (text escaped, `<` escaped in its JSON-LD) whose data carry the
 * payloads: the name in JSON-LD, the description only in OpenGraph (so it is the one read), and a `javascript:`
 * picture in both.
 */
function hostilePage(imageUrls: string[]): string {
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: PRODUCT_NAME,
    image: [`javascript:window.__xss='ld'`, ...imageUrls],
  };
  return `<!doctype html><html lang="en"><head><title>${escapeHtml(PRODUCT_NAME)}</title>
<meta property="og:title" content="${escapeHtml(allAttacks('og'))}">
<meta property="og:description" content="${escapeHtml(PRODUCT_DESCRIPTION)}">
<meta property="og:image" content="javascript:window.__xss='og'">
<script type="application/ld+json">${JSON.stringify(jsonLd).replace(/</g, '\\u003c')}</script></head>
<body><h1>${escapeHtml(PRODUCT_NAME)}</h1><p>${escapeHtml(PRODUCT_DESCRIPTION)}</p></body></html>`;
}

let shop: Shop;
beforeAll(async () => {
  shop = await openShop({
    name: PRODUCT_NAME,
    description: PRODUCT_DESCRIPTION,
    colours: [
      [230, 90, 60],
      [60, 140, 220],
    ],
    page: hostilePage,
  });
});
afterAll(() => shop?.close());
const running = productInBrowser(() => ({ OUTBOUND_ALLOW_HOSTS: shop.host }));

/** What the browser did that only a payload could make it do, gathered over the whole file. */
const seen = { dialogs: [] as string[], requests: [] as string[], csp: [] as string[] };

/** The page's text as a person reads it, with what its fields hold. */
const shownText = async (page: Page) =>
  [
    await bodyText(page),
    ...(await page.locator('input, textarea').evaluateAll((fields) => fields.map((f) => (f as HTMLInputElement).value))),
  ].join('\n');

/** Elements a payload would have made: an `on…` attribute anywhere, a link or source to a payload, a payload's script. */
const injected = (page: Page) =>
  page.evaluate((probe) => {
    const found: string[] = [];
    const URL_ATTRIBUTES = ['src', 'href', 'xlink:href', 'srcset', 'action', 'formaction', 'poster', 'data'];
    for (const element of Array.from(document.querySelectorAll('*'))) {
      for (const attribute of Array.from(element.attributes)) {
        const name = attribute.name.toLowerCase();
        if (name.startsWith('on')) found.push(`<${element.localName} ${name}="${attribute.value}">`);
        // The path, not the query: a download link carries the file's name, encoded, as a parameter.
        const target = URL.parse(attribute.value.trim(), location.href);
        if (URL_ATTRIBUTES.includes(name) && (target?.protocol === 'javascript:' || target?.pathname.includes(probe))) {
          found.push(`<${element.localName} ${name}="${attribute.value}">`);
        }
      }
      if (element.localName === 'script' && element.textContent?.includes('__xss')) found.push(`<script>${element.textContent}`);
    }
    return found;
  }, PROBE);

/** Every text shows literally, and nothing of any payload is alive on the page or was ever asked for. */
async function expectInert(page: Page, texts: string[]) {
  for (const text of texts) await expect.poll(() => shownText(page), { timeout: 15_000 }).toContain(text);
  expect(await injected(page)).toEqual([]);
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(seen).toEqual({ dialogs: [], requests: [], csp: [] });
}

/** The names on the cards of a list, in order. */
const cardNames = (page: Page, list: string) =>
  page
    .getByRole('list', { name: list })
    .getByRole('article')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('aria-label')));

describe('hostile text in the web app', () => {
  let owner: ApiClient;

  beforeAll(async () => {
    const { page, context } = running.browser;
    page.on('dialog', (dialog) => {
      seen.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    context.on('request', (request) => {
      // An injected picture is fetched at the probe's path; the product's own text may travel in a query, encoded
      // (the template thumbnails draw the product's name).
      const url = request.url();
      if (url.startsWith('javascript:') || new URL(url).pathname.includes(PROBE)) seen.requests.push(url);
    });
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) seen.csp.push(message.text());
    });
    await activeUser(page, running.product, EMAIL);
    owner = new ApiClient(running.product.base);
    await owner.ok('POST', '/auth/dev-login', { body: { email: EMAIL } });
  }, 120_000);

  it('project names show literally on the projects tab, in the header, the rename field and the delete confirmation', async () => {
    const { page } = running.browser;
    const names = attacks('p');
    const ids: string[] = [];
    for (const projectName of names)
      ids.push((await owner.ok<{ projectId: string }>('POST', '/project/createProject', { body: { projectName } })).projectId);

    await visit(page, running.product.base, '/dashboard/assets');
    await page.getByRole('tab', { name: 'Projects' }).click();
    await expect.poll(() => cardNames(page, 'Projects')).toEqual([...names].reverse());
    await expectInert(page, names);

    const [first] = names as [string];
    await openOverlay(page, page.getByRole('article', { name: first, exact: true }).getByRole('button', { name: 'Delete' }));
    const confirm = page.getByRole('dialog', { name: `Delete "${first}"?`, exact: true });
    await confirm.waitFor();
    await expectInert(page, [`Delete "${first}"?`]);
    await confirm.getByRole('button', { name: 'Cancel' }).click();

    for (const [i, name] of names.entries()) {
      await visit(page, running.product.base, `/tools/link-to-video/edit-product?projectId=${ids[i]}`);
      const header = page.getByRole('button', { name, exact: true });
      await header.waitFor();
      await expectInert(page, [name]);
      await header.click();
      await expect.poll(() => page.getByRole('textbox', { name: 'Project name' }).inputValue()).toBe(name);
      await expectInert(page, [name]);
      await page.keyboard.press('Escape');
    }
  });

  it("a shop page's product name (JSON-LD) and description (OpenGraph) show literally in the product editor", async () => {
    const { page } = running.browser;
    await visit(page, running.product.base, '/tools/link-to-video');
    await page.getByRole('textbox', { name: 'Product link' }).fill(shop.productUrl);
    await page.getByRole('button', { name: 'Generate video' }).click();
    await page.waitForURL('**/tools/link-to-video/edit-product?projectId=*');
    await expect.poll(() => page.locator('#product-name').inputValue(), { timeout: 60_000 }).toBe(PRODUCT_NAME);
    await expect.poll(() => page.locator('#product-description').inputValue()).toBe(PRODUCT_DESCRIPTION);
    // The two real pictures; the javascript: ones are no pictures at all.
    await expect.poll(() => page.getByRole('list', { name: 'Assets' }).locator('img').count(), { timeout: 30_000 }).toBe(2);
    await expectInert(page, [PRODUCT_NAME, PRODUCT_DESCRIPTION]);
  });

  it('asset names show literally on the cards, in the viewer, the rename and delete dialogs, the upload toast and the picker', async () => {
    const { page } = running.browser;
    const names = attacks('a');
    for (const [i, name] of names.entries()) await uploadPicture(owner, name, solidPng(320, 240, [50 * i, 160, 90]));

    // Newest first: ahead of the product's pictures that link analysis stored.
    await visit(page, running.product.base, '/dashboard/assets');
    await expect.poll(async () => (await cardNames(page, 'Assets')).slice(0, names.length)).toEqual([...names].reverse());
    await expectInert(page, names);

    const [first] = names as [string];
    const card = page.getByRole('article', { name: first, exact: true });
    await openOverlay(page, card.getByRole('button', { name: 'Enlarge' }));
    await page.getByRole('dialog', { name: first, exact: true }).waitFor();
    await expectInert(page, [first]);
    await page.keyboard.press('Escape');

    await openOverlay(page, card.getByRole('button', { name: 'Rename' }));
    const rename = page.getByRole('dialog', { name: 'Rename' });
    await expect.poll(() => rename.getByRole('textbox', { name: 'Name' }).inputValue()).toBe(first);
    await expectInert(page, [first]);
    await rename.getByRole('button', { name: 'Cancel' }).click();

    await openOverlay(page, card.getByRole('button', { name: 'Delete' }));
    const confirm = page.getByRole('dialog', { name: `Delete "${first}"?`, exact: true });
    await confirm.waitFor();
    await expectInert(page, [`Delete "${first}"?`]);
    await confirm.getByRole('button', { name: 'Cancel' }).click();

    // A file name from the computer (no slash: a file name cannot hold one).
    const uploaded = `<img src=${PROBE}.png onerror=alert(1)>"><svg onload=window.__xss=1>.png`;
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: uploaded, mimeType: 'image/png', buffer: solidPng(640, 480, [26, 219, 116]) });
    await expect.poll(() => page.getByText(`${uploaded} uploaded`, { exact: true }).count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => cardNames(page, 'Assets')).toContain(uploaded);
    await expectInert(page, [`${uploaded} uploaded`, uploaded]);

    // The library picker of the image tools shows names only as the pictures' titles and labels.
    await visit(page, running.product.base, '/tools/image-edit');
    await openOverlay(page, page.getByRole('button', { name: 'Choose from my assets' }));
    const picker = page.getByRole('dialog', { name: 'Choose from my assets' });
    const tiles = picker.locator('li');
    const newest = [uploaded, ...[...names].reverse()];
    await expect
      .poll(async () => (await tiles.evaluateAll((items) => items.map((item) => item.getAttribute('title')))).slice(0, newest.length))
      .toEqual(newest);
    const alts = await picker.locator('img').evaluateAll((images) => images.map((image) => image.getAttribute('alt')));
    expect(alts.slice(0, newest.length)).toEqual(newest);
    await expectInert(page, []);
    await picker.getByRole('checkbox', { name: first, exact: true }).check();
    await picker.getByRole('button', { name: 'Use' }).click();
    await page.getByRole('button', { name: `Remove ${first}`, exact: true }).waitFor();
    await expectInert(page, []);
  });

  it("friends' user names show literally on the invite page", async () => {
    const { page } = running.browser;
    const { inviteCode } = await owner.ok<{ inviteCode: string }>('GET', '/referral/info');
    const names = attacks('u');
    for (const [i, username] of names.entries()) {
      const friend = new ApiClient(running.product.base);
      await friend.ok('POST', '/auth/dev-login', { body: { email: `hostile-friend-${i}@example.com`, username } });
      await friend.ok('POST', '/users/activate', { query: { inviteCode } });
    }
    await visit(page, running.product.base, '/account/invite');
    const rows = page.getByRole('region', { name: 'Friends who joined' }).getByRole('row');
    await expect.poll(() => rows.count()).toBe(names.length + 1);
    await expectInert(page, names);
  });

  it('script lines show literally in the preview page’s script editor', async () => {
    const { page } = running.browser;
    const lines = attacks('s');
    const projectName = allAttacks('h').slice(0, 100).trim();
    const { projectId } = await owner.ok<{ projectId: string }>('POST', '/project/createProject', { body: { projectName } });
    const { resKey } = await uploadPicture(owner, 'poster.png', solidPng(360, 640, [90, 90, 200]));
    // Previews take minutes to render here, so the draft is put where the page restores it from, as the
    // link-video task leaves it: one preview whose script holds the lines.
    const taskId = randomUUID();
    const draft = {
      projectId,
      projectName,
      draftUrl: null,
      productLink: shop.productUrl,
      editorConfig: {},
      taskId,
      taskPath: 'link-video',
      taskStatus: 'SUCCESS',
      exportTaskIds: [],
      product: {
        productName: 'Desk lamp',
        productDescription: 'A lamp.',
        productImages: [],
        productVideos: [],
        scriptSource: 'own',
        diyScriptContent: lines.join('\n'),
      },
      preview: {
        previewVideos: [{ resKey, scriptId: 'script-1', videoUrl: '', taskId }],
        scriptContentList: [{ scriptId: 'script-1', segments: lines.map((segText, segId) => ({ segId, segText })) }],
      },
      exports: null,
      assetUrlTasks: [],
      editedScriptId: 'script-1',
    };
    await owner.ok('POST', '/project/saveDraftFile', { body: { projectId, draftContent: JSON.stringify(draft) } });

    await visit(page, running.product.base, `/tools/link-to-video/preview?projectId=${projectId}`);
    const script = page.getByRole('textbox', { name: 'Script' });
    await expect.poll(() => script.inputValue(), { timeout: 30_000 }).toBe(lines.join('\n'));
    await expectInert(page, [...lines, projectName]);
  });
});
