/**
 * The presenter beside or over the product (decision "Presenter layouts"), drawn by ffmpeg and read back pixel by
 * pixel: a red product and a blue presenter must land where each layout puts them, on every shape.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_BRAND } from '../src/brand/look.js';
import { FPS } from '../src/render/render.js';
import { drawScene } from '../src/render/scene/kinds.js';
import { presented, presenterArea, presenterPlace } from '../src/render/scene/presented.js';
import { framePortrait } from '../src/render/scene/presenter.js';
import type { AspectRatio, Frame, PresentedMedia, TimelineScene } from '../src/render/scene/types.js';
import { withMotionMargin } from '../src/render/stills.js';
import { frameSize } from '../src/render/timeline.js';
import { runTool } from '../src/run.js';
import { TEMPLATES } from '../src/templates/catalogue.js';
import { locateTools } from '../src/tools.js';
import { drawnPortrait } from './fixtures.js';

const tools = locateTools();
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-presented-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RED = { r: 210, g: 30, b: 30 };
const BLUE = { r: 30, g: 60, b: 210 };
const flat = async (name: string, colour: typeof RED) => {
  const file = join(dir, name);
  await sharp({ create: { width: 600, height: 800, channels: 3, background: colour } })
    .png()
    .toFile(file);
  return file;
};

/** The last of 10 frames of `media` drawn at `frame`, as RGB pixels. */
async function lastFrame(media: PresentedMedia, frame: Frame) {
  const stillSize = withMotionMargin(frame);
  const scene: TimelineScene = { media, role: 'feature', start: 0, seconds: 1, motion: 'none' };
  const aspectRatio: AspectRatio = frame.width < frame.height ? '9:16' : frame.width > frame.height ? '16:9' : '1:1';
  const source = await presented.prepare(scene as TimelineScene & { media: PresentedMedia }, {
    frame,
    stillSize,
    motionFrames: 10,
    aspectRatio,
    look: TEMPLATES['clean-studio'],
    brand: DEFAULT_BRAND,
    cacheDir: join(dir, 'cache'),
    tools,
  });
  const drawing = drawScene(source, { index: 0, lead: 0, frames: 10, frame, stillSize, output: '[out]' });
  const out = join(dir, `${media.layout}-${frame.width}x${frame.height}.png`);
  await runTool(tools.ffmpeg, [
    '-v',
    'error',
    '-y',
    ...drawing.input,
    '-filter_complex',
    `${drawing.graph};[out]select='eq(n,9)'[last]`,
    '-map',
    '[last]',
    '-frames:v',
    '1',
    out,
  ]);
  const { data, info } = await sharp(out).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([frame.width, frame.height]);
  return (x: number, y: number) => {
    const at = (Math.round(y) * info.width + Math.round(x)) * 3;
    return { r: data[at] as number, g: data[at + 1] as number, b: data[at + 2] as number };
  };
}

/** A red product with a blue presenter (no face: framed about the upper middle) in `layout`. */
const redAndBlue = async (layout: PresentedMedia['layout']): Promise<PresentedMedia> => ({
  kind: 'presented',
  layout,
  product: { kind: 'image', file: await flat('red.png', RED) },
  presenter: { kind: 'presenter', file: await flat('blue.png', BLUE) },
});

const near = (colour: { r: number; g: number; b: number }, want: typeof RED) =>
  Math.abs(colour.r - want.r) + Math.abs(colour.g - want.g) + Math.abs(colour.b - want.b) < 90;

describe('a presenter beside or over the product', () => {
  for (const aspectRatio of ['9:16', '16:9', '1:1'] as const) {
    it(`${aspectRatio} split screen: the product on its half (above or on the left), the presenter on the other`, async () => {
      const size = frameSize(aspectRatio, 270);
      const frame = { ...size, fps: FPS };
      const media = await redAndBlue('split');
      const pixel = await lastFrame(media, frame);
      const place = presenterPlace('split', frame);
      const middle = (box: { x: number; y: number; width: number; height: number }) => pixel(box.x + box.width / 2, box.y + box.height / 2);
      expect(near(middle(place.product), RED)).toBe(true);
      expect(near(middle(place.presenter), BLUE)).toBe(true);
      // The halves tile the frame.
      expect(place.product.width * place.product.height + place.presenter.width * place.presenter.height).toBe(frame.width * frame.height);
      if (aspectRatio === '9:16') expect(place.presenter.y).toBeGreaterThan(0);
      else expect(place.presenter.x).toBeGreaterThan(0);
    });
  }

  it('9:16 corner: the presenter in a rounded inset in the lower right, inside the safe zone, the product all round it', async () => {
    const frame = { width: 540, height: 960, fps: FPS };
    const media = await redAndBlue('corner');
    const pixel = await lastFrame(media, frame);
    const { presenter: box } = presenterPlace('corner', frame);
    expect(near(pixel(box.x + box.width / 2, box.y + box.height / 2), BLUE)).toBe(true);
    // Rounded: the inset's very corner shows the product (through the rim's curve), its side's middle the rim.
    expect(near(pixel(box.x + 1, box.y + 1), BLUE)).toBe(false);
    expect(near(pixel(box.x - 1, box.y + box.height / 2), { r: 255, g: 255, b: 255 })).toBe(true);
    expect(near(pixel(frame.width * 0.25, frame.height * 0.3), RED)).toBe(true);
    // In the safe zone (x 6–94 %, y 12–78 %) and clear of the side cards' top band.
    expect(box.x + box.width).toBeLessThanOrEqual(0.94 * frame.width);
    expect(box.y + box.height).toBeLessThanOrEqual(0.78 * frame.height);
    expect(box.y).toBeGreaterThan(0.4 * frame.height);
    // The captions are told to leave the inset clear.
    expect(presenterArea(media, frame)).toEqual({ x: box.x / 540, y: box.y / 960, w: box.width / 540, h: box.height / 960 });
  });

  it("split screen: the captions are told to leave the presenter's face clear, on their half", async () => {
    const frame = { width: 540, height: 960, fps: FPS };
    const picture = join(dir, 'portrait.jpg');
    writeFileSync(picture, await drawnPortrait());
    const portrait = await framePortrait(picture, frame, join(dir, 'cache', 'presenters'));
    expect(portrait.face).toBeDefined();
    const media: PresentedMedia = { kind: 'presented', layout: 'split', product: { kind: 'image', file: picture }, presenter: portrait };
    const area = presenterArea(media, frame);
    // The face, on the lower half: the seam above it is left to the captions.
    const box = area as NonNullable<typeof area>;
    expect(box.y).toBeGreaterThanOrEqual(0.5);
    expect(box.y + box.h).toBeLessThanOrEqual(1);
    const { presenter: half } = presenterPlace('split', frame);
    const face = portrait.face as NonNullable<typeof portrait.face>;
    // The face's middle, carried from the whole-frame portrait into the half, is inside the area.
    const middle = { x: face.x + face.w / 2, y: half.y / 960 + 0.38 * (half.height / 960) };
    expect(middle.x).toBeGreaterThan(box.x);
    expect(middle.x).toBeLessThan(box.x + box.w);
    expect(middle.y).toBeGreaterThan(box.y);
    expect(middle.y).toBeLessThan(box.y + box.h);
  });
});
