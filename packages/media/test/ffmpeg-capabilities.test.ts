/**
 * The start-up check of an ffmpeg build (decision "Both ffmpeg builds"), on real programs: both builds the renderer
 * supports pass; a build without libass and libx264 is stood in for by a script that runs the real ffmpeg and leaves
 * those lines out of its listings, as such a build's listings would.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listedEncoders, listedFilters } from '../src/ffmpegCapabilities.js';
import { checkFfmpeg, locateTools, onPath, REQUIRED_ENCODERS, REQUIRED_FILTERS, runTool } from '../src/index.js';

const require = createRequire(import.meta.url);
const npmBinary = (name: string) => (require(name) as { path: string }).path;
const npmTools = locateTools({ ffmpegPath: npmBinary('@ffmpeg-installer/ffmpeg'), ffprobePath: npmBinary('@ffprobe-installer/ffprobe') });
const pathTools = locateTools({ ffmpegPath: onPath('ffmpeg'), ffprobePath: onPath('ffprobe') });

const dir = mkdtempSync(join(tmpdir(), 'reelsmith-ffmpeg-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('checkFfmpeg', () => {
  it.each([
    ['the npm ffmpeg', npmTools],
    ['the ffmpeg on PATH', pathTools],
  ])('finds everything the engine uses in %s', async (_, tools) => {
    expect(await checkFfmpeg(tools)).toEqual({ ok: true, missing: [] });
  });

  it('names what a build without libass and libx264 lacks', async () => {
    const stripped = join(dir, 'ffmpeg-without-libass');
    writeFileSync(stripped, `#!/bin/sh\n'${npmTools.ffmpeg}' "$@" | sed -E '/ (ass|subtitles|libx264) /d'\n`);
    chmodSync(stripped, 0o755);
    const answer = await checkFfmpeg({ ffmpeg: stripped, ffprobe: npmTools.ffprobe });
    expect(answer).toEqual({ ok: false, missing: ['filter ass', 'filter subtitles', 'encoder libx264'] });
  });

  it('says when ffprobe or ffmpeg cannot run', async () => {
    const noProbe = await checkFfmpeg({ ffmpeg: npmTools.ffmpeg, ffprobe: join(dir, 'no-ffprobe') });
    expect(noProbe.ok).toBe(false);
    expect(noProbe.missing).toEqual([expect.stringMatching(/^ffprobe: .*ENOENT/)]);
    const noFfmpeg = await checkFfmpeg({ ffmpeg: join(dir, 'no-ffmpeg'), ffprobe: npmTools.ffprobe });
    expect(noFfmpeg.missing).toEqual([expect.stringMatching(/^ffmpeg: .*ENOENT/)]);
  });

  it('reads both builds’ listings: every name the engine needs, and none of the header lines', async () => {
    for (const tools of [npmTools, pathTools]) {
      const filters = listedFilters(await runTool(tools.ffmpeg, ['-hide_banner', '-filters']));
      const encoders = listedEncoders(await runTool(tools.ffmpeg, ['-hide_banner', '-encoders']));
      expect(filters.size).toBeGreaterThan(300);
      expect(encoders.size).toBeGreaterThan(100);
      for (const name of REQUIRED_FILTERS) expect(filters).toContain(name);
      for (const name of REQUIRED_ENCODERS) expect(encoders).toContain(name);
      expect([...filters, ...encoders].filter((name) => /^(=|Timeline|Slice|Command|Video|Audio)/.test(name))).toEqual([]);
    }
  });
});
