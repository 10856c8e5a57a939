/**
 * The browser extension as this deployment serves it for download (decision "Extension download"): the unpacked build
 * of apps/extension (`npm run build -w @reelsmith/extension`) zipped with three changes, so that a marketer who loads
 * it unpacked gets an extension that talks to the server they downloaded it from, with nothing to configure:
 * - `deployment.json` names this server's PUBLIC_URL and API_PREFIX; the extension adopts them when it is installed.
 * - The only host permission is this server's origin (the build's default is the developer's 127.0.0.1:3000).
 * - `key` pins the extension's id, which Chrome otherwise derives from the folder it was unzipped to, so the server
 *   can accept the extension's Origin (decision "Extension origins") without the operator listing an id.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZipFile } from 'yazl';
import type { Settings } from '../../settings.js';

/**
 * The public half of a key made for this purpose (its private half was never kept: an unpacked extension needs only
 * the public one, and the id is derived from it). A Web Store build carries no key: the store assigns its own id.
 */
export const EXTENSION_PUBLIC_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtJCc0hT3G6v+WVex3BZxLgJhP9rRY9x9ZGn7jfumOKKB7/hCjhxTPEDMAD20/6PPkAG/j7Hte6TKKW5jfoNEUW+s+qXTN4ECA51B3Fw3+xovqVg8y9O13H5YLyvknmwP3+6uBf93yCi2v7d8k3RJlyo0xkwvNZYsxNAbFWLtwsPZvDWpD0wLrSaUmWNKkdUM6Zh4CqYFcmUx0fWkQaBzs9EzAtqM3mxdawjqGIcnvb/6dULmJlqhs4cfBDgKKOBWBDHrDHsd4ErXMwbAoP2NeGdKyLBSMIjEZb5eSqiqbhV/unUTQnljTF/0b3v8LPpo8UhddyTv7YDRdK+hbD1PkQIDAQAB';

/** Chrome's id for a key: the first 128 bits of the SHA-256 of the key, each hex digit written as a letter a–p. */
export function extensionIdOf(publicKey: string): string {
  const hex = createHash('sha256').update(Buffer.from(publicKey, 'base64')).digest('hex').slice(0, 32);
  return Array.from(hex, (digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join('');
}

/** The Origin the downloaded extension's requests carry. */
export const DOWNLOADED_EXTENSION_ORIGIN = `chrome-extension://${extensionIdOf(EXTENSION_PUBLIC_KEY)}`;

const EXTENSION_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../extension/dist');

export interface ExtensionDownload {
  fileName: string;
  zip: Buffer;
}

/** Every file of the build, by its path inside it with forward slashes, sorted so the archive is always the same. */
const filesOf = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();

function zipOf(files: Map<string, Buffer>): Promise<Buffer> {
  const zip = new ZipFile();
  // Dated at zip's epoch, so the same build and settings always make the same archive.
  const mtime = new Date(1980, 0, 1);
  for (const [name, data] of files) zip.addBuffer(data, name, { mtime });
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((done, fail) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', fail);
    zip.outputStream.on('end', () => done(Buffer.concat(chunks)));
  });
}

/** The zip for this deployment, made from the build in `dist`; null when the extension is not built. */
export async function extensionDownload(settings: Settings, dist = EXTENSION_DIST): Promise<ExtensionDownload | null> {
  const manifestFile = join(dist, 'manifest.json');
  if (!existsSync(manifestFile)) return null;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { version: string } & Record<string, unknown>;
  const appOrigin = new URL(settings.publicUrl).origin;
  const files = new Map<string, Buffer>();
  for (const path of filesOf(dist)) files.set(relative(dist, path).split(sep).join('/'), readFileSync(path));
  const ours = { ...manifest, key: EXTENSION_PUBLIC_KEY, host_permissions: [`${appOrigin}/*`] };
  files.set('manifest.json', Buffer.from(`${JSON.stringify(ours, null, 2)}\n`));
  files.set('deployment.json', Buffer.from(`${JSON.stringify({ appOrigin, apiPrefix: settings.apiPrefix })}\n`));
  return { fileName: `reelsmith-extension-${manifest.version}.zip`, zip: await zipOf(files) };
}
