/**
 * Image → video (decision "Prompted camera moves"): the prompt's motion words in English, Chinese and Portuguese,
 * the camera's path, and the rendered clip measured as the ad renderer's is (flow.ts): one speed within each
 * move's steady part (displacement CV ≤ 15 %), sub-pixel, no repeated frame; and a parallax whose subject moves
 * against its background.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cameraMovesOf, cameraPath, IMAGE_VIDEO_FPS, imageToVideo, locateTools, movesByContent } from '../src/index.js';
import { pushPull, showsCutEdge } from '../src/render/clip/depthPlanes.js';
import { RAMP_SECONDS } from '../src/render/easing.js';
import { displacements, patchShift, readLuma, steadiness, texture } from './flow.js';

const tools = locateTools();
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-image-motion-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const kinds = (prompt: string) => cameraMovesOf(prompt).map((m) => `${m.kind}/${m.speed}`);

describe('the motion words of a prompt', () => {
  it('reads English: moves, directions, speed, several in order', () => {
    expect(kinds('zoom in slowly')).toEqual(['zoom-in/slow']);
    expect(kinds('A sneaker on a floor, zoom in then pan left')).toEqual(['zoom-in/normal', 'pan-left/normal']);
    expect(kinds('slowly zoom in, then pan left')).toEqual(['zoom-in/slow', 'pan-left/slow']);
    expect(kinds('fast pan to the right, then tilt down')).toEqual(['pan-right/fast', 'pan-down/fast']);
    expect(kinds('Slow orbit around the bottle')).toEqual(['orbit-right/slow']);
    expect(kinds('pull back quickly')).toEqual(['zoom-out/fast']);
    expect(kinds('dolly out, then a gentle parallax')).toEqual(['dolly-out/normal', 'parallax/slow']);
    expect(kinds('pan up and zoom out')).toEqual(['pan-up/normal', 'zoom-out/normal']);
    expect(kinds('move the camera left')).toEqual(['pan-left/normal']);
    expect(kinds('the product moves you')).toEqual([]);
  });

  it('reads Chinese', () => {
    expect(kinds('镜头缓慢推近')).toEqual(['zoom-in/slow']);
    expect(kinds('先推近，然后向左平移')).toEqual(['zoom-in/normal', 'pan-left/normal']);
    expect(kinds('快速拉远')).toEqual(['zoom-out/fast']);
    expect(kinds('镜头环绕产品')).toEqual(['orbit-right/normal']);
    expect(kinds('视差效果')).toEqual(['parallax/normal']);
    expect(kinds('镜头向下摇')).toEqual(['pan-down/normal']);
    expect(kinds('镜头左移，然后向上')).toEqual(['pan-left/normal', 'pan-up/normal']);
  });

  it('reads Portuguese', () => {
    expect(kinds('zoom lento para dentro')).toEqual(['zoom-in/slow']);
    expect(kinds('panorâmica para a esquerda')).toEqual(['pan-left/normal']);
    expect(kinds('zoom para fora e depois panorâmica para a direita rápida')).toEqual(['zoom-out/normal', 'pan-right/fast']);
    expect(kinds('câmera em órbita ao redor do tênis')).toEqual(['orbit-right/normal']);
    expect(kinds('efeito de paralaxe suave')).toEqual(['parallax/slow']);
    expect(kinds('inclinação para cima')).toEqual(['pan-up/normal']);
    expect(kinds('mover a câmera para a direita')).toEqual(['pan-right/normal']);
  });

  it('answers no move for a prompt without motion words, and keeps at most four', () => {
    expect(cameraMovesOf('a red sneaker on a white floor')).toEqual([]);
    expect(cameraMovesOf('一双红色的运动鞋')).toEqual([]);
    expect(cameraMovesOf(undefined)).toEqual([]);
    expect(cameraMovesOf('zoom in, pan left, pan up, zoom out, pan right')).toHaveLength(4);
  });
});

describe('the camera path', () => {
  const still = { width: 806, height: 1076 };
  const frame = { width: 720, height: 960 };
  const inside = (v: { zoom: number; x: number; y: number }) => {
    const w = (still.width * 0.999) / v.zoom;
    const h = (w * frame.height) / frame.width;
    return Math.abs(v.x) + w / 2 <= still.width / 2 + 1e-6 && Math.abs(v.y) + h / 2 <= still.height / 2 + 1e-6;
  };

  it('keeps the background window inside the still through several moves, each starting where the last stopped', () => {
    const keys = cameraPath(cameraMovesOf('zoom in then pan left then pan down fast'), 10, still, frame, false);
    expect(keys).toHaveLength(4);
    for (const k of keys) expect(inside(k.back)).toBe(true);
    expect((keys[1]?.back.zoom as number) / (keys[0]?.back.zoom as number)).toBeGreaterThan(1.1);
    expect(keys[2]?.back.x).toBeLessThan(keys[1]?.back.x as number);
    expect(keys[2]?.back.zoom).toBe(keys[1]?.back.zoom);
    expect(keys[3]?.back.y).toBeGreaterThan(keys[2]?.back.y as number);
  });

  it('moves the subject more than its background in a parallax or dolly, and holds it in an orbit', () => {
    const parallax = cameraPath([{ kind: 'parallax', speed: 'normal' }], 5, still, frame, true);
    const travel = (plane: 'back' | 'front') => (parallax[1]?.[plane].x as number) - (parallax[0]?.[plane].x as number);
    expect(travel('front')).toBeGreaterThan(2 * travel('back'));
    expect(travel('back')).toBeGreaterThan(0);
    const dolly = cameraPath([{ kind: 'dolly-in', speed: 'normal' }], 5, still, frame, true);
    const grew = (plane: 'back' | 'front') => (dolly[1]?.[plane].zoom as number) / (dolly[0]?.[plane].zoom as number);
    expect(grew('front')).toBeGreaterThan(grew('back') ** 2);
    const orbit = cameraPath([{ kind: 'orbit-left', speed: 'normal' }], 5, still, frame, true);
    expect(orbit[1]?.front.x).toBe(orbit[0]?.front.x);
    expect(orbit[1]?.back.x).toBeLessThan(orbit[0]?.back.x as number);
    // Without a subject plane, the same moves are flat.
    const flat = cameraPath([{ kind: 'parallax', speed: 'normal' }], 5, still, frame, false);
    expect(flat[1]?.front).toEqual(flat[1]?.back);
  });

  it('finds where a subject the photo cuts would show its cut edge: such a clip is made flat', () => {
    const none = { left: false, top: false, right: false, bottom: false };
    const path = (prompt: string) => cameraPath(cameraMovesOf(prompt), 5, still, frame, true);
    // A person cut at the waist: a sideways parallax keeps the waist below the frame, a dolly-out shrinks it into view.
    expect(showsCutEdge(path('parallax'), { ...none, bottom: true }, still, frame)).toBe(false);
    expect(showsCutEdge(path('dolly out'), { ...none, bottom: true }, still, frame)).toBe(true);
    expect(showsCutEdge(path('dolly in'), { ...none, bottom: true }, still, frame)).toBe(false);
    // Cut at its left side, a parallax slides the cut into the frame; whole, nothing shows.
    expect(showsCutEdge(path('parallax'), { ...none, left: true }, still, frame)).toBe(true);
    expect(showsCutEdge(path('dolly out then parallax'), none, still, frame)).toBe(false);
  });

  it('chooses by content without motion words: a pan along a wide frame, a parallax off centre, else a push-in', () => {
    const box = (left: number, right: number) => ({ box: { left, right, top: 0.2, bottom: 0.8 } });
    expect(movesByContent({ width: 960, height: 540 }, null)[0]?.kind).toBe('pan-right');
    expect(movesByContent({ width: 720, height: 960 }, box(0.05, 0.45))[0]?.kind).toBe('parallax');
    expect(movesByContent({ width: 720, height: 960 }, box(0.3, 0.7))[0]?.kind).toBe('zoom-in');
    expect(movesByContent({ width: 720, height: 720 }, null)[0]?.kind).toBe('zoom-in');
  });

  it('fills a hole from its rim: push–pull takes the surrounding colour, not black', () => {
    const width = 40;
    const height = 30;
    const colour = new Float32Array(width * height * 3);
    const weight = new Float32Array(width * height);
    for (let i = 0; i < width * height; i++) {
      const x = i % width;
      const hole = x > 10 && x < 30;
      weight[i] = hole ? 0 : 1;
      // Red on the left, blue on the right.
      if (!hole) colour.set(x <= 10 ? [200, 0, 0] : [0, 0, 200], i * 3);
    }
    const out = pushPull(colour, weight, width, height);
    const at = (x: number, y: number) => Array.from(out.subarray((y * width + x) * 3, (y * width + x) * 3 + 3));
    expect(at(11, 15)[0]).toBeGreaterThan(120);
    expect(at(28, 15)[2]).toBeGreaterThan(120);
    expect(at(5, 5)).toEqual([200, 0, 0]);
  });
});

describe('a rendered clip', () => {
  const frame = { width: 540, height: 720 };
  let still: string;
  beforeAll(async () => {
    still = join(dir, 'texture.jpg');
    await texture(still, 1200, 1600);
  }, 60_000);

  it.each([
    ['pan right', 1],
    ['zoom in', 1],
    ['zoom in then pan left', 2],
  ] as const)(
    '"%s": each move at one speed, sub-pixel, with no repeated frame, at the clip frame rate',
    { timeout: 180_000 },
    async (prompt, count) => {
      const out = join(dir, `${prompt.replace(/\W/g, '-')}.mp4`);
      const made = await imageToVideo(still, { seconds: 5, ...frame, prompt, tools }, out);
      expect(made.moves).toHaveLength(count);
      const luma = readLuma(out, frame.width, frame.height);
      expect(luma.frames).toHaveLength(5 * IMAGE_VIDEO_FPS);
      const moves = displacements(luma);
      const ramp = Math.round(RAMP_SECONDS * IMAGE_VIDEO_FPS);
      for (let i = 0; i < count; i++) {
        const from = Math.round((i * (luma.frames.length - 1)) / count) + ramp;
        const to = Math.round(((i + 1) * (luma.frames.length - 1)) / count) - ramp;
        const { mean, cv, repeats, frames } = steadiness(moves, from, to);
        console.log(
          `${prompt} (move ${i + 1}): ${frames} frames, ${mean.toFixed(3)} px/frame, CV ${(cv * 100).toFixed(1)} %, ${repeats} repeated`,
        );
        expect(mean).toBeGreaterThan(0.2);
        expect(cv).toBeLessThanOrEqual(0.15);
        expect(repeats).toBe(0);
      }
    },
  );

  it('parallax: the cut-out subject travels farther than its background, which fills in behind it', { timeout: 180_000 }, async () => {
    // A dark bottle in the middle-left of a textured, lighter backdrop: what the cut-out model takes for a subject.
    const backdrop = join(dir, 'backdrop.jpg');
    await texture(backdrop, 810, 1080);
    const bottle = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="810" height="1080"><rect x="170" y="300" width="230" height="560" rx="60" fill="#1d4e89"/><rect x="235" y="210" width="100" height="110" rx="14" fill="#222"/><text x="285" y="600" font-size="52" font-family="sans-serif" text-anchor="middle" fill="#fff">AQUA</text></svg>`,
    );
    const picture = join(dir, 'bottle.jpg');
    await sharp(backdrop)
      .modulate({ brightness: 1.25 })
      .composite([{ input: bottle }])
      .jpeg({ quality: 92 })
      .toFile(picture);
    const out = join(dir, 'parallax.mp4');
    const made = await imageToVideo(picture, { seconds: 5, ...frame, prompt: 'parallax', tools }, out);
    expect(made.moves.map((m) => m.kind)).toEqual(['parallax']);
    const { frames, width } = readLuma(out, frame.width, frame.height);
    // Frame by frame, the shift on the bottle's body and on the backdrop at the right.
    const shifts = (x: number, y: number) =>
      frames.slice(1).map((f, i) => patchShift(frames[i] as Float32Array, f as Float32Array, width, x, y, 24)[0]);
    const travel = (moves: number[]) => Math.abs(moves.reduce((a, b) => a + b, 0));
    const subjectMoves = shifts(Math.round(frame.width * 0.35), Math.round(frame.height * 0.55));
    const backgroundMoves = shifts(Math.round(frame.width * 0.85), Math.round(frame.height * 0.15));
    const subject = travel(subjectMoves);
    const background = travel(backgroundMoves);
    console.log(`parallax: subject ${subject.toFixed(1)} px, background ${background.toFixed(1)} px`);
    expect(background).toBeGreaterThan(5);
    expect(subject).toBeGreaterThan(background * 2);
    // Each plane at one speed through the steady part, sub-pixel, never standing still for a frame (the
    // background is resampled once and panned from shifted copies; the subject is resampled every frame).
    const ramp = Math.round(RAMP_SECONDS * IMAGE_VIDEO_FPS);
    for (const [plane, moves] of [
      ['subject', subjectMoves],
      ['background', backgroundMoves],
    ] as const) {
      const { mean, cv, repeats } = steadiness(
        moves.map((m) => Math.abs(m)),
        ramp,
        moves.length - ramp,
      );
      console.log(`parallax ${plane}: ${mean.toFixed(3)} px/frame, CV ${(cv * 100).toFixed(1)} %, ${repeats} repeated`);
      expect(cv).toBeLessThanOrEqual(0.15);
      expect(repeats).toBe(0);
    }
  });

  it('parallax on a studio backdrop: the backdrop the subject uncovers shows no outline of it', { timeout: 180_000 }, async () => {
    // Seen once on every real photo: the hole behind the subject filled only up to its edge, so its dark fringe
    // stayed in the background plane and a ghost outline slid out from behind it.
    const picture = join(dir, 'studio-bottle.jpg');
    await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="810" height="1080"><defs><radialGradient id="g" cx="50%" cy="40%" r="80%"><stop offset="0" stop-color="#e4e4e4"/><stop offset="1" stop-color="#c8c8c8"/></radialGradient></defs><rect width="810" height="1080" fill="url(#g)"/><rect x="170" y="300" width="230" height="560" rx="60" fill="#1d3a5c"/><rect x="235" y="210" width="100" height="110" rx="14" fill="#222"/></svg>`,
      ),
    )
      .jpeg({ quality: 92 })
      .toFile(picture);
    const out = join(dir, 'studio-parallax.mp4');
    await imageToVideo(picture, { seconds: 5, ...frame, motion: 'parallax', tools }, out);
    const { frames, width } = readLuma(out, frame.width, frame.height);
    const first = frames[0] as Float32Array;
    const last = frames[frames.length - 1] as Float32Array;
    const dark = (f: Float32Array, x: number, y: number) => (f[y * width + x] as number) < 120;
    // Along the body's rows: the columns it covered at the start and has left by the end, 6 px clear of it now.
    let darkest = 255;
    let lightest = 0;
    let uncovered = 0;
    for (let y = Math.round(frame.height * 0.4); y < Math.round(frame.height * 0.7); y += 4) {
      for (let x = 6; x < width - 6; x++) {
        if (!dark(first, x, y) || [-6, -3, 0, 3, 6].some((d) => dark(last, x + d, y))) continue;
        uncovered++;
        darkest = Math.min(darkest, last[y * width + x] as number);
        lightest = Math.max(lightest, last[y * width + x] as number);
      }
    }
    console.log(`parallax on a studio backdrop: ${uncovered} px uncovered, luma ${darkest.toFixed(0)}–${lightest.toFixed(0)}`);
    expect(uncovered).toBeGreaterThan(100);
    // The backdrop is 200–228 in luma: what is uncovered stays within it (the ghost's line measured 177).
    expect(darkest).toBeGreaterThanOrEqual(200);
  });

  it('parallax on a wide product on white in a tall frame: over its own backdrop, carried outward, never a set', {
    timeout: 180_000,
  }, async () => {
    // A wide product on white, in a tall frame: no crop holds it. The clip keeps the photo, its white carried up
    // and down to the frame's shape, and the product, a plane of its own, moves against it (decision "Image to
    // video moves the photo"; it used to stand on a studio set framing drew).
    const picture = join(dir, 'wide-product.jpg');
    await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="800"><rect width="1600" height="800" fill="#fbfbfb"/><rect x="400" y="240" width="800" height="320" rx="40" fill="#1d3a5c"/><rect x="470" y="300" width="160" height="200" fill="#d94f30"/></svg>`,
      ),
    )
      .jpeg({ quality: 92 })
      .toFile(picture);
    const tall = { width: 360, height: 640 };
    const out = join(dir, 'wide-parallax.mp4');
    const made = await imageToVideo(picture, { seconds: 5, ...tall, motion: 'parallax', tools }, out);
    expect(made.moves.map((m) => m.kind)).toEqual(['parallax']);
    const { frames, width } = readLuma(out, tall.width, tall.height);
    expect(frames).toHaveLength(5 * IMAGE_VIDEO_FPS);
    const at = (f: Float32Array, x: number, y: number) => f[y * width + x] as number;
    const first = frames[0] as Float32Array;
    const last = frames[frames.length - 1] as Float32Array;
    const rows = [...Array(tall.height).keys()].filter((y) => [...Array(width).keys()].filter((x) => at(first, x, y) < 90).length > 40);
    const middle = rows[Math.floor(rows.length / 2)] as number;
    const leftEdge = (f: Float32Array) => [...Array(width).keys()].find((x) => at(f, x, middle) < 90) as number;
    const [from, to] = [leftEdge(first), leftEdge(last)];
    // The backdrop above and below the product is the photo's white, at both ends of the clip.
    const lightest = (f: Float32Array, y0: number, y1: number) => {
      let least = 255;
      for (let y = y0; y < y1; y += 3) for (let x = 0; x < width; x += 3) least = Math.min(least, at(f, x, y));
      return least;
    };
    const top = Math.min(...rows);
    const bottom = Math.max(...rows);
    const above = Math.min(lightest(first, 0, top - 12), lightest(last, 0, top - 12));
    const below = Math.min(lightest(first, bottom + 12, tall.height), lightest(last, bottom + 12, tall.height));
    console.log(
      `parallax on a wide product: it moved ${to - from} px; the backdrop's darkest luma ${above.toFixed(0)} above it, ${below.toFixed(0)} below`,
    );
    expect(Math.abs(to - from)).toBeGreaterThan(20);
    expect(above).toBeGreaterThan(225);
    expect(below).toBeGreaterThan(225);
  });
});
