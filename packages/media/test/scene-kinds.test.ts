/**
 * What every kind of scene owes the engine (decision "The ad engine"), checked on each kind in SCENE_KINDS with a
 * real file of its own: made ready, it draws exactly the frames asked at the frame's size, opening only its own
 * inputs; its subject, when it has one, lies inside the frame; a frame of it costs at least a still's. A kind
 * added without a sample here fails the first test.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_BRAND } from '../src/brand/look.js';
import { FPS } from '../src/render/render.js';
import type { PrepareContext } from '../src/render/scene/kind.js';
import { drawScene, kindOf, SCENE_KINDS, sceneSubject } from '../src/render/scene/kinds.js';
import { framePortrait } from '../src/render/scene/presenter.js';
import type { Frame, TimelineMedia, TimelineScene } from '../src/render/scene/types.js';
import { withMotionMargin } from '../src/render/stills.js';
import { runTool } from '../src/run.js';
import { TEMPLATES } from '../src/templates/catalogue.js';
import { locateTools } from '../src/tools.js';
import { drawnPortrait, makeVideo, productPhoto } from './fixtures.js';
import { countedFrames } from './frameCount.js';

const tools = locateTools();
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-scene-kinds-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FRAME: Frame = { width: 270, height: 480, fps: FPS };
const STILL = withMotionMargin(FRAME);

/** A sample of each kind, as the page would give it. */
const SAMPLES: { [K in TimelineMedia['kind']]: () => Promise<Extract<TimelineMedia, { kind: K }>> } = {
  image: async () => {
    const file = join(dir, 'photo.jpg');
    writeFileSync(file, await productPhoto(900, 1200));
    return { kind: 'image', file, width: 900, height: 1200 };
  },
  video: async () => ({ kind: 'video', file: await makeVideo(tools, join(dir, 'clip.mp4'), { seconds: 1 }), seconds: 1 }),
  // At export: the framed portrait with a talking clip shorter than the scene, which holds its last frame.
  presenter: async () => {
    const picture = join(dir, 'portrait.jpg');
    writeFileSync(picture, await drawnPortrait());
    const framed = await framePortrait(picture, FRAME, join(dir, 'cache', 'presenters'));
    return { ...framed, clip: await makeVideo(tools, join(dir, 'talking.mp4'), { seconds: 0.6, width: 270, height: 480 }) };
  },
  // The presenter's take in a corner over a product photo, 0.2 s into the take.
  presented: async () => ({
    kind: 'presented',
    layout: 'corner',
    product: await SAMPLES.image(),
    presenter: { ...(await SAMPLES.presenter()), from: 0.2 },
  }),
};

const context = (motionFrames: number): PrepareContext => ({
  frame: FRAME,
  stillSize: STILL,
  motionFrames,
  aspectRatio: '9:16',
  look: TEMPLATES['clean-studio'],
  brand: DEFAULT_BRAND,
  cacheDir: join(dir, 'cache'),
  tools,
});

describe('scene kinds: every kind draws its frames as the renderer asks', () => {
  it('every kind has a sample here', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(Object.keys(SCENE_KINDS).sort());
  });

  for (const kind of Object.keys(SCENE_KINDS) as TimelineMedia['kind'][]) {
    it(`${kind}: made ready, it draws the frames asked at the frame's size`, async () => {
      const media = await SAMPLES[kind]();
      const own = kindOf(media);
      const motion = own.move?.(media, '9:16', undefined, 0) ?? 'none';
      const scene: TimelineScene = { media, role: 'feature', start: 0, seconds: 1.2, motion };
      expect(own.frameCost(scene)).toBeGreaterThanOrEqual(1);

      const lead = 5;
      const frames = 20;
      const source = await own.prepare(scene, context(lead + frames));
      expect(source.kind).toBe(kind);
      const drawing = drawScene(source, { index: 0, lead, frames, frame: FRAME, stillSize: STILL, output: '[out]' });
      const out = join(dir, `${kind}.mp4`);
      await runTool(tools.ffmpeg, [
        '-v',
        'error',
        '-y',
        ...drawing.input,
        '-filter_complex',
        drawing.graph,
        '-map',
        '[out]',
        '-frames:v',
        String(frames),
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        out,
      ]);
      expect(await countedFrames(tools, out)).toEqual({ frames, width: FRAME.width, height: FRAME.height });
      // Only its own inputs are opened: a piece numbers the next scene's after them.
      expect(drawing.input.filter((arg) => arg === '-i')).toHaveLength(drawing.inputs);
    });

    it(`${kind}: its subject, when it has one, lies inside the frame`, async () => {
      const media = await SAMPLES[kind]();
      const scene: TimelineScene = { media, role: 'feature', start: 0, seconds: 2, motion: 'none' };
      const subject = await sceneSubject(scene, '9:16', FRAME, join(dir, 'cache'));
      if (subject === undefined) return;
      for (const share of [subject.left, subject.top, subject.right, subject.bottom]) {
        expect(share).toBeGreaterThanOrEqual(0);
        expect(share).toBeLessThanOrEqual(1);
      }
      expect(subject.right).toBeGreaterThan(subject.left);
      expect(subject.bottom).toBeGreaterThan(subject.top);
    });
  }
});
