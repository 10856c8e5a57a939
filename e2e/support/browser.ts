// Real Chromium (Debian's /usr/bin/chromium) driven by playwright-core, one fresh profile per context.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

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
  close: () => Promise<void>;
}

export async function openBrowser(extraArgs: string[] = []): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'reelsmith-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    viewport: { width: 1440, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Navigate and wait until the app has settled (its guard may redirect once more). */
export async function visit(page: Page, base: string, to: string): Promise<string> {
  await page.goto(base + to);
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.waitForTimeout(200);
  return pathOf(page);
}

// Playwright's innerText: the text a person sees (Biome's DOM rule is off for e2e/ because it mistakes these for DOM nodes).
export const bodyText = (page: Page) => page.locator('body').innerText();
