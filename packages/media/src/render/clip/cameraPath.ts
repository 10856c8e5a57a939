import type { CameraMove, CameraMoveKind, CameraSpeed } from '@reelsmith/contract/camera-prompt';
import { progressExpr, RAMP_SECONDS } from '../easing.js';

/** Frame sizes are even: H.264 in 4:2:0 needs it. */
export const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** One plane's window: its zoom over the widest window of the frame's shape, and its centre's offset from the still's (px). */
export interface View {
  zoom: number;
  x: number;
  y: number;
}
/** Where both planes' windows are at the end of a move (the same when the clip has no depth). */
export interface Key {
  back: View;
  front: View;
}

const SPEED: Record<CameraSpeed, number> = { slow: 0.6, normal: 1, fast: 1.7 };
/** Per second at normal speed: zoom in log terms, pans in shares of the frame's width. */
const ZOOM_RATE = 0.045;
const PAN_RATE = 0.03;
/** The largest zoom over the widest window: past it the still is enlarged too far to stay sharp. */
const MAX_ZOOM = 1.8;

export const DEPTH_MOVES: readonly CameraMoveKind[] = ['parallax', 'orbit-left', 'orbit-right', 'dolly-in', 'dolly-out'];

/**
 * The moves' path: where each plane's window is at the start and at the end of each move. Moves split the clip
 * evenly. `depth` says whether the subject is a plane of its own; without one, the depth moves are made flat
 * (a dolly zooms, an orbit or a parallax pans). `still` and `frame` are sizes; offsets are in still pixels.
 * `focus` is where the photo's subject is (its centre's offset from the still's, still px): the zooms close in on
 * it rather than on the still's middle (decision "Image to video moves the photo").
 */
export function cameraPath(
  moves: readonly CameraMove[],
  seconds: number,
  still: { width: number; height: number },
  frame: { width: number; height: number },
  depth: boolean,
  focus: { x: number; y: number } = { x: 0, y: 0 },
): Key[] {
  const T = seconds / Math.max(1, moves.length);
  const wide = Math.min(still.width / frame.width, still.height / frame.height) * frame.width;
  let key: Key = { back: { zoom: 1, x: 0, y: 0 }, front: { zoom: 1, x: 0, y: 0 } };
  const keys: Key[] = [key];
  const zoomed = (v: View, by: number): View => ({ ...v, zoom: v.zoom * Math.exp(by) });
  const moved = (v: View, dx: number, dy: number): View => ({ ...v, x: v.x + dx * wide, y: v.y + dy * wide });
  for (const move of moves) {
    const m = SPEED[move.speed] * T;
    const z = ZOOM_RATE * m;
    const d = PAN_RATE * m;
    const { back, front } = key;
    switch (move.kind) {
      case 'zoom-in':
      case 'zoom-out': {
        const by = move.kind === 'zoom-in' ? z : -z;
        key = { back: zoomed(back, by), front: zoomed(front, by) };
        break;
      }
      case 'pan-left':
      case 'pan-right':
      case 'pan-up':
      case 'pan-down': {
        const dx = move.kind === 'pan-left' ? -d : move.kind === 'pan-right' ? d : 0;
        const dy = move.kind === 'pan-up' ? -d : move.kind === 'pan-down' ? d : 0;
        key = { back: moved(back, dx, dy), front: moved(front, dx, dy) };
        break;
      }
      case 'dolly-in':
      case 'dolly-out': {
        // The camera travels toward the subject: the near plane grows three times as fast as the far one.
        const by = move.kind === 'dolly-in' ? z : -z;
        key = depth
          ? { back: zoomed(back, by * 0.45), front: zoomed(front, by * 1.35) }
          : { back: zoomed(back, by), front: zoomed(front, by) };
        break;
      }
      case 'orbit-left':
      case 'orbit-right': {
        // Around the subject: it holds its place while its background slides behind it, closing in a little.
        const dx = (move.kind === 'orbit-right' ? d : -d) * 0.5;
        const by = z * 0.2;
        key = depth
          ? { back: zoomed(moved(back, dx, 0), by), front: zoomed(front, by) }
          : { back: zoomed(moved(back, dx, 0), by), front: zoomed(moved(front, dx, 0), by) };
        break;
      }
      case 'parallax': {
        // The camera travels sideways: the near subject crosses the frame faster than its background.
        key = depth
          ? { back: moved(back, d * 0.35, 0), front: moved(front, d, 0) }
          : { back: moved(back, d, 0), front: moved(front, d, 0) };
        break;
      }
    }
    keys.push(key);
  }
  return fitted(keys, still, { width: wide, height: wide * (frame.height / frame.width) }, focus);
}

/**
 * The path centred on the still (each plane's offsets about the middle of their range, so the photo stands as
 * it is halfway through), its zooms made about the subject's centre `focus`, and zoomed in as little as keeps the
 * background's window inside the still throughout.
 */
function fitted(
  keys: Key[],
  still: { width: number; height: number },
  window: { width: number; height: number },
  focus: { x: number; y: number },
): Key[] {
  const centre = (plane: 'back' | 'front', axis: 'x' | 'y') => {
    const values = keys.map((k) => k[plane][axis]);
    return (Math.min(...values) + Math.max(...values)) / 2;
  };
  const shift = { back: { x: centre('back', 'x'), y: centre('back', 'y') }, front: { x: centre('front', 'x'), y: centre('front', 'y') } };
  // A zoom about the subject: as a plane's window narrows from its widest by `r`, its centre moves toward the
  // subject's by 1 − 1/r, so the subject holds its place in the frame while it grows (and a zoom out widens
  // from it) instead of sliding out past the frame's edge. The widest window stays where it was.
  const widest = (plane: 'back' | 'front') => Math.min(...keys.map((k) => k[plane].zoom));
  const drift = (plane: 'back' | 'front', v: View) => 1 - widest(plane) / v.zoom;
  const centred = keys.map((k) => ({
    back: {
      ...k.back,
      x: k.back.x - shift.back.x + focus.x * drift('back', k.back),
      y: k.back.y - shift.back.y + focus.y * drift('back', k.back),
    },
    front: {
      ...k.front,
      x: k.front.x - shift.front.x + focus.x * drift('front', k.front),
      y: k.front.y - shift.front.y + focus.y * drift('front', k.front),
    },
  }));
  // The window (wide/zoom across) must keep within the still: zoom ≥ wide / (width − 2|x|), and so down.
  const need = Math.max(
    1 / Math.min(...centred.map((k) => k.back.zoom)),
    ...centred.map((k) => window.width / Math.max(1, still.width - 2 * Math.abs(k.back.x)) / k.back.zoom),
    ...centred.map((k) => window.height / Math.max(1, still.height - 2 * Math.abs(k.back.y)) / k.back.zoom),
  );
  // A hair more, so the bilinear window never samples the still's last column; never past MAX_ZOOM.
  const most = Math.max(...centred.map((k) => Math.max(k.back.zoom, k.front.zoom)));
  const by = Math.min(Math.max(1, need * 1.002), MAX_ZOOM / most);
  return centred.map((k) => ({ back: { ...k.back, zoom: k.back.zoom * by }, front: { ...k.front, zoom: k.front.zoom * by } }));
}

/**
 * The value of one plane's view property along the path, per frame (`n`: `in` in `perspective`, `n` in `overlay`),
 * eased within each move.
 */
function pathExpr(values: number[], frames: number, fps: number, log: boolean, n = 'in'): string {
  const moves = values.length - 1;
  const ramp = Math.round(RAMP_SECONDS * fps);
  let expr = '';
  for (let i = moves - 1; i >= 0; i--) {
    const start = Math.round((i * (frames - 1)) / moves);
    const end = Math.round(((i + 1) * (frames - 1)) / moves);
    const a = values[i] as number;
    const b = values[i + 1] as number;
    const p = progressExpr(`${n}-${start}`, end - start, ramp);
    // In brackets: the zoom is a divisor (`ww` below), and `w/a*pow(…)` would multiply by the move's growth,
    // turning every zoom in into a zoom out.
    const value = a === b ? `${a}` : log ? `(${a}*pow(${b / a},${p}))` : `(${a}+${b - a}*${p})`;
    expr = i === moves - 1 ? value : `if(lt(${n},${end}),${value},${expr})`;
  }
  return expr;
}

export type Size = { width: number; height: number };

/** One plane's path over a clip: its window at each key, over `frames` frames, and the still's and frame's sizes. */
export interface PlanePath {
  views: View[];
  frames: number;
  fps: number;
  still: Size;
  frame: Size;
}

/**
 * A plane's window over the still per frame, as expressions of the frame number `n`: its left and top edges
 * (`x0`, `y0`, still px), its size (`ww`, `wh`) and its scale (`s`, frame px per still px).
 */
function windowExprs({ views, frames, fps, still, frame }: PlanePath, n = 'in') {
  const { width: W, height: H } = still;
  const { width: w, height: h } = frame;
  const wide = Math.min(W / w, H / h);
  const along = (values: number[], log: boolean) => pathExpr(values, frames, fps, log, n);
  const zoom = along(
    views.map((v) => v.zoom),
    true,
  );
  const cx = along(
    views.map((v) => v.x + W / 2),
    false,
  );
  const cy = along(
    views.map((v) => v.y + H / 2),
    false,
  );
  const ww = `(${(w * wide).toFixed(3)}/${zoom})`;
  const wh = `(${(h * wide).toFixed(3)}/${zoom})`;
  return { x0: `(${cx}-${ww}/2)`, y0: `(${cy}-${wh}/2)`, s: `(${w}/${ww})`, ww, wh };
}

/** `perspective` taking the quad with corners x0, y0 (top left) and x1, y1 (bottom right) to the whole output. */
const quad = (x0: string, y0: string, x1: string, y1: string) =>
  `perspective=x0='${x0}':y0='${y0}':x1='${x1}':y1='${y0}':x2='${x0}':y2='${y1}':x3='${x1}':y3='${y1}':eval=frame`;

/**
 * `perspective` options placing a plane's window over the still on the frame's top-left (the crop after keeps
 * it): the quad is the window grown so that the window itself lands on the frame, as the renderer's zooms do.
 */
export function windowFilter(path: PlanePath) {
  const { width: W, height: H } = path.still;
  const { width: w, height: h } = path.frame;
  const { x0, y0, ww, wh } = windowExprs(path);
  return `${quad(x0, y0, `(${x0}+${ww}*${W / w})`, `(${y0}+${wh}*${H / h})`)},crop=${w}:${h}:0:0`;
}

/** Where a plane cropped to its subject lies on the still: its top-left corner (even) and size (even), still px. */
export interface PlaneCrop {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The subject's plane cropped to its box, resampled as the whole plane would be and laid on the frame by
 * `overlay`: only its box is resampled and blended each frame, not the whole still (most of it transparent).
 * Each frame the crop's corner lands at an even frame pixel (overlay places yuv420 pictures on even pixels) and
 * `perspective` takes the rest, so every frame pixel samples the very still point it would in the whole plane.
 */
export function croppedWindow(path: PlanePath, crop: PlaneCrop) {
  // The same window in both filters' frame numbers: the corner's frame pixel, floored to even.
  const at = (n: string) => {
    const e = windowExprs(path, n);
    return {
      ...e,
      kx: `(2*floor((${crop.left}-${e.x0})*${e.s}/2))`,
      ky: `(2*floor((${crop.top}-${e.y0})*${e.s}/2))`,
    };
  };
  const p = at('in');
  const o = at('n');
  const x0 = `(${p.x0}-${crop.left}+${p.kx}/${p.s})`;
  const y0 = `(${p.y0}-${crop.top}+${p.ky}/${p.s})`;
  return { filter: quad(x0, y0, `(${x0}+${crop.width}/${p.s})`, `(${y0}+${crop.height}/${p.s})`), x: o.kx, y: o.ky };
}
