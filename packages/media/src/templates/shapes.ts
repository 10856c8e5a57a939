/**
 * The cards' shapes as ASS vector drawings (`\p1`), in pixels from their own top-left corner: panels, pills,
 * the icon's circle and its check mark. Each starts with a move to (0, 0), so libass places every drawing of a
 * card by the same corner whatever its outline's extent.
 */

/** Tenths of a pixel: libass reads fractional coordinates, and small icons at 540p need them. */
const n = (v: number) => String(Math.round(v * 10) / 10);

/** Bézier handle length of a quarter circle, as a share of its radius. */
const KAPPA = 0.5523;

/** A `w`×`h` rectangle with corners rounded to `r` (at most half the shorter side: a pill or a circle). */
export function roundedRect(w: number, h: number, r: number): string {
  const radius = Math.max(0, Math.min(r, w / 2, h / 2));
  const k = radius * (1 - KAPPA);
  return [
    `m ${n(radius)} 0`,
    `l ${n(w - radius)} 0`,
    `b ${n(w - k)} 0 ${n(w)} ${n(k)} ${n(w)} ${n(radius)}`,
    `l ${n(w)} ${n(h - radius)}`,
    `b ${n(w)} ${n(h - k)} ${n(w - k)} ${n(h)} ${n(w - radius)} ${n(h)}`,
    `l ${n(radius)} ${n(h)}`,
    `b ${n(k)} ${n(h)} 0 ${n(h - k)} 0 ${n(h - radius)}`,
    `l 0 ${n(radius)}`,
    `b 0 ${n(k)} ${n(k)} 0 ${n(radius)} 0`,
  ].join(' ');
}

/** A circle of diameter `d`. */
export const circle = (d: number) => roundedRect(d, d, d / 2);

type Point = [number, number];
const unit = ([x, y]: Point): Point => {
  const length = Math.hypot(x, y);
  return [x / length, y / length];
};

/**
 * A check mark filling the middle of a `size`×`size` box: the stroke of two segments, `size`/9 thick, with a
 * mitred corner, drawn as one filled outline (libass has no strokes of its own).
 */
export function checkMark(size: number): string {
  const a: Point = [0.27 * size, 0.52 * size];
  const b: Point = [0.43 * size, 0.68 * size];
  const c: Point = [0.74 * size, 0.35 * size];
  const half = size / 18;
  const normal = (p: Point, q: Point): Point => {
    const [dx, dy] = unit([q[0] - p[0], q[1] - p[1]]);
    return [-dy, dx];
  };
  const n1 = normal(a, b);
  const n2 = normal(b, c);
  const bisector = unit([n1[0] + n2[0], n1[1] + n2[1]]);
  const miter = half / (bisector[0] * n1[0] + bisector[1] * n1[1]);
  const at = (p: Point, d: Point, s: number) => `${n(p[0] + d[0] * s)} ${n(p[1] + d[1] * s)}`;
  return `m 0 0 m ${at(a, n1, half)} l ${at(b, bisector, miter)} ${at(c, n2, half)} ${at(c, n2, -half)} ${at(b, bisector, -miter)} ${at(a, n1, -half)}`;
}

/** A horizontal bar, for the rule under a luxury title. */
export const bar = (w: number, h: number) => roundedRect(w, h, h / 2);
