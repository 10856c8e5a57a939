// Where files live, how long their links work, and what one user may send and keep.
import { z } from 'zod';
import { flag, httpUrl, optional, positiveInt, refuse, setting } from './fields.js';

export const StorageEnv = z.object({
  STORAGE_DRIVER: setting(
    z.enum(['local', 's3']).default('local'),
    '`local`: files under `DATA_DIR/files`, served by the app through signed links; `s3`: an S3-compatible bucket',
  ),
  S3_BUCKET: setting(optional, 'the bucket', 'required with s3'),
  S3_REGION: setting(z.string().min(1).default('us-east-1'), "the bucket's region"),
  S3_ENDPOINT: setting(httpUrl, 'the endpoint of another S3-compatible store (MinIO, R2, …)', 'AWS'),
  S3_ACCESS_KEY_ID: setting(optional, 'the access key; both or neither', "the AWS SDK's default chain"),
  S3_SECRET_ACCESS_KEY: setting(optional, 'its secret; both or neither', "the AWS SDK's default chain"),
  S3_FORCE_PATH_STYLE: setting(flag, 'bucket in the path instead of the host name (most self-hosted stores)', 'false'),
  FILE_URL_TTL_MINUTES: setting(positiveInt(360), 'how long a signed file link works, in minutes'),
  MAX_IMAGE_MB: setting(positiveInt(20), 'the largest image accepted, uploaded or imported, in MB'),
  MAX_VIDEO_MB: setting(positiveInt(200), 'the largest video accepted, uploaded or imported, in MB'),
  STORAGE_QUOTA_MB: setting(
    positiveInt(5120),
    'what one user may store, in MiB: files, thumbnails, uploads not yet registered and captured pages all count',
  ),
  IMPORTS_PER_USER: setting(
    z.coerce.number().int().min(1).max(64).default(2),
    "URL imports one user may run at once in a process; a call past it answers 429, a task's import waits",
  ),
  IMPORTS_PER_PROCESS: setting(
    z.coerce.number().int().min(1).max(256).default(6),
    'URL imports one process runs at once; more wait their turn',
  ),
});

export type StorageSettings =
  | { driver: 'local' }
  | {
      driver: 's3';
      bucket: string;
      region: string;
      endpoint: string | undefined;
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      forcePathStyle: boolean;
    };

function storageOf(e: z.output<typeof StorageEnv>): StorageSettings {
  if (e.STORAGE_DRIVER === 'local') return { driver: 'local' };
  if (!e.S3_BUCKET) return refuse('S3_BUCKET: required with STORAGE_DRIVER=s3');
  return {
    driver: 's3',
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT,
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
  };
}

const MIB = 1024 * 1024;

export function storageSettings(e: z.output<typeof StorageEnv>) {
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY))
    refuse('S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: set both or neither');
  return {
    storage: storageOf(e),
    fileUrlTtlSeconds: e.FILE_URL_TTL_MINUTES * 60,
    maxImageBytes: e.MAX_IMAGE_MB * MIB,
    maxVideoBytes: e.MAX_VIDEO_MB * MIB,
    /** What one user may store, every object under their prefix counted (modules/files/storedObjects.ts). */
    storageQuotaBytes: e.STORAGE_QUOTA_MB * MIB,
    /** URL imports at once: per user and per process (modules/files/importSlots.ts). */
    importsPerUser: e.IMPORTS_PER_USER,
    importsPerProcess: e.IMPORTS_PER_PROCESS,
  };
}
