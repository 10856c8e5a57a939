/**
 * The storage every module uses: the driver (local or S3) with every object under a user's prefix counted in the
 * quota's ledger (storedObjects.ts; docs/decisions, "Storage quota"). A put of known size is held against the
 * owner's quota before a byte is written and refused with storageQuotaExceeded when it does not fit; a put whose
 * object is not stored after all gives its room back; a delete forgets the keys once the objects are gone. So no
 * module can store bytes the quota does not see, whichever route they came by.
 */
import type { Readable } from 'node:stream';
import type { Queryable } from '../../../db/client.js';
import { heldAt, hold, ownerOf, release, restore, settle } from '../storedObjects.js';
import type { ByteRange, PutOptions, Storage, UploadTarget } from './storage.js';

export class MeteredStorage implements Storage {
  readonly driver: Storage['driver'];

  constructor(
    /** The driver underneath, for what only it has (the local driver's links). */
    readonly inner: Storage,
    private readonly db: Queryable,
    private readonly quotaBytes: number,
  ) {
    this.driver = inner.driver;
  }

  /**
   * The same storage with its ledger written through `db`: inside a transaction (a task's `failed` clean-up runs in
   * the one that ends the task), whose connection PGlite would otherwise wait for.
   */
  on(db: Queryable): MeteredStorage {
    return new MeteredStorage(this.inner, db, this.quotaBytes);
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void> {
    if (!ownerOf(key)) return this.inner.put(key, body, options);
    const size = Buffer.isBuffer(body) ? body.length : options.size;
    if (size === undefined) return this.putReserved(key, body as Readable, options);
    const previous = await hold(this.db, this.quotaBytes, key, size);
    try {
      await this.inner.put(key, body, options);
    } catch (error) {
      await restore(this.db, key, previous);
      throw error;
    }
  }

  /**
   * A stream of unknown length: the local driver's upload PUT, which put-url reserved room for (the declared size
   * or the type's cap) and which its caller bounds to that reservation. Settled to the size stored.
   */
  private async putReserved(key: string, body: Readable, options: PutOptions): Promise<void> {
    const reserved = await heldAt(this.db, key);
    if (!reserved?.pending) throw new Error(`A stream of unknown size to ${key}, which has no room reserved`);
    await this.inner.put(key, body, options);
    const size = (await this.inner.stat(key))?.size ?? 0;
    if (size > reserved.size) {
      await this.delete([key]);
      throw new Error(`${size} bytes stored at ${key}, more than the ${reserved.size} reserved`);
    }
    await settle(this.db, key, size);
  }

  async delete(keys: readonly string[]): Promise<void> {
    await this.inner.delete(keys);
    await release(
      this.db,
      keys.filter((key) => ownerOf(key)),
    );
  }

  read(key: string, range?: ByteRange): Promise<Readable> {
    return this.inner.read(key, range);
  }

  stat(key: string): Promise<{ size: number } | null> {
    return this.inner.stat(key);
  }

  uploadUrl(key: string, contentType: string, size?: number): Promise<UploadTarget> {
    return this.inner.uploadUrl(key, contentType, size);
  }

  downloadUrl(key: string, options?: { filename?: string }): Promise<string> {
    return this.inner.downloadUrl(key, options);
  }

  check(): Promise<void> {
    return this.inner.check();
  }
}

/** The context's storage with its ledger on the context's database (which may be a transaction). */
export const storageOf = (ctx: { storage: Storage; db: Queryable }): Storage =>
  ctx.storage instanceof MeteredStorage ? ctx.storage.on(ctx.db) : ctx.storage;

/** The driver under the metering, for what only a driver has. */
export const driverOf = (storage: Storage): Storage => (storage instanceof MeteredStorage ? storage.inner : storage);
