/**
 * The clothing upload rules of spec "Validation rules", judged by image analysis: the file (JPG/JPEG/PNG, ≤ 10 MB, shorter side
 * ≥ 512 px, longer side ≤ 4096 px), a flat white backdrop (the border's colour statistics), and exactly one
 * garment: the foreground is what differs from white, its connected regions are the pieces, and each piece's
 * silhouette (proportions, how wide it is at each height, whether it splits into legs) tells a top, a bottom or
 * a one-piece from a shape that is no garment.
 */
import { stat } from 'node:fs/promises';
import { sniff } from '../sniff.js';
import { labelRegions, type Region } from './components.js';
import { openImage, rgbPixels } from './open.js';

export type GarmentType = 'top' | 'bottom' | 'onePiece';
export type GarmentProblem =
  | 'noCloth'
  | 'multipleClothes'
  | 'onlyOneDress'
  | 'multipleSimilarClothes'
  | 'typeNotSupported'
  | 'background'
  | 'size'
  | 'format';

export interface GarmentCheck {
  ok: boolean;
  reason: GarmentProblem | null;
  garmentType: GarmentType | null;
}

/** Spec "Validation rules" and "Business constants": the clothing picture's limits. */
export const GARMENT_LIMITS = { maxBytes: 10 * 1024 * 1024, minShortSide: 512, maxLongSide: 4096, formats: ['jpg', 'png'] } as const;

/** The analysis works on the picture fitted within this many pixels: shapes, not detail. */
const SIDE = 256;
/** A pixel differing from white by more than this (in any channel) is foreground. */
const FOREGROUND = 36;
/** Pieces smaller than this share of the picture are specks (dust, a label), not garments. */
const MIN_PIECE = 0.01;

const refuse = (reason: GarmentProblem): GarmentCheck => ({ ok: false, reason, garmentType: null });

export async function checkGarment(input: string): Promise<GarmentCheck> {
  const format = (await sniff(input))?.ext;
  if (!format || !(GARMENT_LIMITS.formats as readonly string[]).includes(format)) return refuse('format');
  if ((await stat(input)).size > GARMENT_LIMITS.maxBytes) return refuse('size');
  const { autoOrient } = await openImage(input).metadata();
  if (Math.min(autoOrient.width, autoOrient.height) < GARMENT_LIMITS.minShortSide) return refuse('size');
  if (Math.max(autoOrient.width, autoOrient.height) > GARMENT_LIMITS.maxLongSide) return refuse('size');

  const scale = SIDE / Math.max(autoOrient.width, autoOrient.height);
  const { data, width, height } = await rgbPixels(input, {
    width: Math.max(1, Math.round(autoOrient.width * scale)),
    height: Math.max(1, Math.round(autoOrient.height * scale)),
  });
  if (!whiteBorder(data, width, height)) return refuse('background');

  const mask = new Uint8Array(width * height);
  for (let p = 0; p < mask.length; p++) {
    const i = p * 3;
    mask[p] = 255 - Math.min(data[i] as number, data[i + 1] as number, data[i + 2] as number) > FOREGROUND ? 1 : 0;
  }
  const { labels, regions } = labelRegions(mask, width, height);
  const pieces = regions.filter((r) => r.area >= MIN_PIECE * width * height);
  if (pieces.length === 0) return refuse('noCloth');
  const shapes = pieces.map((piece) => silhouette(labels, width, piece));
  if (pieces.length > 1) {
    if (shapes.every((s) => s.type === 'onePiece')) return refuse('onlyOneDress');
    return refuse(similar(pieces, shapes) ? 'multipleSimilarClothes' : 'multipleClothes');
  }
  const type = (shapes[0] as Silhouette).type;
  return type ? { ok: true, reason: null, garmentType: type } : refuse('typeNotSupported');
}

/** The border (3 % of each side) is a flat white: nearly all of it near-white and evenly lit. */
function whiteBorder(data: Buffer, width: number, height: number): boolean {
  const band = Math.max(2, Math.round(Math.min(width, height) * 0.03));
  let count = 0;
  let white = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (x >= band && x < width - band && y >= band && y < height - band) continue;
      const i = (y * width + x) * 3;
      const r = data[i] as number;
      const g = data[i + 1] as number;
      const b = data[i + 2] as number;
      count++;
      if (Math.min(r, g, b) >= 225 && Math.max(r, g, b) - Math.min(r, g, b) <= 18) white++;
    }
  }
  return white / count >= 0.92;
}

interface Silhouette {
  type: GarmentType | null;
  aspect: number;
  fill: number;
  /** Width of the piece at 10 %, 30 %, 50 %, 70 % and 90 % of its height, as a share of its widest. */
  widths: number[];
}

/** Runs of a region's pixels along row `y`: [start, end) pairs. */
function runs(labels: Int32Array, width: number, region: Region, y: number): [number, number][] {
  const found: [number, number][] = [];
  let start = -1;
  for (let x = region.left; x <= region.right + 1; x++) {
    const on = x <= region.right && labels[y * width + x] === region.label;
    if (on && start < 0) start = x;
    if (!on && start >= 0) {
      found.push([start, x]);
      start = -1;
    }
  }
  return found;
}

/** Two or more runs wide apart, the gap near the middle: legs. */
function splitsInTwo(labels: Int32Array, width: number, region: Region, y: number): boolean {
  const spans = runs(labels, width, region, y).filter(([a, b]) => b - a >= 2);
  if (spans.length < 2) return false;
  const bw = region.right - region.left + 1;
  const first = spans[0] as [number, number];
  const last = spans[spans.length - 1] as [number, number];
  const gapMiddle = (first[1] + last[0]) / 2 - region.left;
  return last[0] - first[1] >= bw * 0.04 && Math.abs(gapMiddle / bw - 0.5) < 0.2;
}

function silhouette(labels: Int32Array, width: number, region: Region): Silhouette {
  const bw = region.right - region.left + 1;
  const bh = region.bottom - region.top + 1;
  const rowAt = (share: number) => region.top + Math.min(bh - 1, Math.floor(bh * share));
  const extent = (y: number) => {
    const spans = runs(labels, width, region, y);
    return spans.length === 0 ? 0 : ((spans[spans.length - 1] as [number, number])[1] - (spans[0] as [number, number])[0]) / bw;
  };
  const widths = [0.1, 0.3, 0.5, 0.7, 0.9].map((share) => extent(rowAt(share)));
  const [w10, w30, w50, w70, w90] = widths as [number, number, number, number, number];
  const aspect = bh / bw;
  const fill = region.area / (bw * bh);
  const legs = splitsInTwo(labels, width, region, rowAt(0.8)) && splitsInTwo(labels, width, region, rowAt(0.92));
  let type: GarmentType | null = null;
  if (fill > 0.93) type = null;
  else if (legs && aspect > 0.6) type = 'bottom';
  else if (Math.max(w10, w30) >= 0.9 && w50 <= 0.85 * Math.max(w10, w30) && w90 <= 0.8 && aspect < 1.5) type = 'top';
  // Sleeveless: straps narrower than a straight body, not long enough for a dress.
  else if (aspect >= 0.9 && aspect < 1.6 && w10 <= 0.85 && Math.min(w50, w70, w90) >= 0.8 && fill >= 0.55) type = 'top';
  else if (aspect >= 1.25 && w90 >= 0.75 && w10 <= 0.7 && w50 < w90) type = 'onePiece';
  else if (aspect < 1.3 && w10 <= 0.8 && w90 >= 0.9 && w10 < w50 && w50 <= w90) type = 'bottom';
  // A round or diamond outline (narrow at both ends, widest in the middle) is a thing, not a garment.
  return { type, aspect, fill, widths };
}

/** Pieces alike in size, proportions and outline: the same garment twice (a pair, or a duplicate shot). */
function similar(pieces: Region[], shapes: Silhouette[]): boolean {
  const [a, b] = pieces as [Region, Region];
  const [sa, sb] = shapes as [Silhouette, Silhouette];
  if (Math.min(a.area, b.area) / Math.max(a.area, b.area) < 0.75) return false;
  if (Math.abs(Math.log(sa.aspect / sb.aspect)) > 0.2) return false;
  return sa.widths.every((w, i) => Math.abs(w - (sb.widths[i] as number)) < 0.12);
}
