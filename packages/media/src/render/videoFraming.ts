/**
 * Framing for clips from the product page: a clip is cropped to the frame's shape like a photo, about its
 * subject, found by the cut-out model on a few frames sampled across it (their boxes joined, so a product that
 * moves stays in). Found once per clip and kept beside the stills. Decision "Framing".
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { subjectMask } from '../imaging/cutout.js';
import { FRAMING_SIDE, findSubject, type ShareBox } from '../imaging/subject.js';
import { runTool } from '../run.js';
import type { MediaTools } from '../tools.js';

/** Where a crop sits in the room the clip leaves it, along each axis: 0 left or top, ½ the middle, 1 right or bottom. */
export interface Focus {
  x: number;
  y: number;
}

export const CENTRED: Focus = { x: 0.5, y: 0.5 };

/** Moments sampled, as shares of the clip: its start is often a fade or a title. */
const SAMPLES = [0.2, 0.5, 0.8];
/** Sampled frames are this wide: enough for the model's 256 px input. */
const SAMPLE_WIDTH = 512;

/**
 * The crop's place for a frame of shape `frameRatio`: centred on the subjects' joined box as far as the clip
 * allows; the clip's middle when no frame shows a subject.
 */
export function focusOn(box: ShareBox | undefined, clipRatio: number, frameRatio: number): Focus {
  if (!box) return CENTRED;
  const wide = clipRatio > frameRatio;
  // The crop's size as a share of the clip along the axis it is cut on.
  const share = wide ? frameRatio / clipRatio : clipRatio / frameRatio;
  if (share >= 0.999) return CENTRED;
  const [low, high] = wide ? [box.left, box.right] : [box.top, box.bottom];
  const start = Math.min(Math.max((low + high) / 2 - share / 2, 0), 1 - share);
  const place = start / (1 - share);
  return wide ? { x: place, y: 0.5 } : { x: 0.5, y: place };
}

/** The joined box of the subjects the model finds on frames sampled across the clip. */
async function subjectsBox(file: string, seconds: number, tools: MediaTools): Promise<{ box?: ShareBox; ratio: number }> {
  const work = await mkdtemp(join(tmpdir(), 'reelsmith-clip-'));
  try {
    let box: ShareBox | undefined;
    let ratio = 1;
    for (const [i, at] of SAMPLES.entries()) {
      const frame = join(work, `frame-${i}.png`);
      const time = Math.max(0, seconds * at).toFixed(3);
      await runTool(
        tools.ffmpeg,
        ['-v', 'error', '-y', '-ss', time, '-i', file, '-frames:v', '1', '-vf', `scale=${SAMPLE_WIDTH}:-2`, frame],
        {
          timeoutMs: 60_000,
        },
      );
      if (!(await stat(frame).catch(() => undefined))) continue;
      const { width = 1, height = 1 } = await sharp(frame).metadata();
      ratio = width / height;
      const subject = await findSubject(frame, { width, height }, await subjectMask(frame, { side: FRAMING_SIDE }));
      if (subject.from !== 'model') continue;
      const b = subject.box;
      box = box
        ? {
            left: Math.min(box.left, b.left),
            top: Math.min(box.top, b.top),
            right: Math.max(box.right, b.right),
            bottom: Math.max(box.bottom, b.bottom),
          }
        : b;
    }
    return { box, ratio };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Where to crop the clip `file` (`seconds` long) for a frame of shape `frameRatio`, from the cache or found now. */
export async function videoFocus(file: string, seconds: number, frameRatio: number, cacheDir: string, tools: MediaTools): Promise<Focus> {
  const { size, mtimeMs } = await stat(file);
  const key = createHash('sha256').update(`${file}\0${size}\0${mtimeMs}\0clip-subject-1`).digest('hex').slice(0, 32);
  const cached = join(cacheDir, `${key}.clip.json`);
  const known = await readFile(cached, 'utf8').catch(() => undefined);
  let found: { box?: ShareBox; ratio: number };
  if (known) found = JSON.parse(known) as typeof found;
  else {
    found = await subjectsBox(file, seconds, tools);
    await mkdir(cacheDir, { recursive: true });
    const partial = `${cached}.${randomUUID()}.part`;
    await writeFile(partial, JSON.stringify(found));
    await rename(partial, cached);
  }
  return focusOn(found.box, found.ratio, frameRatio);
}
