/**
 * The S3 driver (AWS SDK v3): any S3-compatible store, AWS or one at S3_ENDPOINT (MinIO, R2, …). Browsers upload
 * and download straight from the bucket with presigned URLs, so file bytes never pass through the app.
 */

import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageSettings } from '../../../settings.js';
import { safeKey } from './keys.js';
import {
  attachment,
  type ByteRange,
  ObjectMissingError,
  type PutOptions,
  type Storage,
  UPLOAD_URL_TTL_SECONDS,
  type UploadTarget,
} from './storage.js';

/** Written by the health check: proves the credentials may write to the bucket. Outside every user's `u/` prefix. */
const HEALTH_KEY = 'health/check';

export class S3Storage implements Storage {
  readonly driver = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(
    settings: Extract<StorageSettings, { driver: 's3' }>,
    private readonly ttlSeconds: number,
  ) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.credentials && { credentials: settings.credentials }),
      // By default the SDK adds a checksum of the request body to every PUT, presigned ones included, where the
      // body is not known yet: a browser's upload to such a URL would then fail. Only operations that require
      // a checksum get one.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Buffer | Readable, { contentType, size }: PutOptions): Promise<void> {
    if (!Buffer.isBuffer(body) && size === undefined) throw new Error('S3 needs the size of a streamed object');
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: safeKey(key), Body: body, ContentType: contentType, ContentLength: size }),
    );
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: safeKey(key), Range: range && `bytes=${range.start}-${range.end}` }),
      );
      // In Node the body is the response stream.
      return answer.Body as Readable;
    } catch (error) {
      if (error instanceof NoSuchKey) throw new ObjectMissingError(key);
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: safeKey(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (error instanceof NotFound || error instanceof NoSuchKey) return null;
      throw error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    // One DeleteObject per key: DeleteObjects needs a body checksum that not every S3-compatible store accepts.
    await Promise.all(keys.map((key) => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: safeKey(key) }))));
  }

  async uploadUrl(key: string, contentType: string, size?: number): Promise<UploadTarget> {
    // A presigned PUT cannot bound the body otherwise: the signed Content-Length is the quota's only hold on it.
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: safeKey(key), ContentType: contentType, ContentLength: size });
    const url = await getSignedUrl(this.client, command, { expiresIn: UPLOAD_URL_TTL_SECONDS });
    return { url, method: 'PUT', headers: { 'Content-Type': contentType } };
  }

  async downloadUrl(key: string, { filename }: { filename?: string } = {}): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: safeKey(key),
      ResponseContentDisposition: filename ? attachment(filename) : undefined,
    });
    return getSignedUrl(this.client, command, { expiresIn: this.ttlSeconds });
  }

  async check(): Promise<void> {
    await this.put(HEALTH_KEY, Buffer.from('ok'), { contentType: 'text/plain' });
  }
}
