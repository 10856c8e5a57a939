import type { StorageSettings } from '../../../settings.js';

/**
 * The origins browsers load files from and upload them to, besides our own: none with the local driver (the app
 * serves them), the bucket's with S3 (presigned URLs point straight at it). The page's CSP must allow them.
 */
export function storageOrigins(storage: StorageSettings): string[] {
  if (storage.driver === 'local') return [];
  if (storage.endpoint) {
    const endpoint = new URL(storage.endpoint);
    if (storage.forcePathStyle) return [endpoint.origin];
    return [`${endpoint.protocol}//${storage.bucket}.${endpoint.host}`];
  }
  // AWS names a bucket's host by region; path-style URLs of AWS keep the regional host.
  const host = `s3.${storage.region}.amazonaws.com`;
  return [storage.forcePathStyle ? `https://${host}` : `https://${storage.bucket}.${host}`];
}
