import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CACHE_IDLE_MS, cacheDirOf, STALE_WORK_MS, sweepRenderCache, sweepStaleWork, tmpDirOf } from '../src/modules/files/workDir.js';

describe('the sweep of stale work', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-sweep-'));
  const root = tmpDirOf(dataDir);
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** A work entry whose own time and its files' times are `ageMs` old, except the files named in `fresh`. */
  function entry(name: string, ageMs: number, files: string[] = [], fresh: string[] = []) {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    const old = new Date(Date.now() - ageMs);
    for (const file of [...files, ...fresh]) {
      writeFileSync(join(dir, file), 'x');
      if (!fresh.includes(file)) utimesSync(join(dir, file), old, old);
    }
    utimesSync(dir, old, old);
  }

  it('removes what dead processes left long ago and keeps work that is recent or still being written', async () => {
    entry('work-dead', STALE_WORK_MS + 60_000, ['video.mp4']);
    entry('reelsmith-render-dead', STALE_WORK_MS + 60_000, ['piece-0.mp4', 'piece-1.mp4']);
    entry('work-recent', 60_000, ['upload.bin']);
    // An old directory with a file written a moment ago is a long job still at work.
    entry('reelsmith-render-live', STALE_WORK_MS + 60_000, ['piece-0.mp4'], ['piece-1.mp4']);
    expect(await sweepStaleWork(dataDir)).toBe(2);
    expect(readdirSync(root).sort()).toEqual(['reelsmith-render-live', 'work-recent']);
  });

  it('has nothing to do before any work was made', async () => {
    expect(await sweepStaleWork(dataDir)).toBe(0);
  });
});

describe('the sweep of the render cache', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-cache-sweep-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** A cached file last read `readAgoMs` ago and last written `writtenAgoMs` ago. */
  function cached(kind: string, name: string, readAgoMs: number, writtenAgoMs = readAgoMs) {
    const dir = join(cacheDirOf(dataDir), kind);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), 'x');
    utimesSync(join(dir, name), new Date(Date.now() - readAgoMs), new Date(Date.now() - writtenAgoMs));
  }

  it('removes what no render used for days and keeps what was read or written lately, and the samples', async () => {
    const long = CACHE_IDLE_MS + 60_000;
    cached('stills', 'old.jpg', long);
    cached('stills', 'old.subject.json', long);
    cached('media', 'read-yesterday.jpg', 24 * 60 * 60_000, long);
    cached('media', 'old.png', long);
    cached('templates', 'new.jpg', 60_000);
    cached('samples', 'caption-classic.png', long);
    // The templates' thumbnails and pictures are a folder further down (finding F4: they were never swept).
    cached('templates/thumbnails', 'f1-bold-ugc-9x16-old.jpg', long);
    cached('templates/thumbnails', 'f1-bold-ugc-9x16-new.jpg', 60_000);
    cached('templates/pictures', 'f1.jpg', long);
    expect(await sweepRenderCache(dataDir)).toBe(5);
    const left = (kind: string) => readdirSync(join(cacheDirOf(dataDir), kind));
    expect(left('stills')).toEqual([]);
    expect(left('media')).toEqual(['read-yesterday.jpg']);
    expect(left('templates').sort()).toEqual(['new.jpg', 'pictures', 'thumbnails']);
    expect(left('samples')).toEqual(['caption-classic.png']);
    expect(left('templates/thumbnails')).toEqual(['f1-bold-ugc-9x16-new.jpg']);
    expect(left('templates/pictures')).toEqual([]);
  });
});
