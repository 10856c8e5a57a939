import { join } from 'node:path';
import type { Db } from '../../../db/client.js';
import { createUrlSigner } from '../../../http/signedUrl.js';
import { apiBase, type Settings, sessionSecret } from '../../../settings.js';
import { LocalStorage } from './local.js';
import { createLocalLinks } from './localLinks.js';
import { MeteredStorage } from './metered.js';
import { S3Storage } from './s3.js';
import type { Storage } from './storage.js';

/** Where the local driver keeps files. */
export const filesDirOf = (dataDir: string) => join(dataDir, 'files');

/**
 * The storage the settings name (STORAGE_DRIVER), metered for the storage quota: one per process, shared through
 * the app context.
 */
export function createStorage(settings: Settings, db: Db): Storage {
  return new MeteredStorage(createDriver(settings), db, settings.storageQuotaBytes);
}

function createDriver(settings: Settings): Storage {
  if (settings.storage.driver === 's3') return new S3Storage(settings.storage, settings.fileUrlTtlSeconds);
  const links = createLocalLinks(createUrlSigner(sessionSecret(settings)), apiBase(settings), settings.fileUrlTtlSeconds);
  return new LocalStorage(filesDirOf(settings.dataDir), links);
}
