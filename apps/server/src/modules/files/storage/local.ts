/** The default driver: objects are files under DATA_DIR/files, served by the app through signed URLs (localLinks.ts). */
import { randomUUID } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import { access, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { safeKey } from './keys.js';
import type { LocalLinks } from './localLinks.js';
import { type ByteRange, ObjectMissingError, type PutOptions, type Storage, type UploadTarget } from './storage.js';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

export class LocalStorage implements Storage {
  readonly driver = 'local';

  constructor(
    readonly root: string,
    readonly links: LocalLinks,
  ) {}

  private pathOf(key: string): string {
    return join(this.root, safeKey(key));
  }

  /** The content type is not kept: files are served with the type of their key's extension. */
  async put(key: string, body: Buffer | Readable, _options?: PutOptions): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // Written beside and renamed into place, so a reader never sees half a file and a failed write leaves none.
    const partial = `${path}.${randomUUID()}.part`;
    const file = createWriteStream(partial, { flags: 'wx' });
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, file);
      await rename(partial, path);
    } catch (error) {
      // A body that fails before the file is open (a cap reached at once) leaves the open to finish after the
      // pipeline has failed: wait for the stream to close, or the removal would come before the file exists.
      if (!file.closed) await new Promise<void>((closed) => file.once('close', () => closed()));
      await rm(partial, { force: true });
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const handle = await open(this.pathOf(key), 'r');
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    } catch (error) {
      if (isMissing(error)) throw new ObjectMissingError(key);
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const found = await stat(this.pathOf(key));
      return found.isFile() ? { size: found.size } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.pathOf(key), { force: true })));
  }

  async uploadUrl(key: string, contentType: string): Promise<UploadTarget> {
    return { url: this.links.upload(safeKey(key)), method: 'PUT', headers: { 'Content-Type': contentType } };
  }

  async downloadUrl(key: string, options: { filename?: string } = {}): Promise<string> {
    return this.links.download(safeKey(key), options.filename);
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
  }
}
