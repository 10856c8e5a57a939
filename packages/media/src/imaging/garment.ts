/**
 * The clothing upload rules of spec "Validation rules", judged by image analysis: the file (JPG/JPEG/PNG, ≤ 10 MB, shorter side
 * ≥ 512 px, longer side ≤ 4096 px), a flat white backdrop (the border's colour statistics), and exactly one
 * garment: the foreground is what differs from white, its connected regions are the pieces, and each piece's
 * silhouette (proportions, how wide it is at each height, whether it splits into legs) tells a top, a bottom or
 * a one-piece from a shape that is no garment. A garment someone is wearing is refused for what it is (decision
 * "Worn garments"): the try-on dresses a model in the garment picture, and a picture holding a person dresses the
 * model in that person. The picture itself is read too (decision "Garment check reads the picture"): a person is
 * told by a face or by skin that is not the garment's own colour, never by an outline; a thing is told from a
 * garment by what fabric laid flat never shows (a lopsided outline, a handle's loop, a glossy highlight).
 */
import { stat } from 'node:fs/promises';
import sharp from 'sharp';
import { sniff } from '../sniff.js';
import { labelRegions, type Region } from './components.js';
import { subjectMask } from './cutout.js';
import { findFaces } from './faces.js';
import { hasGlossyHighlight, hasHandle, mirrorCover, personBySkin } from './garmentCues.js';
import { openImage, rgbPixels } from './open.js';

export type GarmentType = 'top' | 'bottom' | 'onePiece';
export type GarmentProblem =
  | 'noCloth'
  | 'multipleClothes'
  | 'onlyOneDress'
  | 'multipleSimilarClothes'
  | 'typeNotSupported'
  | 'worn'
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
/** A border pixel within this many levels (in every channel) of the border's median colour is backdrop. */
const FLAT = 30;
/** Pieces smaller than this share of the picture are specks (dust, a label), not garments. */
const MIN_PIECE = 0.01;
/**
 * A piece smaller than this share of the largest is a part of it (a label, a ring, a hanger's hook cut off by the
 * outline), not a second garment: a strap with its label read as "multiple clothes".
 */
const MIN_SECOND_PIECE = 0.1;
/**
 * A face at least this tall (share of the picture's height) is a person in the picture; smaller ones are a print's
 * or a label's. The detector's own confidence floor is in faces.ts.
 */
const MIN_FACE = 0.05;
/** A piece its own mirror image covers less than this share of is lopsided: no garment (see `mirrorCover`). */
const MIN_MIRROR = 0.75;
/** The cut-out model's mask (0–255) at or above this is the subject. */
const SUBJECT = 128;

const refuse = (reason: GarmentProblem): GarmentCheck => ({ ok: false, reason, garmentType: null });

/** The subject the cut-out model finds in the picture, as a 0/1 mask on the check's `width`×`height` grid. */
async function modelSubject(input: string, width: number, height: number): Promise<Uint8Array> {
  const { mask, side } = await subjectMask(input);
  const fitted = await sharp(mask, { raw: { width: side, height: side, channels: 1 } })
    .resize(width, height, { fit: 'fill' })
    // Else sharp hands back a one-channel picture as three (sRGB).
    .extractChannel(0)
    .raw()
    .toBuffer();
  return Uint8Array.from(fitted, (v) => (v >= SUBJECT ? 1 : 0));
}

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
  const border = borderOf(data, width, height);
  // A face is a person whatever stands behind them; the answer says what picture works (decision "Worn garments").
  if ((await findFaces(input)).some((face) => face.box.h >= MIN_FACE)) return refuse('worn');
  if (!border.flat) {
    // A busy backdrop cannot be told from a garment lying on it, but the cut-out model still finds who stands on it:
    // a person in the picture is told as such, anything else is asked for a flat white backdrop.
    return refuse(personBySkin(data, width, height, await modelSubject(input, width, height)) ? 'worn' : 'background');
  }
  const figure = new Uint8Array(width * height);
  for (let p = 0; p < figure.length; p++) {
    const i = p * 3;
    const off = Math.max(
      Math.abs((data[i] as number) - border.colour[0]),
      Math.abs((data[i + 1] as number) - border.colour[1]),
      Math.abs((data[i + 2] as number) - border.colour[2]),
    );
    figure[p] = off > FOREGROUND ? 1 : 0;
  }
  if (personBySkin(data, width, height, figure)) return refuse('worn');
  if (!border.white) return refuse('background');

  const mask = new Uint8Array(width * height);
  for (let p = 0; p < mask.length; p++) {
    const i = p * 3;
    mask[p] = 255 - Math.min(data[i] as number, data[i + 1] as number, data[i + 2] as number) > FOREGROUND ? 1 : 0;
  }
  const { labels, regions } = labelRegions(mask, width, height);
  const largest = regions[0]?.area ?? 0;
  const pieces = regions.filter((r) => r.area >= MIN_PIECE * width * height && r.area >= MIN_SECOND_PIECE * largest);
  if (pieces.length === 0) return refuse('noCloth');
  const shapes = pieces.map((piece) => silhouette(data, labels, width, height, piece));
  // Several things none of which has a garment's outline (three yoga straps, two cups) are no clothes at all.
  if (shapes.every((s) => s.type === null)) return refuse('typeNotSupported');
  if (pieces.length > 1) {
    if (shapes.every((s) => s.type === 'onePiece')) return refuse('onlyOneDress');
    return refuse(similar(pieces, shapes) ? 'multipleSimilarClothes' : 'multipleClothes');
  }
  const type = (shapes[0] as Silhouette).type;
  return type ? { ok: true, reason: null, garmentType: type } : refuse('typeNotSupported');
}

interface Border {
  /** Its median colour: the backdrop's. */
  colour: [number, number, number];
  /** Nearly all of it close to that colour: a studio backdrop, of any colour. */
  flat: boolean;
  /** Nearly all of it near-white and evenly lit: the flat white backdrop the rules ask for. */
  white: boolean;
}

/** The border (3 % of each side): the backdrop as far as the picture shows it. */
function borderOf(data: Buffer, width: number, height: number): Border {
  const band = Math.max(2, Math.round(Math.min(width, height) * 0.03));
  const pixels: [number, number, number][] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (x >= band && x < width - band && y >= band && y < height - band) continue;
      const i = (y * width + x) * 3;
      pixels.push([data[i] as number, data[i + 1] as number, data[i + 2] as number]);
    }
  }
  const median = (c: 0 | 1 | 2) => (pixels.map((p) => p[c]).sort((a, b) => a - b)[pixels.length >> 1] as number) ?? 255;
  const colour: [number, number, number] = [median(0), median(1), median(2)];
  const share = (test: (p: [number, number, number]) => boolean) => pixels.filter(test).length / pixels.length;
  return {
    colour,
    flat: share((p) => Math.max(...p.map((v, c) => Math.abs(v - (colour[c] as number)))) <= FLAT) >= 0.8,
    white: share((p) => Math.min(...p) >= 225 && Math.max(...p) - Math.min(...p) <= 18) >= 0.92,
  };
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

function silhouette(data: Buffer, labels: Int32Array, width: number, height: number, region: Region): Silhouette {
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
  // Sleeveless: two straps (the neck opening between them) over a straight body, not long enough for a dress; a
  // rounded bag or box narrower on top has no straps.
  else if (
    aspect >= 0.9 &&
    aspect < 1.6 &&
    w10 <= 0.85 &&
    Math.min(w50, w70, w90) >= 0.8 &&
    fill >= 0.55 &&
    splitsInTwo(labels, width, region, rowAt(0.05))
  )
    type = 'top';
  else if (aspect >= 1.25 && w90 >= 0.75 && w10 <= 0.7 && w50 < w90) type = 'onePiece';
  else if (aspect < 1.3 && w10 <= 0.8 && w90 >= 0.9 && w10 < w50 && w50 <= w90) type = 'bottom';
  // A round or diamond outline (narrow at both ends, widest in the middle) is a thing, not a garment; so is an outline
  // of a garment's kind on something made (decision "Garment check reads the picture"): lopsided, looped by a
  // handle, or glossy.
  if (
    type &&
    (mirrorCover(labels, width, region) < MIN_MIRROR ||
      hasHandle(labels, width, height, region) ||
      hasGlossyHighlight(data, labels, width, region))
  )
    type = null;
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
