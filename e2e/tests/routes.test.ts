// Every row of the spec "Screens and routes" route table in real Chromium: redirects, the login requirement, the activation
// requirement, and the layout each page is shown in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, openBrowser, pathOf, visit } from '../support/browser.js';
import { PREFIX, type Product, startProduct } from '../support/product.js';
import { activeUser, devSignIn } from '../support/users.js';

type Layout = 'header+sidebar' | 'header' | 'none' | 'mini-sidebar';

const REDIRECTS: [string, string][] = [
  ['/', '/tools/link-to-video'],
  ['/account', '/account/login'],
  ['/account/privacy-policy', '/public/privacy-policy'],
  ['/tools', '/tools/link-to-video'],
  ['/public', '/public/privacy-policy'],
  ['/no/such/page', '/tools/link-to-video'],
  ['/tools/link-to-video/nowhere', '/tools/link-to-video'],
];

/** Redirects whose target needs a signed-in, active user. */
const MEMBER_REDIRECTS: [string, string][] = [
  ['/tools/video', '/tools/video/text-to-video'],
  ['/tools/image', '/tools/image/text-to-image'],
  ['/dashboard', '/dashboard/assets'],
];

const PUBLIC_PAGES: [string, Layout][] = [
  ['/tools/link-to-video', 'header+sidebar'],
  ['/account/login', 'none'],
  ['/public/terms-of-use', 'none'],
  ['/public/privacy-policy', 'none'],
  ['/public/chrome/privacy-policy', 'none'],
];

/** Login-required pages, their layout, and whether the body gets the wide-screen style. */
/** The link-to-video steps: pages of a project, checked apart below. */
const PROJECT_STEPS = ['/tools/link-to-video/edit-product', '/tools/link-to-video/preview', '/tools/link-to-video/video-export'];
const LOGIN_PAGES: [string, Layout, boolean][] = [
  ...PROJECT_STEPS.map((path): [string, Layout, boolean] => [path, 'header', false]),
  ['/tools/video/text-to-video', 'mini-sidebar', true],
  ['/tools/video/image-to-video', 'mini-sidebar', true],
  ['/tools/image/text-to-image', 'mini-sidebar', true],
  ['/tools/image/ai-model', 'mini-sidebar', true],
  ['/tools/image-edit', 'header', true],
  ['/tools/avatar', 'mini-sidebar', true],
  ['/dashboard/assets', 'header+sidebar', false],
];

let product: Product;
let browser: Browser;

async function layoutOf(browser: Browser): Promise<{ header: boolean; sidebar: boolean; mini: boolean; wide: boolean }> {
  const { page } = browser;
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const navCount = await nav.count();
  const navWidth = navCount ? ((await nav.first().boundingBox())?.width ?? 0) : 0;
  return {
    header: (await page.locator('header').count()) > 0,
    sidebar: navCount > 0,
    mini: navCount > 0 && navWidth < 120,
    wide: await page.evaluate(() => document.body.classList.contains('wide-screen')),
  };
}

function expectLayout(actual: Awaited<ReturnType<typeof layoutOf>>, layout: Layout, where: string) {
  const want = {
    header: layout !== 'none',
    sidebar: layout === 'header+sidebar' || layout === 'mini-sidebar',
    mini: layout === 'mini-sidebar',
  };
  expect({ header: actual.header, sidebar: actual.sidebar, mini: actual.mini }, where).toEqual(want);
}

beforeAll(async () => {
  product = await startProduct();
  browser = await openBrowser();
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('signed out', () => {
  it.each(REDIRECTS)('%s redirects to %s', async (from, to) => {
    expect(await visit(browser.page, product.base, from)).toBe(to);
  });

  it.each(PUBLIC_PAGES)('%s is public, shown with layout %s', async (path, layout) => {
    expect(await visit(browser.page, product.base, path)).toBe(path);
    expectLayout(await layoutOf(browser), layout, path);
  });

  it.each(LOGIN_PAGES)('%s sends a visitor to login and remembers the full path', async (path) => {
    const target = `${path}?from=e2e`;
    expect(await visit(browser.page, product.base, target)).toBe('/account/login');
    const stored = await browser.page.evaluate(() => Object.values(localStorage));
    expect(stored).toContain(target);
  });

  it('signed out is a normal state: no page logs an error or gets a failed answer', async () => {
    const { page } = browser;
    const problems: string[] = [];
    const onConsole = (message: { type(): string; text(): string }) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    };
    const onResponse = (response: { status(): number; url(): string }) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    };
    page.on('console', onConsole);
    page.on('response', onResponse);
    try {
      for (const [path] of [...PUBLIC_PAGES, ...REDIRECTS]) {
        await browser.context.clearCookies();
        await visit(page, product.base, path);
      }
    } finally {
      page.off('console', onConsole);
      page.off('response', onResponse);
    }
    expect(problems).toEqual([]);
  });

  it('/account/activate needs a signed-in user', async () => {
    expect(await visit(browser.page, product.base, '/account/activate')).toBe('/account/login');
  });
});

describe('signed in, not yet activated', () => {
  beforeAll(async () => {
    await browser.context.clearCookies();
    await devSignIn(browser.page, product, 'inactive-routes@example.com');
  });

  it.each(LOGIN_PAGES)('%s sends an inactive user to activation and remembers where', async (path) => {
    expect(await visit(browser.page, product.base, path)).toBe('/account/activate');
    const stored = await browser.page.evaluate(() => Object.values(localStorage));
    expect(stored).toContain(path);
  });

  it('policy pages stay readable before activation', async () => {
    expect(await visit(browser.page, product.base, '/public/terms-of-use')).toBe('/public/terms-of-use');
  });
});

describe('signed in and active', () => {
  beforeAll(async () => {
    await browser.context.clearCookies();
    await browser.page.evaluate(() => localStorage.clear());
    await activeUser(browser.page, product, 'active-routes@example.com');
  });

  it.each(MEMBER_REDIRECTS)('%s redirects to %s', async (from, to) => {
    expect(await visit(browser.page, product.base, from)).toBe(to);
  });

  it.each(LOGIN_PAGES.filter(([path]) => !PROJECT_STEPS.includes(path)))(
    '%s opens with layout %s (wide screen: %s)',
    async (path, layout, wide) => {
      expect(await visit(browser.page, product.base, path)).toBe(path);
      const actual = await layoutOf(browser);
      expectLayout(actual, layout, path);
      expect(actual.wide, `${path} wide-screen`).toBe(wide);
    },
  );

  it.each(PROJECT_STEPS)('%s without a project goes back to the landing page', async (path) => {
    expect(await visit(browser.page, product.base, path)).toBe('/tools/link-to-video');
  });

  // A new project has no preview and no export yet: by the stage redirects of spec "States and transitions" every step of it opens
  // on edit-product, where it is edited.
  it.each(PROJECT_STEPS)('%s of a new project opens on edit-product with the header and no sidebar', async (path) => {
    const { page } = browser;
    const projectId = await page.evaluate(async (prefix) => {
      const answer = await fetch(`/${prefix}/api/project/createProject`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', client: 'WEB' },
        body: JSON.stringify({ projectName: 'Layout check' }),
      });
      return ((await answer.json()) as { data: { projectId: string } }).data.projectId;
    }, PREFIX);
    await visit(page, product.base, `${path}?projectId=${projectId}`);
    await page.waitForURL('**/tools/link-to-video/edit-product?projectId=*');
    const actual = await layoutOf(browser);
    expectLayout(actual, 'header', path);
    expect(actual.wide, `${path} wide-screen`).toBe(false);
  });

  it('leaving a larger-screen page removes the wide-screen style; back on image edit goes back in history', async () => {
    const { page } = browser;
    await visit(page, product.base, '/dashboard/assets');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Image edit' }).click();
    await page.waitForURL('**/tools/image-edit');
    await expect.poll(() => page.evaluate(() => document.body.classList.contains('wide-screen'))).toBe(true);
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.waitForURL('**/dashboard/assets');
    await expect.poll(() => page.evaluate(() => document.body.classList.contains('wide-screen'))).toBe(false);
  });

  it('back on a tool page opened directly goes home', async () => {
    const { page } = browser;
    await visit(page, product.base, '/tools/video/text-to-video');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.waitForURL('**/tools/link-to-video');
  });

  it('an active user visiting activation goes home', async () => {
    await visit(browser.page, product.base, '/account/activate');
    expect(pathOf(browser.page)).toBe('/tools/link-to-video');
  });
});
