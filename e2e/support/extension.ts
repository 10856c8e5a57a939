// The built browser extension (apps/extension/dist, made by `npm run build -w @reelsmith/extension`) as Chromium
// loads it unpacked, in a copy of its own so a test can adjust what the browser grants.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './product.js';

export interface UnpackedExtension {
  dir: string;
  /** The id Chromium gives an unpacked extension: derived from its folder's path. */
  id: string;
  origin: string;
  /** The flags that load it (and only it). */
  args: string[];
  /**
   * Adds host permissions to its manifest before the browser starts. A toolbar click grants activeTab on the tab
   * it was made on; a headless browser has no toolbar, so a test grants the shop's origin this way instead.
   */
  grantHosts: (origins: string[]) => void;
  remove: () => void;
}

/** Chromium's id for an unpacked extension: the SHA-256 of its absolute path, first 32 hex digits written a–p. */
export function unpackedExtensionId(dir: string): string {
  const hex = createHash('sha256').update(dir).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join('');
}

export function unpackedExtension(): UnpackedExtension {
  const built = join(ROOT, 'apps/extension/dist');
  if (!existsSync(join(built, 'manifest.json'))) throw new Error('Build the extension first: npm run build -w @reelsmith/extension');
  const dir = join(realpathSync(mkdtempSync(join(tmpdir(), 'reelsmith-extension-'))), 'unpacked');
  cpSync(built, dir, { recursive: true });
  const id = unpackedExtensionId(dir);
  const manifestPath = join(dir, 'manifest.json');
  return {
    dir,
    id,
    origin: `chrome-extension://${id}`,
    args: [`--disable-extensions-except=${dir}`, `--load-extension=${dir}`],
    grantHosts: (origins) => {
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { host_permissions: string[] };
      manifest.host_permissions.push(...origins.map((origin) => `${origin}/*`));
      writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
    },
    remove: () => rmSync(join(dir, '..'), { recursive: true, force: true }),
  };
}
