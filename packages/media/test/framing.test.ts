import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { NEUTRAL_GRADE } from '../src/imaging/grade.js';
import { type Subject, saliencyBox } from '../src/imaging/subject.js';
import { chooseFraming, drawFramed } from '../src/render/framing.js';
import { MOTION_MARGIN, prepareStill, stillPlanes } from '../src/render/stills.js';
import { focusOn, videoFocus } from '../src/render/videoFraming.js';
import { runTool } from '../src/run.js';
import { locateTools } from '../src/tools.js';
import { bandsOf } from './bands.js';
import { productPhoto } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'reelsmith-framing-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = (name: string) => join(dir, name);

const FRAMES = { '9:16': 9 / 16, '1:1': 1, '16:9': 16 / 9 } as const;
const SHAPES = { '3:4': [1200, 1600], '4:5': [1080, 1350], '1:1': [1200, 1200], '16:9': [1600, 900], '2.35:1': [1880, 800] } as const;

/** A subject of a `width`×`height` photo in the box [left, top, right, bottom] (shares of the photo). */
const subjectAt = (
  width: number,
  height: number,
  [left, top, right, bottom]: number[],
  area: number,
  from: Subject['from'] = 'model',
): Subject => ({
  width,
  height,
  box: { left: left ?? 0, top: top ?? 0, right: right ?? 1, bottom: bottom ?? 1 },
  from,
  area,
  backdrop: null,
});

describe('chooseFraming', () => {
  /** Subjects of every size and place that are products (not the scene), in photos of every shape. */
  const cases = Object.entries(SHAPES).flatMap(([shape, [width, height]]) =>
    [0.1, 0.25, 0.4, 0.6].flatMap((size) =>
      [0, 0.2, 0.5, 0.8, 1].flatMap((along) =>
        [0.3, 0.6].map((tall) => {
          const w = size;
          const h = Math.min(0.95, size * tall * 3);
          const left = (1 - w) * along;
          const top = (1 - h) * 0.6;
          return { shape, subject: subjectAt(width, height, [left, top, left + w, top + h], w * h * 0.6) };
        }),
      ),
    ),
  );

  it('keeps the whole subject inside every crop, with room for the still to move, at every frame shape', () => {
    let crops = 0;
    for (const { subject } of cases) {
      for (const ratio of Object.values(FRAMES)) {
        const treatment = chooseFraming(subject, ratio, MOTION_MARGIN);
        if (treatment.kind !== 'crop') continue;
        crops++;
        const { crop } = treatment;
        const { width, height, box } = subject;
        expect(crop.left).toBeGreaterThanOrEqual(0);
        expect(crop.top).toBeGreaterThanOrEqual(0);
        expect(crop.left + crop.width).toBeLessThanOrEqual(width);
        expect(crop.top + crop.height).toBeLessThanOrEqual(height);
        expect(Math.abs(crop.width / crop.height - ratio)).toBeLessThan(0.01);
        // Inside the part of the crop every move shows (1 / MOTION_MARGIN of it), unless the photo cuts it.
        const room = (1 - 1 / MOTION_MARGIN) / 2;
        if (box.left > 0.015) expect(box.left * width).toBeGreaterThanOrEqual(crop.left + crop.width * room - 1);
        if (box.right < 0.985) expect(box.right * width).toBeLessThanOrEqual(crop.left + crop.width * (1 - room) + 1);
        if (box.top > 0.015) expect(box.top * height).toBeGreaterThanOrEqual(crop.top + crop.height * room - 1);
        if (box.bottom < 0.985) expect(box.bottom * height).toBeLessThanOrEqual(crop.top + crop.height * (1 - room) + 1);
      }
    }
    expect(crops).toBeGreaterThan(cases.length / 2);
  });

  it('uses a photo of the frame shape as it is, and puts a product no crop holds on a set', () => {
    const square = subjectAt(1000, 1000, [0.1, 0.1, 0.9, 0.9], 0.4);
    expect(chooseFraming(square, 1, MOTION_MARGIN)).toEqual({ kind: 'as-is' });
    expect(chooseFraming(square, 9 / 16, MOTION_MARGIN)).toEqual({ kind: 'set' });
    // A small product in the middle of a very wide banner: a 9:16 crop would enlarge a sliver 4 times.
    const banner = subjectAt(1880, 800, [0.45, 0.3, 0.55, 0.7], 0.03);
    expect(chooseFraming(banner, 9 / 16, MOTION_MARGIN)).toEqual({ kind: 'set' });
    expect(chooseFraming(banner, 16 / 9, MOTION_MARGIN).kind).toBe('crop');
  });

  it('crops a scene (no product found, or one filling the photo) about its middle rather than cutting it out', () => {
    const scene = subjectAt(1600, 900, [0.05, 0.1, 0.95, 0.9], 0.7, 'saliency');
    const treatment = chooseFraming(scene, 9 / 16, MOTION_MARGIN);
    expect(treatment).toEqual({ kind: 'crop', crop: { left: 547, top: 0, width: 506, height: 900 } });
  });
  it('stands what the photo cuts top and bottom (legs in jeans) on a set spanning the frame, but crops a close-up', () => {
    const legs = subjectAt(1200, 1600, [0.3, 0, 0.7, 1], 0.3);
    expect(chooseFraming(legs, 16 / 9, MOTION_MARGIN)).toEqual({ kind: 'set' });
    // A cuff the photo cuts at its left and bottom edges, and specks the model kept of a zip: no object to stand up.
    const cuff = subjectAt(1080, 1340, [0, 0.04, 0.59, 1], 0.2);
    expect(chooseFraming(cuff, 16 / 9, MOTION_MARGIN).kind).toBe('crop');
    const specks = subjectAt(1080, 1340, [0.2, 0.2, 0.8, 1], 0.02);
    expect(chooseFraming(specks, 16 / 9, MOTION_MARGIN).kind).toBe('crop');
  });
});

describe('saliencyBox', () => {
  it('finds what stands out of a plain or softly lit backdrop', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="800" height="600" fill="#9aa"/>
<rect x="500" y="150" width="160" height="300" fill="#c33"/></svg>`;
    const { box } = await saliencyBox(await sharp(Buffer.from(svg)).png().toBuffer());
    expect(box.left).toBeLessThanOrEqual(500 / 800 + 0.02);
    expect(box.right).toBeGreaterThanOrEqual(660 / 800 - 0.02);
    expect(box.top).toBeLessThanOrEqual(150 / 600 + 0.02);
    expect(box.bottom).toBeGreaterThanOrEqual(450 / 600 - 0.02);
    expect(box.left).toBeGreaterThan(0.5);
  });
});

describe('stills', () => {
  it('finds the bands of a photo fitted whole on a flat colour (the detector itself)', async () => {
    const photo = await productPhoto(1880, 800);
    const banded = await sharp(photo).resize(270, 480, { fit: 'contain', background: '#808080' }).png().toBuffer();
    expect(await bandsOf(banded)).toEqual(expect.arrayContaining([expect.stringMatching(/^top/), expect.stringMatching(/^bottom/)]));
    expect(await bandsOf(await sharp(photo).resize(270, 480, { fit: 'cover' }).png().toBuffer())).toEqual([]);
  });

  it.each(Object.keys(SHAPES))(
    'fills every frame shape with picture, no band, from a %s photo',
    async (shape) => {
      const [width, height] = SHAPES[shape as keyof typeof SHAPES];
      const file = path(`photo-${shape.replace(':', 'x')}.jpg`);
      await sharp(await productPhoto(width, height)).toFile(file);
      for (const [name, ratio] of Object.entries(FRAMES)) {
        const frame = ratio < 1 ? { width: 270, height: 480 } : { width: Math.round(270 * ratio), height: 270 };
        const still = await prepareStill(file, frame.width, frame.height, path('cache'), { grade: NEUTRAL_GRADE });
        expect(await bandsOf(still), `${shape} photo in a ${name} frame`).toEqual([]);
      }
    },
    60_000,
  );

  it('stands a studio shot on white that no crop holds on a studio set, with no band either', async () => {
    const file = path('white-banner.jpg');
    await sharp(await productPhoto(1880, 800, { white: true })).toFile(file);
    const out = path('white-banner-9x16.jpg');
    const treatment = await drawFramed(file, 302, 538, out, path('white-banner'), MOTION_MARGIN, { grade: NEUTRAL_GRADE });
    expect(treatment.kind).toBe('set');
    expect(await bandsOf(out)).toEqual([]);
    // The product is there, large: below its label the frame holds its blue.
    const patch = await sharp(out).extract({ left: 100, top: 330, width: 20, height: 40 }).png().toBuffer();
    const [red, , blue] = (await sharp(patch).stats()).channels;
    expect(blue?.mean).toBeGreaterThan((red?.mean ?? 0) + 40);
  }, 60_000);

  it('writes a studio sweep in its planes only when asked (image to video), never for an ad (decision "Parallax")', async () => {
    const file = path('white-banner-planes.jpg');
    await sharp(await productPhoto(1880, 800, { white: true })).toFile(file);
    const ad = await prepareStill(file, 302, 538, path('cache-ad'), { grade: NEUTRAL_GRADE });
    expect(await stillPlanes(ad)).toBeUndefined();
    const clip = await prepareStill(file, 302, 538, path('cache-clip'), { grade: NEUTRAL_GRADE }, { sweepPlanes: true });
    const planes = await stillPlanes(clip);
    expect(planes).toBeDefined();
    // The planes are the still taken apart: the product's over the background gives the still back.
    const product = await sharp(planes?.product as string).metadata();
    const composed = await sharp(planes?.background as string)
      .composite([{ input: planes?.product as string, left: planes?.left as number, top: planes?.top as number }])
      .png()
      .toBuffer();
    const whole = await sharp(composed).removeAlpha().raw().toBuffer();
    const still = await sharp(clip).raw().toBuffer();
    let diff = 0;
    for (let i = 0; i < still.length; i++) diff += Math.abs((still[i] as number) - (whole[i] as number));
    expect(product.width).toBeGreaterThan(100);
    expect(diff / still.length).toBeLessThan(1.5);
  }, 60_000);

  it('stands a transparent product picture on white, not on the black its empty pixels hold', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><rect x="250" y="150" width="500" height="700" rx="60" fill="#c33"/>
<rect x="300" y="350" width="400" height="150" fill="#fff"/></svg>`;
    const file = path('transparent.png');
    await sharp(Buffer.from(svg)).png().toFile(file);
    const out = path('transparent-9x16.jpg');
    expect((await drawFramed(file, 302, 538, out, path('transparent'), MOTION_MARGIN, { grade: NEUTRAL_GRADE })).kind).toBe('set');
    expect(await bandsOf(out)).toEqual([]);
    const top = await sharp(out).extract({ left: 100, top: 10, width: 100, height: 20 }).png().toBuffer();
    expect((await sharp(top).stats()).channels[0]?.mean).toBeGreaterThan(200);
  }, 60_000);

  it('works the subject out once per photo and keeps it for every size (previews and export)', async () => {
    const file = path('once.jpg');
    await sharp(await productPhoto(1200, 1600)).toFile(file);
    const cache = path('cache-once');
    await prepareStill(file, 270, 480, cache, { grade: NEUTRAL_GRADE });
    const after = readdirSync(cache).filter((f) => f.endsWith('.subject.json'));
    expect(after).toHaveLength(1);
    await prepareStill(file, 540, 960, cache, { grade: NEUTRAL_GRADE });
    await prepareStill(file, 480, 270, cache, { grade: NEUTRAL_GRADE });
    expect(readdirSync(cache).filter((f) => f.endsWith('.subject.json'))).toEqual(after);
  }, 60_000);
});

describe('clips from the page', () => {
  it('places the crop on the subject as far as the clip allows, the middle without one', () => {
    // A 16:9 clip cut to 9:16: the crop is a third of its width.
    const share = 9 / 16 / (16 / 9);
    const left = focusOn({ left: 0.1, top: 0.2, right: 0.25, bottom: 0.8 }, 16 / 9, 9 / 16);
    expect(left.y).toBe(0.5);
    expect(left.x * (1 - share) + share / 2).toBeCloseTo(0.175, 6);
    // At the clip's edge, the crop stops at the edge.
    expect(focusOn({ left: 0, top: 0.2, right: 0.1, bottom: 0.8 }, 16 / 9, 9 / 16).x).toBe(0);
    const right = focusOn({ left: 0.7, top: 0.2, right: 0.8, bottom: 0.8 }, 16 / 9, 9 / 16);
    // The crop's middle is the subject's middle (0.75 of the clip's width).
    expect(right.x * (1 - share) + share / 2).toBeCloseTo(0.75, 6);
    // A 9:16 clip in a 16:9 frame is cut across its height.
    expect(focusOn({ left: 0.2, top: 0.6, right: 0.8, bottom: 0.9 }, 9 / 16, 16 / 9).x).toBe(0.5);
    expect(focusOn(undefined, 16 / 9, 9 / 16)).toEqual({ x: 0.5, y: 0.5 });
    expect(focusOn({ left: 0, top: 0, right: 1, bottom: 1 }, 9 / 16, 9 / 16)).toEqual({ x: 0.5, y: 0.5 });
  });

  it('crops a wide clip about the product it shows, not about its middle', async () => {
    const tools = locateTools();
    const still = path('clip-still.jpg');
    await sharp(await productPhoto(1280, 720, { white: true, at: 0.18 })).toFile(still);
    const clip = path('clip.mp4');
    await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-loop', '1', '-i', still, '-t', '2', '-r', '25', '-pix_fmt', 'yuv420p', clip]);
    const focus = await videoFocus(clip, 2, 9 / 16, path('clip-cache'), tools);
    // The bottle stands at 18 % of the width: a centred crop (38–62 %) would miss it entirely.
    expect(focus.x).toBeLessThan(0.15);
    const share = 9 / 16 / (16 / 9);
    const from = focus.x * (1 - share);
    expect(from).toBeLessThanOrEqual(0.18 - 0.05);
    expect(from + share).toBeGreaterThanOrEqual(0.18 + 0.05);
  }, 60_000);
});
