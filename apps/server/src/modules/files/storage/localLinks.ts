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
  /** The key (and download name) of a valid file URL's query, or null. */
  verifyDownload(query: unknown): { key: string; filename: string | undefined } | null;
}

export function createLocalLinks(signer: UrlSigner, apiBase: string, ttlSeconds: number): LocalLinks {
  const objectPath = `${apiBase}${OBJECT_ROUTE}`;
  const uploadPath = `${apiBase}${UPLOAD_ROUTE}`;
  const verify = (path: string, query: unknown) => signer.verify(path, (query ?? {}) as Record<string, unknown>);
  return {
    upload: (key) => signer.sign(uploadPath, { key }, UPLOAD_URL_TTL_SECONDS * 1000),
    download: (key, filename) => signer.sign(objectPath, filename ? { key, download: filename } : { key }, ttlSeconds * 1000),
    verifyUpload(query) {
      const params = verify(uploadPath, query);
      return params?.key ?? null;
    },
    verifyDownload(query) {
      const params = verify(objectPath, query);
      return params?.key ? { key: params.key, filename: params.download } : null;
    },
  };
}
