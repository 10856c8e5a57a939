/**
 * Motion smoothness measured on a rendered clip: the decision "Smooth motion". A textured still is panned and
 * zoomed by the real renderer; the frames are read back as luma and the shift between consecutive frames is
 * measured at four places (a quarter of the way in from each corner) to a hundredth of a pixel by Lucas–Kanade
 * refinement. Within a move's steady part (its eased ramps and the crossfades left out) the per-frame
 * displacement may vary by 15 % at most (coefficient of variation), and no frame may repeat the one before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateTools, probe, renderVideo, runTool, TEMPLATES, type Timeline } from '../src/index.js';
import { easedProgress, RAMP_SECONDS } from '../src/render/easing.js';
import { FPS } from '../src/render/render.js';
import { PAN_PHASES, panPhases } from '../src/render/scene/stillMotion.js';
import { displacements, readLuma, steadiness, texture } from './flow.js';

const tools = locateTools();
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-motion-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECONDS = 3;
const MOVES = ['pan-right', 'zoom-in', 'pan-up', 'zoom-out'] as const;
let moves: number[];
let video: string;

beforeAll(async () => {
  const still = join(dir, 'texture.jpg');
  await texture(still, 1200, 1600);
  const audio = join(dir, 'silence.wav');
  // Silence made long by -t: anullsrc's own duration option is missing from the npm ffmpeg 4.1, which a machine without
  // a system ffmpeg runs these tests with (decision "Both ffmpeg builds").
  await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc', '-t', String(SECONDS * MOVES.length), audio]);
  const timeline: Timeline = {
    aspectRatio: '9:16',
    seconds: SECONDS * MOVES.length,
    transition: 0.4,
    look: TEMPLATES['clean-studio'],
    transitionKind: 'dissolve',
    scenes: MOVES.map((motion, i) => ({
      media: { kind: 'image', file: still },
      role: 'feature',
      start: i * SECONDS,
      seconds: SECONDS,
      motion,
    })),
  };
  video = join(dir, 'moves.mp4');
  await renderVideo(timeline, { audio, quality: 'preview', outFile: video, cacheDir: join(dir, 'cache'), tools });
  moves = displacements(readLuma(video, 540, 960));
}, 120_000);

describe('motion on a rendered clip', () => {
  it.each(MOVES.map((motion, i) => [motion, i] as const))('%s moves at one speed, sub-pixel, with no repeated frame', (motion, i) => {
    // The steady part: after the ramp (which covers the crossfade in) and before the next crossfade's ramp.
    const ramp = Math.round(RAMP_SECONDS * FPS);
    const from = i * SECONDS * FPS + ramp;
    const to = (i + 1) * SECONDS * FPS - ramp;
    const { mean, cv, repeats, frames } = steadiness(moves, from, to);
    console.log(`${motion}: ${frames} frames, ${mean.toFixed(3)} px/frame, CV ${(cv * 100).toFixed(1)} %, ${repeats} repeated`);
    expect(mean).toBeGreaterThan(0.2);
    expect(cv).toBeLessThanOrEqual(0.15);
    expect(repeats).toBe(0);
  });

  it('eases in and out: the move starts and ends slow and keeps one speed between', () => {
    const span = 100;
    const step = (t: number) => easedProgress(t + 1, span, 12) - easedProgress(t, span, 12);
    expect(easedProgress(0, span, 12)).toBe(0);
    expect(easedProgress(span, span, 12)).toBeCloseTo(1, 9);
    expect(step(0)).toBeLessThan(step(50) / 10);
    expect(step(span - 1)).toBeLessThan(step(50) / 10);
    for (let t = 12; t < span - 12; t++) expect(step(t)).toBeCloseTo(step(50), 9);
    for (let t = 0; t < span; t++) expect(step(t)).toBeGreaterThan(0);
  });

  it('gives a pan as few shifted copies as keep its steps even: all of them when slow, fewer when fast', () => {
    // A step of 2/copies px varies a frame's displacement by step/√6: at most about 7.5 % of the speed.
    for (const speed of [0.3, 0.9, 1.6, 1.8, 3.2, 40]) {
      const copies = panPhases(speed);
      expect(copies % 2).toBe(0);
      expect(copies).toBeLessThanOrEqual(PAN_PHASES);
      if (copies < PAN_PHASES) expect(2 / copies / Math.sqrt(6) / speed).toBeLessThanOrEqual(0.075);
    }
    expect([0.9, 1.6, 1.8, 3.2, 40].map(panPhases)).toEqual([12, 8, 8, 4, 4]);
  });

  it('is tagged BT.709 and exactly as long as planned', async () => {
    const p = await probe(tools, video);
    expect(Math.abs(p.duration - SECONDS * MOVES.length)).toBeLessThan(0.05);
    const tags = await runTool(tools.ffprobe, [
      '-v',
      'error',
      '-select_streams',
      'v',
      '-show_entries',
      'stream=color_space,color_transfer,color_primaries,color_range',
      '-of',
      'csv=p=0',
      video,
    ]);
    expect(tags.trim().split(',').sort()).toEqual(['bt709', 'bt709', 'bt709', 'tv']);
  });
});
