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

/**
 * A cached file unused this long is removed: the previews, edits and export of a project come within days, and
 * a file removed too soon is only made again. The cache otherwise grows with every product ever rendered.
 */
export const CACHE_IDLE_MS = 10 * 24 * 60 * 60_000;
/** The catalogue's samples are the product's own, a few files for every user: never idle. */
const KEPT = new Set<string>(['samples'] satisfies CacheKind[]);

/**
 * Removes cached files neither read nor written for `CACHE_IDLE_MS` (reads count by access time, which even a
 * `relatime` mount keeps to the day). Answers how many it removed.
 */
export async function sweepRenderCache(dataDir: string, now = Date.now()): Promise<number> {
  const root = cacheDirOf(dataDir);
  let removed = 0;
  for (const kind of await readdir(root).catch(() => [] as string[])) {
    if (KEPT.has(kind)) continue;
    const dir = join(root, kind);
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const path = join(dir, name);
      const used = await stat(path).then(
        (s) => (s.isFile() ? Math.max(s.atimeMs, s.mtimeMs) : now),
        () => now,
      );
      if (now - used > CACHE_IDLE_MS) {
        await rm(path, { force: true });
        removed++;
      }
    }
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
