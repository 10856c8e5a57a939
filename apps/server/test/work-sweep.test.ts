import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { STALE_WORK_MS, sweepStaleWork, tmpDirOf } from '../src/modules/files/workDir.js';

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
