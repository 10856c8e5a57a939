/**
 * The cards read on any picture (decision "Readable cards"), measured on rendered frames: every template's cards
 * burnt by libass over a light, a dark and a busy photo at 540p 9:16, as the product lays them (each scene's light
 * map read from its still, the end card over the still its picture is darkened into). Each frame is rendered twice,
 * once with the type's fill made clear: the difference is the ink, the clear one what stands right around it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { luminanceOf, ratio } from '../src/imaging/contrast.js';
import { drawEndCard } from '../src/render/endCard.js';
import { filterValue } from '../src/render/filters.js';
import type { FramedSubject } from '../src/render/framing.js';
import { stillLightMap } from '../src/render/lightMap.js';
import { withMotionMargin } from '../src/render/stills.js';
import { runTool } from '../src/run.js';
import { buildCards, cardFace, cardFontsDir } from '../src/templates/cards.js';
import { TEMPLATE_IDS, TEMPLATES } from '../src/templates/catalogue.js';
import { locateTools } from '../src/tools.js';
import { CARD_BRAND, cardsTimeline, HOODIE } from './cardFixtures.js';

const tools = locateTools();
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-contrast-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FRAME = { width: 540, height: 960 };
const STILL = withMotionMargin(FRAME);
const BRAND = CARD_BRAND;
const FACTS = HOODIE;
/** The product in the frame: high in the middle, as a model's torso or a product on a sweep stands. */
const SUBJECT: FramedSubject = { left: 0.3, top: 0.12, right: 0.7, bottom: 0.4, head: false };

/** A moment of each card, after its entrance: the hook, the offer, a feature (and the ticker), the end card. */
const SCENE_TIMES = [1.0, 3.6, 6.0];
const END_TIME = 12.0;

/** A still (the frame and its motion margin) where the product stands at SUBJECT, drawn by `paint` per pixel. */
async function photo(name: string, paint: (x: number, y: number, product: boolean) => [number, number, number]) {
  const { width, height } = STILL;
  const pixels = Buffer.alloc(width * height * 3);
  const [dx, dy] = [(width - FRAME.width) / 2, (height - FRAME.height) / 2];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [fx, fy] = [(x - dx) / FRAME.width, (y - dy) / FRAME.height];
      const product = fx > SUBJECT.left && fx < SUBJECT.right && fy > SUBJECT.top && fy < SUBJECT.bottom;
      pixels.set(paint(x, y, product), (y * width + x) * 3);
    }
  }
  const file = join(dir, `${name}.jpg`);
  await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toFile(file);
  return file;
}

/** A seeded generator, so the busy photo is the same on every run. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1664525 + 1013904223) % 2 ** 32;
    return s / 2 ** 32;
  };
}

const PHOTOS = {
  // A light tee on a near-white sweep.
  light: () => photo('light', (_x, y, product) => (product ? [226, 224, 220] : [248 - Math.round(y / 120), 247, 245])),
  // A charcoal product on a dark set.
  dark: () => photo('dark', (_x, _y, product) => (product ? [52, 50, 48] : [18, 18, 20])),
  // Stripes in many colours under noise, the product a patterned block.
  busy: () => {
    const next = random(7);
    return photo('busy', (x, y, product) => {
      const band = Math.floor((x + (product ? 2 : 1) * y) / 9) % 6;
      const hue = [
        [250, 40, 40],
        [250, 240, 60],
        [30, 200, 60],
        [250, 250, 250],
        [40, 80, 240],
        [10, 10, 10],
      ][band] as number[];
      return hue.map((v) => Math.max(0, Math.min(255, v + Math.round((next() - 0.5) * 120)))) as [number, number, number];
    });
  },
};

/** The frame's middle of a still, as a PNG: what the frame shows at the middle of the still's move. */
async function frameOf(still: string, name: string): Promise<string> {
  const out = join(dir, `${name}.png`);
  const left = (STILL.width - FRAME.width) / 2;
  const top = (STILL.height - FRAME.height) / 2;
  await sharp(still).extract({ left, top, width: FRAME.width, height: FRAME.height }).png().toFile(out);
  return out;
}

/** The document with the fill of every line of type made clear: its panels, scrims, glows and boxes stay. */
const withoutInk = (ass: string) =>
  ass
    .split('\n')
    .map((line) => (line.startsWith('Dialogue:') && !line.includes('\\p1') ? line.replace(/}(?=[^{}]*$)/, '\\1a&HFF&}') : line))
    .join('\n');

/** The frames at `times` of `ass` burnt over `background`, as raw RGB. */
async function burn(ass: string, background: string, times: number[], font: Parameters<typeof cardFontsDir>[0], name: string) {
  const file = join(dir, `${name}.ass`);
  await writeFile(file, ass);
  const at = times.reduceRight((rest, t, i) => (i === times.length - 1 ? `${t}` : `if(eq(N\\,${i})\\,${t}\\,${rest})`), '');
  const pattern = join(dir, `${name}-%d.png`);
  await runTool(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-loop', '1', '-framerate', '25', '-i', background],
    '-vf',
    `setpts=(${at})/TB,ass=filename=${filterValue(file)}:fontsdir=${filterValue(cardFontsDir(font))}`,
    ...['-frames:v', String(times.length), '-vsync', 'passthrough', pattern],
  ]);
  return Promise.all(
    times.map((_, i) =>
      sharp(pattern.replace('%d', String(i + 1)))
        .removeAlpha()
        .raw()
        .toBuffer(),
    ),
  );
}

const LUMA = Float64Array.from({ length: 256 }, (_, v) => luminanceOf([v, v, v]));
const luminanceAt = (data: Buffer, i: number) =>
  0.2126 * (LUMA[data[i] as number] as number) +
  0.7152 * (LUMA[data[i + 1] as number] as number) +
  0.0722 * (LUMA[data[i + 2] as number] as number);

/**
 * The worst contrast of any piece of type in a frame (`inked`) against what stands right around it (`clear`, the
 * same frame without the type's fill): each piece is a connected patch of pixels the ink changed; its ink is its
 * most changed pixels', and it is read against the 10th-percentile worst pixel of the clear frame over the patch
 * grown by 3 px.
 */
function worstContrast(inked: Buffer, clear: Buffer): { ratio: number; x: number; y: number } {
  const { width, height } = FRAME;
  const n = width * height;
  const change = new Float32Array(n);
  for (let p = 0; p < n; p++) {
    const i = 3 * p;
    change[p] = Math.max(
      Math.abs((inked[i] as number) - (clear[i] as number)),
      Math.abs((inked[i + 1] as number) - (clear[i + 1] as number)),
      Math.abs((inked[i + 2] as number) - (clear[i + 2] as number)),
    );
  }
  const seen = new Uint8Array(n);
  let worst = { ratio: Infinity, x: 0, y: 0 };
  for (let start = 0; start < n; start++) {
    if (seen[start] || (change[start] as number) < 40) continue;
    const patch: number[] = [];
    const stack = [start];
    seen[start] = 1;
    while (stack.length) {
      const p = stack.pop() as number;
      patch.push(p);
      const [x, y] = [p % width, Math.floor(p / width)];
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const [nx, ny] = [x + dx, y + dy];
          const q = ny * width + nx;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height || seen[q] || (change[q] as number) < 40) continue;
          seen[q] = 1;
          stack.push(q);
        }
      }
    }
    // Specks, and the rule through a struck price (a line, not a letter), are not type.
    const rows = new Set(patch.map((p) => Math.floor(p / width)));
    if (patch.length < 8 || rows.size < 3) continue;
    // A letter of the sale ticker half out of the frame: its sliver at the edge is the letter's antialiased rim, not
    // its fill (libass builds differ there), and the same letter is measured whole in the frames where it is in.
    const columns = new Set(patch.map((p) => p % width));
    if ((columns.has(0) || columns.has(width - 1)) && columns.size < 4) continue;
    const strongest = [...patch].sort((a, b) => (change[b] as number) - (change[a] as number));
    const core = strongest.slice(0, Math.max(1, Math.ceil(patch.length * 0.15)));
    const inks = core.map((p) => luminanceAt(inked, 3 * p)).sort((a, b) => a - b);
    const ink = inks[Math.floor(inks.length / 2)] as number;
    const around = new Set<number>();
    for (const p of patch) {
      const [x, y] = [p % width, Math.floor(p / width)];
      for (let dy = -3; dy <= 3; dy++) {
        for (let dx = -3; dx <= 3; dx++) {
          const [nx, ny] = [x + dx, y + dy];
          if (nx >= 0 && ny >= 0 && nx < width && ny < height) around.add(ny * width + nx);
        }
      }
    }
    const ratios = [...around].map((p) => ratio(ink, luminanceAt(clear, 3 * p))).sort((a, b) => a - b);
    const tenth = ratios[Math.floor(ratios.length * 0.1)] as number;
    if (tenth < worst.ratio) worst = { ratio: tenth, x: start % width, y: Math.floor(start / width) };
  }
  return worst;
}

const overlaps = (a: { x: number; y: number; w: number; h: number }, s: FramedSubject) =>
  a.x < s.right && a.x + a.w > s.left && a.y < s.bottom && a.y + a.h > s.top;

describe('cards read on light, dark and busy photos', () => {
  it('every card’s type meets 4.5:1 against the pixels around it, and the hook and offer cards keep off the product', async () => {
    const failures: string[] = [];
    const seen: string[] = [];
    for (const [photoName, make] of Object.entries(PHOTOS)) {
      const still = await make();
      const endStill = join(dir, `${photoName}-end.jpg`);
      await drawEndCard(still, endStill, { ...STILL, brand: BRAND, template: TEMPLATES['clean-studio'] });
      const [sceneMap, endMap] = await Promise.all([stillLightMap(still, FRAME), stillLightMap(endStill, FRAME)]);
      const [sceneFrame, endFrame] = await Promise.all([frameOf(still, photoName), frameOf(endStill, `${photoName}-end`)]);
      for (const templateId of TEMPLATE_IDS) {
        const timeline = cardsTimeline(templateId);
        const template = TEMPLATES[templateId];
        const { ass, areas } = buildCards({
          timeline,
          template,
          facts: FACTS,
          brand: BRAND,
          ...FRAME,
          language: 'en',
          aiLabel: true,
          hookSubject: SUBJECT,
          offerSubject: SUBJECT,
          lightMaps: timeline.scenes.map((s) => (s.role === 'end' ? endMap : sceneMap)),
        });
        const font = cardFace(template, BRAND);
        const name = `${templateId}-${photoName}`;
        const runs = [
          { background: sceneFrame, times: SCENE_TIMES },
          { background: endFrame, times: [END_TIME] },
        ];
        for (const { background, times } of runs) {
          const [inked, clear] = await Promise.all([
            burn(ass, background, times, font, `${name}-${times[0]}`),
            burn(withoutInk(ass), background, times, font, `${name}-${times[0]}-clear`),
          ]);
          times.forEach((t, i) => {
            const worst = worstContrast(inked[i] as Buffer, clear[i] as Buffer);
            seen.push(`${name} @${t}s ${worst.ratio.toFixed(2)}`);
            if (worst.ratio < 4.5) failures.push(`${name} at ${t} s: ${worst.ratio.toFixed(2)}:1 at (${worst.x}, ${worst.y})`);
          });
        }
        // The hook (0–1.5 s) and the offer card (its scene, 2.4–4.4 s) stand clear of the product: the lowest
        // place above the captions is clear of it.
        for (const area of areas.filter((a) => a.start < 4.4 && a.end > 0.5 && a.box.w < 0.99))
          if (overlaps(area.box, SUBJECT)) failures.push(`${name}: a card at ${area.start.toFixed(2)} s covers the product`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
