/**
 * How one scene hands over to the next inside a piece, measured on real ffmpeg output: the decision
 * "Transitions". Two stills of sharp, flat colour fields (each a left and a right half over a dark bottom
 * quarter) are rendered into pieces by hand; the decoded frames are read back and every transition frame is
 * checked against where the outgoing and the incoming pictures should be.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransitionKind } from '../src/render/look.js';
import { type Encoding, type Frame, type PieceJob, pieceArgs, pushProgress, type SceneSource, whipSigmas } from '../src/render/piece.js';
import { runTool } from '../src/run.js';
import { locateTools } from '../src/tools.js';
import { countedFrames } from './frameCount.js';

const tools = locateTools();
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-transitions-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FRAME: Frame = { width: 540, height: 960, fps: 25 };
const { width: W, height: H } = FRAME;
const ENCODING: Encoding = { preset: 'veryfast', crf: 16, threads: 1 };
const FRAMES = 25;

type RGB = readonly [number, number, number];
/** The outgoing picture's halves, the incoming one's, and the dark band under both. */
const A1: RGB = [220, 40, 40];
const A2: RGB = [40, 200, 60];
const B1: RGB = [40, 60, 220];
const B2: RGB = [230, 210, 40];
const DARK: RGB = [20, 20, 20];
const COLOURS = { A1, A2, B1, B2 } as const;
type Field = keyof typeof COLOURS;

/** Rows crossing both halves above the dark band, where the fields are read. */
const ROWS = [Math.round(H / 4), Math.round(H / 2)];
const BAND_TOP = (3 * H) / 4;

async function still(file: string, left: RGB, right: RGB) {
  const pixels = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) pixels.set(y >= BAND_TOP ? DARK : x < W / 2 ? left : right, (y * W + x) * 3);
  }
  await sharp(pixels, { raw: { width: W, height: H, channels: 3 } })
    .png()
    .toFile(file);
}

const source = (file: string, motionFrames: number): SceneSource => ({
  kind: 'image',
  file,
  motion: 'none',
  motionFrames,
  size: { width: W, height: H },
});

function job(transitionKind: TransitionKind | undefined, transitionFrames: number, frames = FRAMES): PieceJob {
  return {
    scene: source(join(dir, 'a.png'), frames),
    leadFrames: 0,
    frames,
    next: source(join(dir, 'b.png'), frames),
    transitionFrames,
    transitionKind,
    firstFrame: 0,
  };
}

interface Decoded {
  rgb: Buffer[];
  luma: Buffer[];
}

function decode(file: string, pixFmt: 'rgb24' | 'gray'): Buffer[] {
  const out = spawnSync(tools.ffmpeg, ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', pixFmt, '-'], { maxBuffer: 1 << 30 });
  if (out.status !== 0) throw new Error(String(out.stderr));
  const size = W * H * (pixFmt === 'rgb24' ? 3 : 1);
  const frames: Buffer[] = [];
  for (let at = 0; at + size <= out.stdout.length; at += size) frames.push(out.stdout.subarray(at, at + size));
  return frames;
}

/** Renders the piece, checks its exact length and answers its decoded frames. */
async function render(name: string, piece: PieceJob): Promise<Decoded> {
  const file = join(dir, `${name}.mp4`);
  await runTool(tools.ffmpeg, pieceArgs(piece, FRAME, { width: W, height: H }, ENCODING, file));
  expect((await countedFrames(tools, file)).frames).toBe(piece.frames);
  return { rgb: decode(file, 'rgb24'), luma: decode(file, 'gray') };
}

const inputsOf = (args: string[]) => args.filter((a) => a === '-i').length;
const pixel = (frame: Buffer, x: number, y: number): RGB => {
  const i = (y * W + x) * 3;
  return [frame[i] as number, frame[i + 1] as number, frame[i + 2] as number];
};
const distance = (a: RGB, b: RGB) => Math.max(...a.map((v, c) => Math.abs(v - (b[c] as number))));
/** The colour field a pixel is, or undefined when it is none of them (a mix, a band of something else). */
function field(rgb: RGB): Field | undefined {
  return (Object.keys(COLOURS) as Field[]).find((name) => distance(rgb, COLOURS[name]) <= 14);
}

/** Where luma crosses halfway from `before` to `after` along a row, to a fraction of a pixel (the edge's x). */
function crossing(luma: Buffer, y: number, from: number, to: number, before: number, after: number): number {
  const half = (before + after) / 2;
  const row = (x: number) => luma[y * W + x] as number;
  for (let x = Math.max(1, from); x <= Math.min(W - 1, to); x++) {
    const a = row(x - 1) - half;
    const b = row(x) - half;
    // The edge is the first pixel of the right-hand field: halfway lies half a pixel before it.
    if (a === 0 || Math.sign(a) !== Math.sign(b)) return x - 1 + a / (a - b) + 0.5;
  }
  return Number.NaN;
}

/** The 10 %–90 % width of the step from `before` to `after` around `at` along a row (or a column). */
function edgeWidth(line: (i: number) => number, length: number, at: number, before: number, after: number): number {
  const level = (share: number) => before + (after - before) * share;
  const past = (v: number, share: number) => (after > before ? v >= level(share) : v <= level(share));
  let lo = Math.round(at);
  while (lo > 0 && past(line(lo), 0.1)) lo--;
  let hi = Math.round(at);
  while (hi < length - 1 && !past(line(hi), 0.9)) hi++;
  return hi - lo;
}

/** Luma levels of the fields as decoded, read from the stills' own pictures. */
let levels: Record<Field, number>;

beforeAll(async () => {
  await still(join(dir, 'a.png'), A1, A2);
  await still(join(dir, 'b.png'), B1, B2);
  const cut = await render('levels', job('cut', 0, 2));
  const y = ROWS[1] as number;
  const a = cut.luma[0] as Buffer;
  levels = { A1: a[y * W + W / 4] as number, A2: a[y * W + (3 * W) / 4] as number, B1: 0, B2: 0 };
  // A piece of the incoming picture alone.
  const b = await render('levels-b', { ...job('cut', 0, 2), scene: source(join(dir, 'b.png'), 2) });
  levels.B1 = (b.luma[0] as Buffer)[y * W + W / 4] as number;
  levels.B2 = (b.luma[0] as Buffer)[y * W + (3 * W) / 4] as number;
});

describe('a cut', () => {
  it('opens no incoming input, whatever the transition frames say, and every frame is the outgoing scene alone', async () => {
    expect(inputsOf(pieceArgs(job('cut', 0), FRAME, { width: W, height: H }, ENCODING, 'x.mp4'))).toBe(1);
    expect(inputsOf(pieceArgs(job('cut', 6), FRAME, { width: W, height: H }, ENCODING, 'x.mp4'))).toBe(1);
    const { rgb } = await render('cut', job('cut', 0));
    for (const frame of rgb) {
      for (const y of ROWS) {
        for (let x = 0; x < W; x++) {
          if (Math.abs(x - W / 2) <= 2) continue;
          expect(field(pixel(frame, x, y))).toBe(x < W / 2 ? 'A1' : 'A2');
        }
      }
    }
  });

  it('no transition frames open no incoming input for any kind, and the piece keeps its length', async () => {
    for (const kind of ['dissolve', 'slide', 'whip', undefined] as const) {
      expect(inputsOf(pieceArgs(job(kind, 0), FRAME, { width: W, height: H }, ENCODING, 'x.mp4'))).toBe(1);
    }
    const { rgb } = await render('slide-none', job('slide', 0));
    expect(field(pixel(rgb[FRAMES - 1] as Buffer, W / 4, ROWS[1] as number))).toBe('A1');
  });
});

describe('a dissolve', () => {
  it('is the default, and blends the incoming scene in over the transition frames only', async () => {
    const t = 10;
    expect(pieceArgs(job(undefined, t), FRAME, { width: W, height: H }, ENCODING, 'x.mp4')).toEqual(
      pieceArgs(job('dissolve', t), FRAME, { width: W, height: H }, ENCODING, 'x.mp4'),
    );
    const { rgb } = await render('dissolve', job('dissolve', t));
    const body = FRAMES - t;
    const y = ROWS[1] as number;
    for (let f = 0; f <= body; f++) expect(field(pixel(rgb[f] as Buffer, W / 4, y))).toBe('A1');
    for (const k of [t / 2, t - 2]) {
      const alpha = k / t;
      const seen = pixel(rgb[body + k] as Buffer, W / 4, y);
      const blend = A1.map((a, c) => a * (1 - alpha) + (B1[c] as number) * alpha) as unknown as RGB;
      expect(distance(seen, blend)).toBeLessThanOrEqual(8);
      expect(field(seen)).toBeUndefined();
    }
  });
});

describe('a slide', () => {
  const t = 10;
  let frames: Decoded;
  beforeAll(async () => {
    frames = await render('slide', job('slide', t));
  });

  /** Where the window over [outgoing | incoming] sits on transition frame k, in whole pixels. */
  const offset = (k: number) => Math.round(W * pushProgress(k, t));
  /** The field shown at x on transition frame k: the outgoing picture pushed left, the incoming one after it. */
  const expected = (k: number, x: number): Field => {
    const at = x + offset(k);
    if (at < W) return at < W / 2 ? 'A1' : 'A2';
    return at - W < W / 2 ? 'B1' : 'B2';
  };

  it('pushes the outgoing picture out as the incoming one comes in, with no band of anything else', () => {
    const body = FRAMES - t;
    for (let f = 0; f < FRAMES; f++) {
      const k = Math.max(0, f - body);
      const edges = [W / 2, W, (3 * W) / 2].map((e) => e - offset(k));
      for (const y of ROWS) {
        for (let x = 0; x < W; x++) {
          // The edges themselves may mix two fields over a pixel or two (4:2:0 chroma, the encoder).
          if (edges.some((e) => Math.abs(x - e) <= 2)) continue;
          expect([f, x, y, field(pixel(frames.rgb[f] as Buffer, x, y))]).toEqual([f, x, y, expected(k, x)]);
        }
      }
    }
  });

  it('keeps its length and its push in a piece no longer than the transition, or one frame longer', async () => {
    for (const frames of [t, t + 1]) {
      const short = await render(`slide-${frames}`, job('slide', t, frames));
      for (let f = 0; f < frames; f++) {
        const k = Math.max(0, f - (frames - t));
        for (const x of [10, W / 2 - 40, W - 10]) {
          if (Math.abs(x + offset(k) - W) <= 2 || Math.abs(x + offset(k) - W / 2) <= 2) continue;
          expect([frames, f, x, field(pixel(short.rgb[f] as Buffer, x, ROWS[1] as number))]).toEqual([frames, f, x, expected(k, x)]);
        }
      }
    }
  });

  it('puts the boundary near the centre halfway, outgoing on the left and incoming on the right', () => {
    const frame = frames.rgb[FRAMES - t + t / 2] as Buffer;
    const y = ROWS[1] as number;
    expect(Math.abs(offset(t / 2) - W / 2)).toBeLessThanOrEqual(1);
    expect(field(pixel(frame, W / 2 - 4, y))).toBe('A2');
    expect(field(pixel(frame, W / 2 + 4, y))).toBe('B1');
  });

  it('moves the boundary every frame along the eased curve, to the pixel', () => {
    const y = ROWS[1] as number;
    const seams: number[] = [];
    for (let k = 1; k < t; k++) {
      const luma = frames.luma[FRAMES - t + k] as Buffer;
      const ideal = W * (1 - pushProgress(k, t));
      const seam = crossing(luma, y, Math.floor(ideal) - 6, Math.ceil(ideal) + 6, levels.A2, levels.B1);
      // Whole pixels: the measured edge is the rounded ideal one.
      expect(Math.abs(seam - ideal)).toBeLessThanOrEqual(0.75);
      seams.push(seam);
    }
    const steps = seams.slice(1).map((s, i) => (seams[i] as number) - s);
    // Strictly moving (no repeated position), slow at both ends and fastest in the middle: eased in and out.
    for (const step of steps) expect(step).toBeGreaterThan(1);
    const fastest = Math.max(...steps);
    expect(steps.indexOf(fastest)).toBeGreaterThanOrEqual(Math.floor(steps.length / 2) - 1);
    expect(steps.indexOf(fastest)).toBeLessThanOrEqual(Math.ceil(steps.length / 2));
    const first = W - (seams[0] as number);
    expect(first).toBeLessThan(fastest / 10);
    expect(W * (1 - pushProgress(t - 1, t))).toBeLessThan(fastest / 10);
  });
});

describe('a push out of a panning photo', () => {
  // A still wider than the frame, in stripes of rising grey: any offset of the pan's window changes every column.
  const WIDE = W + 160;
  const t = 8;
  const pan = (frames: number): SceneSource => ({
    kind: 'image',
    file: join(dir, 'stripes.png'),
    motion: 'pan-right',
    motionFrames: frames,
    size: { width: WIDE, height: H },
  });
  beforeAll(async () => {
    const pixels = Buffer.alloc(WIDE * H * 3);
    for (let x = 0; x < WIDE; x++) {
      const grey = 30 + ((x * 7) % 200);
      for (let y = 0; y < H; y++) pixels.fill(grey, (y * WIDE + x) * 3, (y * WIDE + x) * 3 + 3);
    }
    await sharp(pixels, { raw: { width: WIDE, height: H, channels: 3 } })
      .png()
      .toFile(join(dir, 'stripes.png'));
  });

  it('opens the photo once, and its tail carries the pan on from where the body ends, as one piece without a push', async () => {
    const piece: PieceJob = { ...job('slide', t), scene: pan(FRAMES) };
    const args = pieceArgs(piece, FRAME, { width: WIDE, height: H }, ENCODING, 'x.mp4');
    expect(args.filter((a) => a.endsWith('stripes.png'))).toHaveLength(1);
    expect(inputsOf(args)).toBe(2);
    const pushed = await render('pan-slide', piece);
    const plain = await render('pan-cut', { ...piece, transitionKind: 'cut', transitionFrames: 0, next: undefined });
    // The tail's first frame is the push at rest: the outgoing scene alone, at the pan's place for that frame.
    for (const f of [FRAMES - t - 1, FRAMES - t]) {
      const a = pushed.luma[f] as Buffer;
      const b = plain.luma[f] as Buffer;
      let sum = 0;
      for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] as number) - (b[i] as number));
      expect(sum / a.length).toBeLessThan(2);
    }
  });
});

describe('a whip', () => {
  const t = 6;
  let frames: Decoded;
  beforeAll(async () => {
    frames = await render('whip', job('whip', t));
  });

  const row = (f: number, y: number) => (x: number) => (frames.luma[f] as Buffer)[y * W + x] as number;
  const column = (f: number, x: number) => (y: number) => (frames.luma[f] as Buffer)[y * W + x] as number;

  it('leaves every frame before the transition sharp', () => {
    const y = ROWS[1] as number;
    for (let f = 0; f <= FRAMES - t; f++) {
      expect(edgeWidth(row(f, y), W, W / 2, levels.A1, levels.A2)).toBeLessThanOrEqual(3);
    }
  });

  it('blurs the moving frames along the motion, most at the middle, in proportion to their speed, and not across it', () => {
    const y = ROWS[1] as number;
    const sigmas = whipSigmas(t, W);
    const widths: number[] = [];
    for (let k = 1; k < t; k++) {
      const f = FRAMES - t + k;
      // Of the three edges (inside the outgoing picture, between the two, inside the incoming one), the one
      // nearest the centre: a blur is measured whole only away from the frame's sides.
      const shift = W * pushProgress(k, t);
      const edges = [
        { at: W / 2 - shift, before: levels.A1, after: levels.A2 },
        { at: W - shift, before: levels.A2, after: levels.B1 },
        { at: (3 * W) / 2 - shift, before: levels.B1, after: levels.B2 },
      ];
      const edge = edges.reduce((best, e) => (Math.abs(e.at - W / 2) < Math.abs(best.at - W / 2) ? e : best));
      const width = edgeWidth(row(f, y), W, edge.at, edge.before, edge.after);
      // A Gaussian's 10 %–90 % width is 2.56 sigmas.
      expect(width / (2.56 * (sigmas[k] as number))).toBeGreaterThan(0.8);
      expect(width / (2.56 * (sigmas[k] as number))).toBeLessThan(1.25);
      widths.push(width);
      // The dark band's top edge stays sharp: the blur is horizontal only.
      const x = Math.round(W / 3);
      const above = row(f, Math.round(BAND_TOP - 40))(x);
      const below = row(f, H - 10)(x);
      expect(edgeWidth(column(f, x), H, BAND_TOP, above, below)).toBeLessThanOrEqual(3);
    }
    const middle = widths[t / 2 - 1] as number;
    expect(middle).toBe(Math.max(...widths));
    // Strong at the middle: the smear spans more than a sixth of the frame.
    expect(middle).toBeGreaterThan(W / 6);
    expect(widths[0]).toBeLessThan(middle / 2);
  });
});
