// The browser extension as a marketer gets it (decision "Extension download"): from the hint on the link-to-video
// landing, a zip this server made for itself, which Chromium loads unpacked and which then names this server as
// the app it sends pages to, with no address typed and no permission to grant.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openBrowser, visit } from '../support/browser.js';
import { productInBrowser } from '../support/lifecycle.js';

const running = productInBrowser();
const work = realpathSync(mkdtempSync(join(tmpdir(), 'reelsmith-extension-download-')));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Chrome's id for an extension whose manifest carries `key`: the key's SHA-256, first 32 hex digits written a–p. */
const idOfKey = (key: string) =>
  [...createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 32)]
    .map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16)))
    .join('');

describe('the extension download', () => {
  it('downloads from the landing hint as a zip that Chromium loads and that talks to this server', async () => {
    const { page } = running.browser;
    const { base } = running.product;
    await visit(page, base, '/tools/link-to-video');
    await page.getByRole('button', { name: 'Get the browser extension' }).click();
    const dialog = page.getByRole('dialog', { name: 'Install the Reelsmith extension for Chrome' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('link', { name: 'Download the extension (.zip)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^reelsmith-extension-\d+\.\d+\.\d+\.zip$/);
    const zip = join(work, download.suggestedFilename());
    await download.saveAs(zip);

    // Unzipped as the steps say.
    const unzipped = join(work, 'reelsmith-extension');
    execFileSync('unzip', ['-q', zip, '-d', unzipped]);
    const manifest = JSON.parse(readFileSync(join(unzipped, 'manifest.json'), 'utf8')) as { key: string; host_permissions: string[] };
    expect(manifest.host_permissions).toEqual([`${base}/*`]);

    // Loaded unpacked: its options show this server without anyone typing it.
    const chromium = await openBrowser([`--disable-extensions-except=${unzipped}`, `--load-extension=${unzipped}`]);
    try {
      const worker = chromium.context.serviceWorkers()[0] ?? (await chromium.context.waitForEvent('serviceworker'));
      const id = new URL(worker.url()).host;
      expect(id).toBe(idOfKey(manifest.key));
      await chromium.page.goto(`chrome-extension://${id}/options.html`);
      await expect.poll(() => chromium.page.locator('#appOrigin').inputValue()).toBe(base);
      expect(await chromium.page.locator('#apiPrefix').inputValue()).toBe('reelsmith');
    } finally {
      await chromium.close();
    }
  });
});
