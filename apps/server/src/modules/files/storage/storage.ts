/**
 * Where the bytes of files live, behind one interface so the rest of the service does not care whether that is a
 * directory of this machine or an S3-compatible bucket. Keys are paths like `u/<userId>/<fileId>.png` (keys.ts);
 * a browser never names a key to storage itself: it gets signed, expiring URLs for one key from the service.
 */
import type { Readable } from 'node:stream';

/** Inclusive byte offsets, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface PutOptions {
  contentType: string;
  /** Required with a stream for S3, which must know the length before the body. */
  size?: number;
}

/** What a browser sends its PUT to, and with which headers. */
export interface UploadTarget {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
}

export interface Storage {
  readonly driver: 'local' | 's3';
  /** Writes the whole object; readers never see a half-written one. */
  put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void>;
  /** The object's bytes, or a range of them; rejects with ObjectMissingError when there is no such object. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** The object's size, or null when there is none. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the objects; keys without an object are ignored. */
  delete(keys: readonly string[]): Promise<void>;
  /**
   * A URL a browser can PUT this one key to for a while, without a session. With `size`, a bucket refuses a body
   * of any other length (the length is signed); the local driver's file server bounds the body itself.
   */
  uploadUrl(key: string, contentType: string, size?: number): Promise<UploadTarget>;
  /** A signed, expiring URL of the object; with `filename`, browsers save it under that name instead of showing it. */
  downloadUrl(key: string, options?: { filename?: string }): Promise<string>;
  /** Throws when the store cannot be written (the health check). */
  check(): Promise<void>;
}

export class ObjectMissingError extends Error {
  constructor(key: string) {
    super(`No stored object ${key}`);
    this.name = 'ObjectMissingError';
  }
}

/** How long an upload URL works: long enough for a large video on a slow line. */
export const UPLOAD_URL_TTL_SECONDS = 60 * 60;

/**
 * A Content-Disposition that saves the file as `filename`, in any browser, whatever characters the name has:
 * a plain name as is, any other also in RFC 5987 form (`filename*`) after an ASCII stand-in for old clients.
 */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return ascii === filename
    ? `attachment; filename="${filename}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
