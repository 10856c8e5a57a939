/**
 * The signed URLs of the local driver. The app itself is the file server: a browser PUTs an upload to
 * UPLOAD_ROUTE and GETs files from OBJECT_ROUTE, each URL carrying its key, an expiry and an HMAC made with the
 * server secret (http/signedUrl.ts), so nobody can point one at another key or make it last longer.
 */
import type { UrlSigner } from '../../../http/signedUrl.js';
import { UPLOAD_URL_TTL_SECONDS } from '../storage/storage.js';

/** Routes under the API prefix. */
export const OBJECT_ROUTE = '/file/object';
export const UPLOAD_ROUTE = '/file/upload';

export interface LocalLinks {
  upload(key: string): string;
  download(key: string, filename?: string): string;
  /** The key of a valid upload URL's query, or null. */
  verifyUpload(query: unknown): string | null;
  /** The key, download name and expiry of a valid file URL's query, or null. */
  verifyDownload(query: unknown): { key: string; filename: string | undefined; expires: number } | null;
}

export function createLocalLinks(signer: UrlSigner, apiBase: string, ttlSeconds: number): LocalLinks {
  const uploads = signer.link(`${apiBase}${UPLOAD_ROUTE}`, { fields: ['key'], ttlMs: UPLOAD_URL_TTL_SECONDS * 1000 });
  // The download name is a field of its own: whatever characters a user gives a file, it names the saved copy and
  // never which key is served (decision "Signed links").
  const downloads = signer.link(`${apiBase}${OBJECT_ROUTE}`, { fields: ['key'], optional: ['download'], ttlMs: ttlSeconds * 1000 });
  return {
    upload: (key) => uploads.sign({ key }),
    download: (key, filename) => downloads.sign(filename ? { key, download: filename } : { key }),
    verifyUpload: (query) => uploads.verify(query)?.key ?? null,
    verifyDownload(query) {
      const link = downloads.verify(query);
      return link ? { key: link.key, filename: link.download, expires: link.expires } : null;
    },
  };
}
