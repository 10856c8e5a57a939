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

/**
 * Opens one of antd's drop-down menus with `button` and waits until it stands still: it is aligned under its button
 * and then grows into place, and a click aimed at an item before that presses on one place and lets go on another
 * (seen under load: the press on "Brand kit", the release on the language button under where the menu had been,
 * so no item was chosen).
 */
export async function openMenu(page: Page, button: Locator): Promise<void> {
  await button.click();
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden):not([class*="-appear"])').waitFor();
}

// Playwright's innerText: the text a person sees (Biome's DOM rule is off for e2e/ because it mistakes these for DOM nodes).
export const bodyText = (page: Page) => page.locator('body').innerText();
