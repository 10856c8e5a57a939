/**
 * A still's camera move as an ffmpeg graph, placed to a fraction of a pixel on every frame (decision "Smooth
 * motion"): pans crop from a stack of shifted copies, zooms resample with `perspective`. The product photo's
 * drawing (productPhoto.ts); pure, numbers and labels in, graph text out.
 */
import { progressExpr, RAMP_SECONDS } from '../easing.js';
import type { Frame, Motion } from './types.js';

/**
 * A pan places its window to 1/phases of 2 px: the still is stacked in `phases` copies, each shifted by 2/phases px
 * more (a two-tap blend, made once per piece), and each frame crops the copy whose shift matches. The crop
 * itself is free; the stack costs CPU and memory in proportion to the copies, so a pan gets as few as keep its
 * steps even: rounding to a step q varies a frame's displacement by q/√6, which at PAN_STEADINESS px-frames
 * over the pan's speed stays under about 7.5 % of it (decision "Smooth motion"). A 540p pan across the usual
 * margin (about 0.9 px a frame) takes all 12; a 1080p one 8 or 6; a pan along a wide photo 4.
 */
export const PAN_PHASES = 12;
const MIN_PAN_PHASES = 4;
const PAN_STEADINESS = 11;

/** The copies a pan moving `speed` px a frame in its steady part needs: an even number, 4 to PAN_PHASES. */
export function panPhases(speed: number): number {
  if (!(speed > 0)) return PAN_PHASES;
  return Math.min(PAN_PHASES, Math.max(MIN_PAN_PHASES, 2 * Math.ceil(PAN_STEADINESS / speed / 2)));
}

/** Half of `n`, rounded down to an even number: where a window across a still's margin sits, chroma aligned. */
const even = (n: number) => 2 * Math.floor(n / 4);

/**
 * Where a pan's product plane stands in the frame: where the pan's window shows it halfway through the move, so
 * the background slides behind it by as much each way (decision "Parallax").
 */
export function productPlace(
  motion: Motion,
  still: { width: number; height: number },
  frame: { width: number; height: number },
  product: { left: number; top: number },
): { x: number; y: number } {
  const vertical = motion === 'pan-up' || motion === 'pan-down';
  const window = vertical
    ? { x: even(still.width - frame.width), y: Math.round((still.height - frame.height) / 2) }
    : { x: Math.round((still.width - frame.width) / 2), y: even(still.height - frame.height) };
  return { x: product.left - window.x, y: product.top - window.y };
}

/** The two-tap 3×3 kernel shifting a plane by `steps` / `phases` px (−1 ≤ shift < 1). */
function shiftKernel(steps: number, phases: number, vertical: boolean): string {
  const taps = steps < 0 ? [-steps, phases + steps, 0] : [0, phases - steps, steps];
  return vertical ? `0 ${taps[0]} 0 0 ${taps[1]} 0 0 ${taps[2]} 0` : `0 0 0 ${taps.join(' ')} 0 0 0`;
}

/** A stretch of a still's move drawn at `output`: `frames` frames from `lead` frames into the scene. */
export interface MotionRun {
  lead: number;
  frames: number;
  output: string;
}

/**
 * The graph turning the still at `input` into each run's frames of its move, the window's place computed per
 * frame to a fraction of a pixel: the decision "Smooth motion". Pans crop from a stack of shifted copies (free per
 * frame); zooms resample with `perspective`, whose window has real-valued corners, and scale at a constant rate in
 * log terms, which the eye reads as a constant speed. Two runs (a piece's body and the tail a push carries out)
 * share the still and the pan's stack, split as one frame each: built once, not twice.
 */
export function motionGraph(
  source: { motion: Motion; motionFrames: number; size: { width: number; height: number } },
  runs: [MotionRun, ...MotionRun[]],
  frame: Frame,
  input: string,
): string {
  const { width: w, height: h, fps } = frame;
  const { width: W, height: H } = source.size;
  const span = Math.max(1, source.motionFrames - 1);
  const ramp = Math.round(RAMP_SECONDS * fps);
  const loop = (frames: number) => `loop=loop=${frames - 1}:size=1:start=0,setpts=N/${fps}/TB`;
  const motion = source.motion;
  // A piece may hold several moves (its own, the next scene's, a push's tail): their labels are their own.
  const tag = runs[0].output.replace(/\W/g, '');
  /** Each run drawn by `draw` from the base at `base` (split into one copy per run when there are two). */
  const perRun = (base: string, draw: (run: MotionRun) => string) => {
    if (runs.length === 1) return `${base}${draw(runs[0])}${runs[0].output}`;
    const copies = runs.map((_, k) => `[base${tag}_${k}]`);
    return [`${base}split=${runs.length}${copies.join('')}`, ...runs.map((run, k) => `${copies[k]}${draw(run)}${run.output}`)].join(';');
  };
  if (motion === 'zoom-in' || motion === 'zoom-out') {
    // The widest window of the frame's shape inside the still, down to one still pixel per frame pixel.
    const wide = Math.min(W / w, H / h);
    return perRun(input, ({ lead, frames }) => {
      const p = progressExpr(`in+${lead}`, span, ramp);
      const zoom = `pow(${wide},${motion === 'zoom-in' ? p : `1-${p}`})`;
      const ww = `(${(w * wide).toFixed(3)}/${zoom})`;
      const wh = `(${(h * wide).toFixed(3)}/${zoom})`;
      const x0 = `(${W / 2}-${ww}/2)`;
      const y0 = `(${H / 2}-${wh}/2)`;
      // perspective's output is the input's size: the quad is the window grown so that the window itself lands
      // on the top-left frame, which the crop keeps.
      const x1 = `(${x0}+${ww}*${W / w})`;
      const y1 = `(${y0}+${wh}*${H / h})`;
      return `${loop(frames)},perspective=x0='${x0}':y0='${y0}':x1='${x1}':y1='${y0}':x2='${x0}':y2='${y1}':x3='${x1}':y3='${y1}':eval=frame,crop=${w}:${h}:0:0`;
    });
  }
  if (motion === 'none') return perRun(input, ({ frames }) => `${loop(frames)},crop=${w}:${h}:${even(W - w)}:${even(H - h)}`);
  const vertical = motion === 'pan-up' || motion === 'pan-down';
  const travel = vertical ? H - h : W - w;
  const phases = panPhases(travel / (span - Math.max(1, Math.min(ramp, span / 2))));
  const copies = Array.from({ length: phases }, (_, k) => {
    const luma = shiftKernel(2 * k - phases, phases, vertical);
    const chroma = shiftKernel(k - phases / 2, phases, vertical);
    const rdiv = `1/${phases}`;
    return `[ph${tag}_${k}]convolution=0m='${luma}':1m='${chroma}':2m='${chroma}':0rdiv=${rdiv}:1rdiv=${rdiv}:2rdiv=${rdiv}[sh${tag}_${k}]`;
  });
  const labels = (prefix: string) => Array.from({ length: phases }, (_, k) => `[${prefix}${tag}_${k}]`).join('');
  // Only the band the window travels along is shifted and stacked (the kernel never reaches across it): a tenth
  // less to convolve and to hold than the whole still.
  const band = vertical ? `crop=${w}:${H}:${even(W - w)}:0` : `crop=${W}:${h}:0:${even(H - h)}`;
  const moved = perRun(`[stack${tag}]`, ({ lead, frames }) => {
    const p = progressExpr(`n+${lead}`, span, ramp);
    const along = motion === 'pan-right' || motion === 'pan-down' ? `${travel}*${p}` : `${travel}*(1-${p})`;
    // In units of 1/phases of 2 px from one before the start: an even whole part keeps the chroma aligned.
    const steps = `round((${along}+1)*${phases / 2})`;
    const whole = `2*trunc(${steps}/${phases})`;
    const phase = `mod(${steps},${phases})`;
    const crop = vertical
      ? `crop=${w}:${h}:x='${w}*${phase}':y='${whole}':exact=1`
      : `crop=${w}:${h}:x='${whole}':y='${h}*${phase}':exact=1`;
    return `${loop(frames)},${crop}`;
  });
  return [
    `${input}${band},split=${phases}${labels('ph')}`,
    ...copies,
    `${labels('sh')}${vertical ? 'hstack' : 'vstack'}=inputs=${phases}[stack${tag}]`,
    moved,
  ].join(';');
}
