/**
 * Image to video moves the photo it is given (decision "Image to video moves the photo"): on pictures drawn here (a
 * subject carrying two coloured dots, on a textured backdrop), each prompt's move in English, Chinese and
 * Portuguese is measured between the clip's first and last frames: a zoom by the distance between the dots, a pan
 * or tilt by the shift of their midpoint. And the backdrop far from the subject is the picture's own, pixel for
 * pixel, never a set drawn in its place.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_VIDEO_FPS, imageToVideo, locateTools } from '../src/index.js';

const tools = locateTools();
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-i2v-moves-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Small clips: the moves are shares of the frame, so a small frame measures them as well as a large one. */
const frame = { width: 216, height: 384 };

interface Picture {
  file: string;
  width: number;
  height: number;
  /** The subject's rectangle, picture px. */
  subject: { left: number; top: number; width: number; height: number };
}

/**
 * A picture of `width`×`height`: a beige backdrop with blurred noise and a gradient (texture everywhere, no
 * saturated red or green), and a dark blue box (the subject) with a red dot near its left end and a green one
 * near its right end.
 */
async function drawPicture(file: string, width: number, height: number, subject: Picture['subject']): Promise<Picture> {
  let seed = 4242;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const noise = Buffer.alloc(width * height);
  for (let i = 0; i < noise.length; i++) noise[i] = Math.round(random() * 255);
  const grain = await sharp(noise, { raw: { width, height, channels: 1 } })
    .blur(2.5)
    .normalise()
    .raw()
    .toBuffer();
  const backdrop = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const n = ((grain[i] as number) - 128) * 0.35 + 40 * (x / width - 0.5) - 30 * (y / height - 0.5);
      backdrop[i * 3] = Math.max(0, Math.min(255, Math.round(196 + n)));
      backdrop[i * 3 + 1] = Math.max(0, Math.min(255, Math.round(182 + n)));
      backdrop[i * 3 + 2] = Math.max(0, Math.min(255, Math.round(150 + n)));
    }
  }
  const { left, top, width: w, height: h } = subject;
  const r = Math.round(Math.min(w, h) * 0.09);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect x="${left}" y="${top}" width="${w}" height="${h}" rx="${r}" fill="#1d3a7c"/>
<rect x="${left + w * 0.3}" y="${top + h * 0.15}" width="${w * 0.4}" height="${h * 0.25}" fill="#e8e4da"/>
<circle cx="${left + w * 0.14}" cy="${top + h * 0.62}" r="${r}" fill="#ff1010"/>
<circle cx="${left + w * 0.86}" cy="${top + h * 0.62}" r="${r}" fill="#10ff10"/></svg>`;
  await sharp(backdrop, { raw: { width, height, channels: 3 } })
    .composite([{ input: Buffer.from(svg) }])
    .jpeg({ quality: 95 })
    .toFile(file);
  return { file, width, height, subject };
}

interface Rgb {
  data: Buffer;
  width: number;
  height: number;
}

/** The clip's first and last frames, RGB. */
function firstAndLast(clip: string): [Rgb, Rgb] {
  const last = 5 * IMAGE_VIDEO_FPS - 1;
  const out = spawnSync(
    tools.ffmpeg,
    [
      '-v',
      'error',
      '-i',
      clip,
      '-vf',
      `select='eq(n\\,0)+eq(n\\,${last})'`,
      // -vsync, not 5.x's -fps_mode: the tests run on the npm build too (decision "Both ffmpeg builds").
      '-vsync',
      'passthrough',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { maxBuffer: 1 << 26 },
  );
  if (out.status !== 0) throw new Error(String(out.stderr));
  const size = frame.width * frame.height * 3;
  expect(out.stdout.length).toBe(2 * size);
  return [0, 1].map((i) => ({ data: out.stdout.subarray(i * size, (i + 1) * size), ...frame })) as [Rgb, Rgb];
}

async function readRgb(file: string): Promise<Rgb> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The centroids of the red and the green dot. */
function dots({ data, width, height }: Rgb) {
  const sums = { red: [0, 0, 0], green: [0, 0, 0] };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const [r, g, b] = [data[i] as number, data[i + 1] as number, data[i + 2] as number];
      const dot = r > 170 && g < 100 && b < 100 ? sums.red : g > 170 && r < 110 && b < 110 ? sums.green : null;
      if (!dot) continue;
      dot[0] = (dot[0] as number) + x;
      dot[1] = (dot[1] as number) + y;
      dot[2] = (dot[2] as number) + 1;
    }
  }
  const centroid = (s: number[]) => {
    expect(s[2], 'a dot is in the frame').toBeGreaterThan(8);
    return { x: (s[0] as number) / (s[2] as number), y: (s[1] as number) / (s[2] as number) };
  };
  const red = centroid(sums.red);
  const green = centroid(sums.green);
  return {
    red,
    green,
    distance: Math.hypot(green.x - red.x, green.y - red.y),
    middle: { x: (red.x + green.x) / 2, y: (red.y + green.y) / 2 },
  };
}

/** The motion between the first and last frames: the scale (last / first) and the shift of the dots' midpoint (px). */
function motionOf(clip: string) {
  const [a, b] = firstAndLast(clip).map(dots) as [ReturnType<typeof dots>, ReturnType<typeof dots>];
  return { scale: b.distance / a.distance, dx: b.middle.x - a.middle.x, dy: b.middle.y - a.middle.y };
}

/**
 * How far the frame's backdrop is from the picture's (mean absolute difference per channel, 0–255), far from the
 * subject: the frame is mapped back onto the picture by its two dots (a scale and an offset), the picture
 * resampled to the frame's scale, and both softened a little so resampling and coding do not count.
 */
async function backdropDifference(picture: Picture, shown: Rgb): Promise<{ difference: number; compared: number }> {
  const source = dots(await readRgb(picture.file));
  const seen = dots(shown);
  const scale = seen.distance / source.distance;
  const scaled = await readRgb(
    await sharp(picture.file)
      .resize(Math.round(picture.width * scale), Math.round(picture.height * scale), { fit: 'fill' })
      .blur(1)
      .png()
      .toFile(join(dir, 'scaled.png'))
      .then(() => join(dir, 'scaled.png')),
  );
  const soft = await readRgb(
    await sharp(shown.data, { raw: { width: shown.width, height: shown.height, channels: 3 } })
      .blur(1)
      .png()
      .toFile(join(dir, 'shown.png'))
      .then(() => join(dir, 'shown.png')),
  );
  const { subject } = picture;
  const clear = picture.width * 0.08;
  let total = 0;
  let compared = 0;
  for (let v = 2; v < shown.height - 2; v++) {
    for (let u = 2; u < shown.width - 2; u++) {
      // Where this frame pixel is in the picture.
      const x = source.red.x + (u - seen.red.x) / scale;
      const y = source.red.y + (v - seen.red.y) / scale;
      if (x < 4 || y < 4 || x > picture.width - 4 || y > picture.height - 4) continue;
      const near =
        x > subject.left - clear &&
        x < subject.left + subject.width + clear &&
        y > subject.top - clear &&
        y < subject.top + subject.height + clear;
      if (near) continue;
      const sx = Math.round(x * scale);
      const sy = Math.round(y * scale);
      if (sx < 0 || sy < 0 || sx >= scaled.width || sy >= scaled.height) continue;
      for (let c = 0; c < 3; c++) {
        total += Math.abs((soft.data[(v * shown.width + u) * 3 + c] as number) - (scaled.data[(sy * scaled.width + sx) * 3 + c] as number));
      }
      compared++;
    }
  }
  return { difference: total / Math.max(1, compared * 3), compared };
}

type Expected = 'zoom-in' | 'zoom-out' | 'content-right' | 'content-left' | 'content-down' | 'content-up';

const PROMPTS: Array<[string, Expected]> = [
  ['slow zoom in', 'zoom-in'],
  ['zoom out', 'zoom-out'],
  ['pan left', 'content-right'],
  ['pan right', 'content-left'],
  ['tilt up', 'content-down'],
  ['镜头缓慢推近', 'zoom-in'],
  ['拉远', 'zoom-out'],
  ['镜头左移', 'content-right'],
  ['向右摇', 'content-left'],
  ['镜头向上', 'content-down'],
  ['aproximar lentamente', 'zoom-in'],
  ['afastar a câmera', 'zoom-out'],
  ['panorâmica para a esquerda', 'content-right'],
  ['panorâmica para a direita', 'content-left'],
  ['inclinação para baixo', 'content-up'],
];

describe('image to video makes the move the prompt names, over the picture as it is', () => {
  let tall: Picture;
  let square: Picture;
  beforeAll(async () => {
    // The frame's own shape: the clip is the whole picture.
    tall = await drawPicture(join(dir, 'tall.jpg'), 288, 512, { left: 70, top: 176, width: 148, height: 160 });
    // A square picture with a wide subject, in a tall frame: no crop at the frame's shape holds the subject
    // (framing would have stood it on a set).
    square = await drawPicture(join(dir, 'square.jpg'), 420, 420, { left: 70, top: 154, width: 280, height: 120 });
  });

  it.each(PROMPTS)('"%s": %s', { timeout: 60_000 }, async (prompt, expected) => {
    const out = join(dir, `${Buffer.from(prompt).toString('hex').slice(0, 40)}.mp4`);
    await imageToVideo(tall.file, { seconds: 5, ...frame, prompt, tools }, out);
    const { scale, dx, dy } = motionOf(out);
    console.log(`${prompt}: scale ${scale.toFixed(3)}, shift ${dx.toFixed(1)}, ${dy.toFixed(1)} px`);
    const step = frame.width * 0.08;
    switch (expected) {
      case 'zoom-in':
        expect(scale).toBeGreaterThan(1.08);
        break;
      case 'zoom-out':
        expect(scale).toBeLessThan(1 / 1.08);
        break;
      case 'content-right':
        expect(dx).toBeGreaterThan(step);
        break;
      case 'content-left':
        expect(dx).toBeLessThan(-step);
        break;
      case 'content-down':
        expect(dy).toBeGreaterThan(step);
        break;
      case 'content-up':
        expect(dy).toBeLessThan(-step);
        break;
    }
    if (expected.startsWith('content')) {
      // A pan neither zooms nor strays off its axis.
      expect(Math.abs(scale - 1)).toBeLessThan(0.02);
      expect(Math.abs(expected === 'content-right' || expected === 'content-left' ? dy : dx)).toBeLessThan(2);
    } else {
      // A zoom closes in on the subject, which holds its place (it is in the middle here).
      expect(Math.hypot(dx, dy)).toBeLessThan(4);
    }
  });

  it.each([
    ["of the frame's shape", () => tall],
    ['square, its subject too wide for a crop', () => square],
  ] as const)(
    'keeps the backdrop of a picture %s: far from the subject, it is the picture itself',
    { timeout: 60_000 },
    async (_, pictureOf) => {
      const picture = pictureOf();
      const out = join(dir, `backdrop-${picture.width}.mp4`);
      await imageToVideo(picture.file, { seconds: 5, ...frame, prompt: 'slow zoom in', tools }, out);
      const [first, last] = firstAndLast(out);
      const { difference, compared } = await backdropDifference(picture, first);
      console.log(`${picture.width}×${picture.height}: backdrop differs by ${difference.toFixed(1)} levels over ${compared} px`);
      // A good share of the frame is backdrop, and it is the picture's: a set (a blurred, darkened copy) measured 69.
      expect(compared).toBeGreaterThan(frame.width * frame.height * 0.15);
      expect(difference).toBeLessThan(6);
      // And the subject's two ends are in the frame at both ends of the clip.
      for (const shown of [first, last]) {
        const { red, green } = dots(shown);
        for (const p of [red, green]) {
          expect(p.x).toBeGreaterThan(4);
          expect(p.x).toBeLessThan(frame.width - 4);
        }
      }
    },
  );
});
