// Files the catalogue makes once and keeps in the data dir's cache: samples, template thumbnails and the local
// copies of the pictures they are drawn from.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

/** Files being made right now, so six thumbnails asked for at once share one copy of the picture. */
const making = new Map<string, Promise<string>>();

/**
 * `file`, made by `make` the first time it is asked for. `make` writes aside (a name with the same extension, which
 * ffmpeg reads its format from) and the result is renamed into place, so no one reads half a file.
 */
export function cachedFile(file: string, make: (partial: string) => Promise<unknown>): Promise<string> {
  const pending = making.get(file);
  if (pending) return pending;
  const made = (async () => {
    if (await stat(file).catch(() => undefined)) return file;
    await mkdir(dirname(file), { recursive: true });
    const ext = extname(file);
    const partial = join(dirname(file), `${basename(file, ext)}.${randomUUID()}.part${ext}`);
    try {
      await make(partial);
      await rename(partial, file);
    } finally {
      await rm(partial, { force: true });
    }
    return file;
  })().finally(() => making.delete(file));
  making.set(file, made);
  return made;
}

/**
 * Runs renders one after another in this process: a picker asks for six thumbnails at once, and on a small machine
 * six ffmpeg processes beside the video renders would slow everything; one at a time, the first shows soonest.
 */
export function oneAtATime() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = last.then(work, work);
    last = run.catch(() => undefined);
    return run;
  };
}
