import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { locateTools, MUSIC, mixAudio, musicBed, musicLoop, probe, speakScript, splitScript } from '../src/index.js';

const tools = locateTools();
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-music-'));
const cacheDir = join(dir, 'cache');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Integrated loudness (LUFS) as ffmpeg's EBU R128 meter reads it. */
async function loudness(file: string): Promise<number> {
  const { stderr } = await promisify(execFile)(tools.ffmpeg, ['-nostats', '-i', file, '-af', 'ebur128', '-f', 'null', '-']);
  const match = /Integrated loudness:\s+I:\s+(-?[\d.]+) LUFS/.exec(stderr);
  if (!match) throw new Error('no loudness in ffmpeg output');
  return Number(match[1]);
}

describe('music', () => {
  it('has at least four tracks, some recommended', () => {
    expect(MUSIC.length).toBeGreaterThanOrEqual(4);
    expect(MUSIC.some((t) => t.recommended)).toBe(true);
    expect(new Set(MUSIC.map((t) => t.musicId)).size).toBe(MUSIC.length);
  });

  it('composes a loop once into the cache and reuses it', async () => {
    const first = await musicLoop('breeze', cacheDir);
    const made = statSync(first).mtimeMs;
    expect(await musicLoop('breeze', cacheDir)).toBe(first);
    expect(statSync(first).mtimeMs).toBe(made);
    await expect(musicLoop('nope', cacheDir)).rejects.toThrow(/unknown music track/);
  });

  for (const seconds of [15, 31.5]) {
    it(`makes a bed of exactly ${seconds} s, not silent`, async () => {
      const file = await musicBed('sunrise', seconds, join(dir, `bed-${seconds}.wav`), cacheDir);
      const probed = await probe(tools, file);
      expect(Math.abs(probed.duration - seconds)).toBeLessThanOrEqual(0.1);
      expect(await loudness(file)).toBeGreaterThan(-40);
    });
  }

  it('mixes voice over ducked music, normalised to about -16 LUFS, at the video length', async () => {
    const track = await speakScript(splitScript('Meet the HydroPeak bottle.\nIt keeps drinks cold all day.'), {
      voiceId: 'en-ava',
      outDir: dir,
    });
    const bed = await musicBed('spark', 12, join(dir, 'bed-mix.wav'), cacheDir);
    const out = await mixAudio({ voice: track.file, music: bed, seconds: 12, outFile: join(dir, 'mix.m4a') });
    const probed = await probe(tools, out);
    expect(probed.streams.map((s) => `${s.type}/${s.codec}`)).toEqual(['audio/aac']);
    expect(Math.abs(probed.duration - 12)).toBeLessThanOrEqual(0.1);
    const lufs = await loudness(out);
    expect(lufs).toBeGreaterThan(-19);
    expect(lufs).toBeLessThan(-13);
  });
});
