// Real Chromium (Debian's /usr/bin/chromium) driven by playwright-core, one fresh profile per context.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** What the pages said that a failed test's report should show (support/failures.ts): errors, failed calls. */
  journal: string[];
  close: () => Promise<void>;
}

const JOURNAL_LINES = 60;
const open = new Set<Browser>();

/** The browsers still open, for the failure report. */
export const openBrowsers = (): Browser[] => [...open];

/** Keeps the page's console errors and warnings, uncaught errors, and calls that failed or answered 4xx/5xx. */
function watch(page: Page, journal: string[]) {
  const note = (line: string) => {
    journal.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
    if (journal.length > JOURNAL_LINES) journal.shift();
  };
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') note(`console.${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => note(`uncaught: ${error.stack ?? error.message}`));
  page.on('requestfailed', (request) => note(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) note(`${response.status()}: ${response.request().method()} ${response.url()}`);
  });
}

export async function openBrowser(extraArgs: string[] = []): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'reelsmith-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    viewport: { width: 1440, height: 900 },
  });
  const journal: string[] = [];
  context.on('page', (opened) => watch(opened, journal));
  for (const existing of context.pages()) watch(existing, journal);
  const page = context.pages()[0] ?? (await context.newPage());
  const browser: Browser = {
    context,
    page,
    journal,
    close: async () => {
      open.delete(browser);
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
  open.add(browser);
  return browser;
}

export const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Navigate and wait until the app has settled (its guard may redirect once more). */
export async function visit(page: Page, base: string, to: string): Promise<string> {
  await page.goto(base + to);
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.waitForTimeout(200);
  return pathOf(page);
}

/** antd's overlays: drop-down menus, a select's list, pop-overs, pop-confirms, modals and drawers. */
const OVERLAYS = ['.ant-dropdown', '.ant-select-dropdown', '.ant-popover', '.ant-popconfirm', '.ant-modal', '.ant-drawer-content-wrapper'];

/**
 * Opens one of antd's overlays with `trigger` and waits until it stands still. A pop-up is aligned to its trigger
 * after it first shows and then grows into place, and a modal zooms in from the click: a click aimed inside it
 * before that presses on one place and lets go on another (seen under load: the press on "Brand kit", the release
 * on the language button under where the menu had been, so no item was chosen; in CI, a pop-confirm's "Yes, render"
 * and a modal's link that led nowhere). The trigger must open a new antd overlay: a plain dialog has no motion to wait
 * for, and a modal whose content changes in place is not a new one.
 */
export async function openOverlay(page: Page, trigger: Locator): Promise<void> {
  // The overlays open before the click (a modal a pop-confirm opens over) are not the one waited for.
  await page.evaluate((selectors) => {
    const openOverlays = () =>
      selectors
        .flatMap((selector) => Array.from(document.querySelectorAll(selector)))
        .filter((overlay) => !/-hidden(\s|$)/.test(overlay.className) && overlay.getClientRects().length > 0);
    Object.assign(window, { e2eOverlays: { open: openOverlays, before: openOverlays() } });
  }, OVERLAYS);
  await trigger.click();
  await page.waitForFunction(() => {
    const { open, before } = (window as unknown as { e2eOverlays: { open: () => Element[]; before: Element[] } }).e2eOverlays;
    const now = open();
    const moving = /-(appear|enter)(-|\s|$)/;
    return now.some((overlay) => !before.includes(overlay)) && now.every((overlay) => !moving.test(overlay.className));
  });
}

// Playwright's innerText: the text a person sees (Biome's DOM rule is off for e2e/ because it mistakes these for DOM nodes).
export const bodyText = (page: Page) => page.locator('body').innerText();
