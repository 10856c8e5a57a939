// Every page of the route table on a phone (decision "Phone layout"): at 390×844 no page scrolls sideways, signed out
// or as an active user, and the navigation drawer opens and navigates. Each page is photographed for a person to look
// at: PHONE_SCREENSHOTS names the folder (default /tmp/reelsmith-phone); PHONE_LOCALES (default en) and PHONE_WIDTHS
// (default 390) widen the walk, e.g. PHONE_LOCALES=en,zh,pt PHONE_WIDTHS=390,1440.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { localeKey } from '@reelsmith/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, openBrowser, openOverlay, pathOf, visit } from '../support/browser.js';
import { PREFIX, type Product, startProduct } from '../support/product.js';
import { pagePaths } from '../support/routes.js';
import { activeUser } from '../support/users.js';

const SHOTS = process.env.PHONE_SCREENSHOTS || '/tmp/reelsmith-phone';
const LOCALES = (process.env.PHONE_LOCALES || 'en').split(',');
const WIDTHS = (process.env.PHONE_WIDTHS || '390').split(',').map(Number);
const PHONE = { width: 390, height: 844 };
const PAGES = pagePaths();
const PROJECT_STEP = /^\/tools\/link-to-video\/./;
/** A walk visits every page once per language and width: the default time for each of those walks. */
const WALK_TIMEOUT = 120_000 * LOCALES.length * WIDTHS.length;

let product: Product;
let browser: Browser;
/** A project of the active user, so the link-to-video steps show their editor instead of going home. */
let projectId = '';

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  product = await startProduct();
  browser = await openBrowser();
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const useLocale = (locale: string) => browser.context.addCookies([{ name: localeKey(PREFIX), value: locale, url: product.base }]);

/** How far the page reaches past the window's right edge, in CSS pixels (0 when it fits). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Visits a page, photographs it and answers its overflow. */
async function walk(page: Page, path: string, name: string): Promise<number> {
  const target = PROJECT_STEP.test(path) && projectId ? `${path}?projectId=${projectId}` : path;
  await visit(page, product.base, target);
  await page.screenshot({ path: join(SHOTS, `${name}${path.replaceAll('/', '_')}.png`), fullPage: true });
  return overflow(page);
}

async function walkAll(state: string) {
  const { page } = browser;
  const wide: string[] = [];
  for (const locale of LOCALES) {
    await useLocale(locale);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width === PHONE.width ? PHONE.height : 900 });
      for (const path of PAGES) {
        const by = await walk(page, path, `${state}-${locale}-${width}`);
        if (by > 0) wide.push(`${path} (${locale}, ${width} px, landed on ${pathOf(page)}): ${by} px too wide`);
      }
    }
  }
  await useLocale('en');
  await page.setViewportSize(PHONE);
  expect(wide).toEqual([]);
}

describe('at 390 px', () => {
  it('the route table has pages to walk', () => {
    expect(PAGES).toEqual(expect.arrayContaining(['/tools/link-to-video', '/dashboard/assets', '/tools/image-edit']));
  });

  it(
    'no page scrolls sideways signed out',
    async () => {
      await walkAll('out');
    },
    WALK_TIMEOUT,
  );

  it('the signed-out landing has its navigation in a drawer', async () => {
    const { page } = browser;
    await visit(page, product.base, '/tools/link-to-video');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.count()).resolves.toBe(0);
    await openOverlay(page, page.getByRole('button', { name: 'Open navigation' }));
    await expect.poll(() => nav.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Close navigation' }).click();
    await expect.poll(() => nav.isVisible()).toBe(false);
  });

  describe('as an active user', () => {
    beforeAll(async () => {
      const { page } = browser;
      await activeUser(page, product, 'phone-layout@example.com');
      projectId = await page.evaluate(async (prefix) => {
        const answer = await fetch(`/${prefix}/api/project/createProject`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', client: 'WEB' },
          body: JSON.stringify({ projectName: 'Phone check' }),
        });
        return ((await answer.json()) as { data: { projectId: string } }).data.projectId;
      }, PREFIX);
    });

    it(
      'no page scrolls sideways',
      async () => {
        await walkAll('in');
      },
      WALK_TIMEOUT,
    );

    it('the header keeps credits and the account menu on one line inside the window', async () => {
      const { page } = browser;
      for (const path of ['/tools/link-to-video', '/tools/video/text-to-video']) {
        await visit(page, product.base, path);
        const credits = await page.getByTitle('View credit details').boundingBox();
        const account = await page.getByRole('button', { name: 'Account menu' }).boundingBox();
        expect(credits && account, path).toBeTruthy();
        if (!credits || !account) continue;
        expect(credits.height, `${path}: credits on one line`).toBeLessThan(40);
        expect(account.x + account.width, `${path}: account menu inside the window`).toBeLessThanOrEqual(PHONE.width);
      }
    });

    it('the drawer navigates to another page and closes', async () => {
      const { page } = browser;
      await visit(page, product.base, '/dashboard/assets');
      await openOverlay(page, page.getByRole('button', { name: 'Open navigation' }));
      const drawer = page.getByRole('dialog').getByRole('navigation', { name: 'Main navigation' });
      // Photographed once it has slid in, at the window's left edge.
      await expect.poll(async () => ((await drawer.boundingBox())?.x ?? -1) >= 0).toBe(true);
      await page.screenshot({ path: join(SHOTS, 'in-en-390-drawer-open.png') });
      await drawer.getByRole('link', { name: 'Image', exact: true }).click();
      await page.waitForURL('**/tools/image/text-to-image');
      await expect.poll(() => drawer.isVisible()).toBe(false);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
    });
  });
});
