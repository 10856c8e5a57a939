import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { locateTools, type MediaTools } from '@reelsmith/media';
import { PartMissingError } from '../../misconfigured.js';
import type { Settings } from '../../settings.js';

/** Where files are checked before they are stored: in DATA_DIR, so a large video is not copied across disks. */
export const tmpDirOf = (dataDir: string) => join(dataDir, 'tmp');

/** Runs `work` in a fresh directory that is removed afterwards, whatever happened, so no temporary file outlives it. */
export async function withWorkDir<T>(settings: Settings, work: (dir: string) => Promise<T>): Promise<T> {
  const root = tmpDirOf(settings.dataDir);
  await mkdir(root, { recursive: true });
  const dir = await mkdtemp(join(root, 'work-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Work older than this was left by a process that died (SIGKILL, out of memory, power): no task runs this long
 * (the longest time limit is an hour, then it is stopped) and no upload takes it.
 */
export const STALE_WORK_MS = 2 * 60 * 60_000;
/** How often a process looks for stale work. */
export const WORK_SWEEP_INTERVAL_MS = 60 * 60_000;

/**
 * Removes what dead processes left in the work directory: entries whose own time and whose direct contents'
 * times are all older than `STALE_WORK_MS` (a live render adds a piece file every few seconds). Answers how
 * many it removed.
 */
export async function sweepStaleWork(dataDir: string, now = Date.now()): Promise<number> {
  const root = tmpDirOf(dataDir);
  const entries = await readdir(root).catch(() => [] as string[]);
  let removed = 0;
  for (const entry of entries) {
    const path = join(root, entry);
    const times = await Promise.all(
      [path, ...(await readdir(path).catch(() => [] as string[])).map((child) => join(path, child))].map(modifiedAt),
    );
    if (times.every((time) => now - time > STALE_WORK_MS)) {
      await rm(path, { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * What the render cache holds, a folder each: local copies of stored media, framed stills with their masks and
 * planes, music beds, template thumbnails, the catalogue's samples and image-edit backdrops.
 */
export type CacheKind = 'media' | 'stills' | 'music' | 'speech' | 'templates' | 'samples' | 'backgrounds';

/** Where renders keep what they learnt of a picture for the next one: the whole cache, or one kind's folder. */
export const cacheDirOf = (dataDir: string, kind?: CacheKind) => (kind ? join(dataDir, 'cache', kind) : join(dataDir, 'cache'));

/** The name, without its extension, of a stored object's local copy in the media cache: named by its key, which never changes. */
export const localCopyName = (resKey: string) => createHash('sha256').update(resKey).digest('hex').slice(0, 32);

/** Where the template picker keeps a user's picture's copy (`<fileId>.<format>`) and thumbnails (`<fileId>-…`). */
export const templatePicturesDir = (dataDir: string) => join(cacheDirOf(dataDir, 'templates'), 'pictures');
export const templateThumbnailsDir = (dataDir: string) => join(cacheDirOf(dataDir, 'templates'), 'thumbnails');

/** Removes the files in `dir` whose names start with one of `prefixes`; answers how many. */
async function removeStartingWith(dir: string, prefixes: readonly string[]): Promise<number> {
  const doomed = (await readdir(dir).catch(() => [] as string[])).filter((name) => prefixes.some((prefix) => name.startsWith(prefix)));
  await Promise.all(doomed.map((name) => rm(join(dir, name), { force: true })));
  return doomed.length;
}

/**
 * Removes what the render cache derived from deleted files (finding F4): the local copies of their stored objects
 * and the template picker's copies and thumbnails of them. What renders learnt of a picture (stills, masks) is named
 * by the picture's content, shared by every file with the same bytes, and goes with the idle sweep.
 */
export async function forgetCachedCopies(dataDir: string, deleted: readonly { fileId: string; resKeys: readonly string[] }[]) {
  if (deleted.length === 0) return 0;
  const removed = await Promise.all([
    removeStartingWith(
      cacheDirOf(dataDir, 'media'),
      deleted.flatMap((file) => file.resKeys.map((key) => `${localCopyName(key)}.`)),
    ),
    removeStartingWith(
      templatePicturesDir(dataDir),
      deleted.map((file) => `${file.fileId}.`),
    ),
    removeStartingWith(
      templateThumbnailsDir(dataDir),
      deleted.map((file) => `${file.fileId}-`),
    ),
  ]);
  return removed.reduce((a, b) => a + b, 0);
}

/**
 * A cached file unused this long is removed: the previews, edits and export of a project come within days, and
 * a file removed too soon is only made again. The cache otherwise grows with every product ever rendered.
 */
export const CACHE_IDLE_MS = 10 * 24 * 60 * 60_000;
/** The catalogue's samples are the product's own, a few files for every user: never idle. */
const KEPT = new Set<string>(['samples'] satisfies CacheKind[]);

/**
 * Removes cached files neither read nor written for `CACHE_IDLE_MS` (reads count by access time, which even a
 * `relatime` mount keeps to the day), in each kind's folder and the folders inside it (the templates' thumbnails and
 * pictures). Answers how many it removed.
 */
export async function sweepRenderCache(dataDir: string, now = Date.now()): Promise<number> {
  const root = cacheDirOf(dataDir);
  let removed = 0;
  async function sweep(dir: string, depth: number) {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < 3) await sweep(path, depth + 1);
        continue;
      }
      const used = await stat(path).then(
        (s) => Math.max(s.atimeMs, s.mtimeMs),
        () => now,
      );
      if (now - used > CACHE_IDLE_MS) {
        await rm(path, { force: true });
        removed++;
      }
    }
  }
  for (const kind of await readdir(root).catch(() => [] as string[])) {
    if (!KEPT.has(kind)) await sweep(join(root, kind), 1);
  }
  return removed;
}

/** When a file was last changed; one gone meanwhile counts as long ago. */
const modifiedAt = (path: string) =>
  stat(path).then(
    (s) => s.mtimeMs,
    () => 0,
  );

const located = new Map<string, MediaTools>();

/** ffmpeg and ffprobe as the settings name them, looked for once per process. */
export function mediaToolsOf(settings: Settings): MediaTools {
  const id = `${settings.ffmpegPath ?? ''}\n${settings.ffprobePath ?? ''}`;
  let tools = located.get(id);
  if (!tools) {
    try {
      tools = locateTools({ ffmpegPath: settings.ffmpegPath, ffprobePath: settings.ffprobePath });
    } catch (error) {
      // A task that meets this fails as the server's misconfiguration, not as "Generation failed" (decision "Start-up checks").
      throw new PartMissingError('ffmpeg', error instanceof Error ? error.message : String(error), { cause: error });
    }
    located.set(id, tools);
  }
  return tools;
}
