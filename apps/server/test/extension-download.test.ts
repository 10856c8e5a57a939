// The browser extension's download (decision "Extension download"): a zip of the built extension made for the
// server it comes from, whose pages the extension then talks to without the user configuring anything.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extensionIdOf } from '../src/modules/extension/download.js';
import { appOn } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember } from './support/files.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const work = mkdtempSync(join(tmpdir(), 'reelsmith-extension-zip-'));

beforeAll(() => {
  // The README's build command; `npm run build` at the root runs it too.
  if (!existsSync(join(ROOT, 'apps/extension/dist/manifest.json'))) {
    execFileSync('npm', ['run', 'build', '-w', '@reelsmith/extension'], { cwd: ROOT, stdio: 'ignore' });
  }
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The zip saved and read back with unzip, which tests every entry's CRC. */
function unzipped(zip: Buffer) {
  const file = join(work, `${Math.random().toString(36).slice(2)}.zip`);
  writeFileSync(file, zip);
  execFileSync('unzip', ['-tq', file]);
  const read = (name: string) => execFileSync('unzip', ['-p', file, name], { encoding: 'utf8' });
  return { names: execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n'), read };
}

describe.each(testDatabases())('extension download on $name', (testDb) => {
  describe('on a deployment elsewhere', () => {
    const t = appOn(testDb, () => ({ PUBLIC_URL: 'https://reels.example.com', API_PREFIX: 'studio' }));

    it('serves a zip of the extension, signed out, named after its version, that talks to this deployment', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/studio/api/extension/download', headers: { host: 'reels.example.com' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      const { version } = JSON.parse(readFileSync(join(ROOT, 'apps/extension/package.json'), 'utf8')) as { version: string };
      expect(res.headers['content-disposition']).toBe(`attachment; filename="reelsmith-extension-${version}.zip"`);

      const zip = unzipped(res.rawPayload);
      expect(zip.names).toEqual(expect.arrayContaining(['manifest.json', 'background.js', 'content.js', 'popup.html', 'deployment.json']));
      const manifest = JSON.parse(zip.read('manifest.json')) as Record<string, unknown>;
      expect(manifest).toMatchObject({ manifest_version: 3, version, host_permissions: ['https://reels.example.com/*'] });
      expect(typeof manifest.key).toBe('string');
      expect(JSON.parse(zip.read('deployment.json'))).toEqual({ appOrigin: 'https://reels.example.com', apiPrefix: 'studio' });
    });
  });

  describe('the downloaded extension', () => {
    const t = appOn(testDb);

    it('may send pages to the server it came from, with no EXTENSION_ORIGINS listed', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/reelsmith/api/extension/download' });
      const { key } = JSON.parse(unzipped(res.rawPayload).read('manifest.json')) as { key: string };
      const origin = `chrome-extension://${extensionIdOf(key)}`;
      const { browser } = await activeMember(t, 'downloader');
      const sent = await browser.call('POST', '/link-video/page/upload', { body: { html: '<p>hi</p>' }, headers: { origin } });
      expect(sent.body.code).toBe(0);
      // Its id is the only one accepted so: another extension is still refused.
      const other = await browser.call('POST', '/link-video/page/upload', {
        body: { html: '<p>hi</p>' },
        headers: { origin: `chrome-extension://${'p'.repeat(32)}` },
      });
      expect(other.body.code).toBe(403);
    });
  });
});
