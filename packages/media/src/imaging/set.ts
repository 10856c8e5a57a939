/**
 * The product on a set: the photo's cut-out standing on a designed background that fills the whole frame, for
 * photos no crop at the frame's shape can show whole. A photo on a plain backdrop (a studio shot) gets a studio
 * sweep in its backdrop's colour (a seamless gradient with a soft floor shadow and a vignette); any other photo
 * a blurred, darkened enlargement of itself, which keeps its colours. Decision "Framing".
 */
import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import { labelRegions, type Region } from './components.js';
import { clamp, openImage, rgbPixels, withAlpha } from './open.js';
import type { Box } from './shadow.js';
import { contactShadow } from './shadow.js';
import { maskBox, type ShareBox } from './subject.js';

/** The largest share of the frame's width and height the product may take: room for the moves and some air. */
const PRODUCT_WIDTH = 0.7;
const PRODUCT_HEIGHT = 0.64;
/** Where its base stands, as a share of the frame's height (a floor in the lower part of the frame). */
const BASE = 0.8;

const rgb = (colour: readonly number[], gain: number) => `rgb(${colour.map((v) => Math.round(clamp(v * gain, 0, 255))).join(',')})`;

/**
 * A studio sweep in the backdrop's colour: lit from above (the top a touch brighter than the backdrop), the
 * floor falling off toward the bottom, a broad soft shadow on the floor where the product stands and a light
 * vignette, so no row or column of it is one flat colour.
 */
function studioSweep(width: number, height: number, colour: readonly number[], floorY: number): Buffer {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs>
    <linearGradient id="sweep" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${rgb(colour, 0.97)}"/><stop offset="0.45" stop-color="${rgb(colour, 1)}"/>
      <stop offset="${(floorY / height).toFixed(3)}" stop-color="${rgb(colour, 0.95)}"/><stop offset="1" stop-color="${rgb(colour, 0.84)}"/>
    </linearGradient>
    <radialGradient id="floor" cx="50%" cy="50%" r="50%">
      <stop offset="0" stop-color="#000" stop-opacity="0.16"/><stop offset="1" stop-color="#000" stop-opacity="0"/>
    </radialGradient>
    <radialGradient id="vignette" cx="50%" cy="42%" r="75%">
      <stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.16"/>
    </radialGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#sweep)"/>
  <ellipse cx="${width / 2}" cy="${floorY}" rx="${width * 0.55}" ry="${height * 0.07}" fill="url(#floor)"/>
  <rect width="${width}" height="${height}" fill="url(#vignette)"/>
</svg>`;
  return Buffer.from(svg);
}

/** The side the blurred background is worked out at: a colour field, not detail. */
const FIELD = 48;

/**
 * The photo itself enlarged to fill the frame, out of focus and darkened so the product stands out in front
 * of it. The product is taken out of it first (a blur that only averages the background around it, weighted
 * by the cut-out's mask), else a ghost of the product would loom behind the product. Worked out on a small
 * field and scaled up: the same look for a fraction of the work of a wide blur at full size.
 */
async function blurredPhoto(input: string | Buffer, cutout: { mask: Buffer; side: number }, width: number, height: number): Promise<Sharp> {
  const fw = width >= height ? FIELD : Math.max(8, Math.round((FIELD * width) / height));
  const fh = width >= height ? Math.max(8, Math.round((FIELD * height) / width)) : FIELD;
  const { data } = await rgbPixels(input, { width: fw, height: fh });
  const mask = await sharp(cutout.mask, { raw: { width: cutout.side, height: cutout.side, channels: 1 } })
    .resize(fw, fh, { fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const weight = new Float32Array(fw * fh);
  const planes = [0, 1, 2].map(() => new Float32Array(fw * fh));
  for (let p = 0; p < weight.length; p++) {
    const w = (1 - (mask[p] as number) / 255) ** 3;
    weight[p] = w;
    for (let c = 0; c < 3; c++) (planes[c] as Float32Array)[p] = (data[p * 3 + c] as number) * w;
  }
  const radius = Math.max(2, Math.round(Math.max(fw, fh) / 12));
  for (const plane of [weight, ...planes]) for (let pass = 0; pass < 3; pass++) boxBlur(plane, fw, fh, radius);
  // Darkened to 60 % and its colour a tenth richer, on the small field (at full size sharp's modulate took
  // half of the set's time).
  const field = Buffer.alloc(fw * fh * 3);
  for (let p = 0; p < weight.length; p++) {
    const w = Math.max(1e-3, weight[p] as number);
    const rgb = planes.map((plane) => (plane[p] as number) / w);
    const grey = ((rgb[0] as number) + (rgb[1] as number) + (rgb[2] as number)) / 3;
    for (let c = 0; c < 3; c++) field[p * 3 + c] = clamp((grey + ((rgb[c] as number) - grey) * 1.1) * 0.6, 0, 255);
  }
  return sharp(field, { raw: { width: fw, height: fh, channels: 3 } }).resize(width, height, { fit: 'fill', kernel: 'cubic' });
}

/** A box blur of `radius` in place, along rows then columns (three passes make it close to a gaussian). */
function boxBlur(plane: Float32Array, width: number, height: number, radius: number): void {
  const line = new Float32Array(Math.max(width, height));
  const run = (start: number, step: number, length: number) => {
    for (let i = 0; i < length; i++) line[i] = plane[start + i * step] as number;
    for (let i = 0; i < length; i++) {
      let sum = 0;
      let count = 0;
      for (let k = Math.max(0, i - radius); k <= Math.min(length - 1, i + radius); k++) {
        sum += line[k] as number;
        count++;
      }
      plane[start + i * step] = sum / count;
    }
  };
  for (let y = 0; y < height; y++) run(y * width, 1, width);
  for (let x = 0; x < width; x++) run(x, width, height);
}

/** Holes larger than this share of the picture are the photo's own (between an arm and the body): kept. */
const MAX_HOLE = 0.03;

/**
 * The mask with its holes filled: background regions (under half on) that do not reach the border are inside
 * the subject (the small model leaves holes in a white garment on white).
 */
function fillHoles(mask: Buffer, side: number): Buffer {
  const background = new Uint8Array(side * side);
  for (let p = 0; p < background.length; p++) background[p] = (mask[p] as number) < 128 ? 1 : 0;
  const { labels, regions } = labelRegions(background, side, side);
  const inside = (r: Region) => r.left > 0 && r.top > 0 && r.right < side - 1 && r.bottom < side - 1;
  const holes = new Set(regions.filter((r) => inside(r) && r.area < side * side * MAX_HOLE).map((r) => r.label));
  const filled = Buffer.from(mask);
  for (let p = 0; p < filled.length; p++) if (holes.has(labels[p] as number)) filled[p] = 255;
  return filled;
}

/**
 * Where the product stands on a `set` of its size: its box in the photo (shares, from the cut-out's mask) in
 * pixels of the `photo`, and the box it is drawn in on the set, as large as the set allows with air round it, its
 * base on the floor. A subject the photo itself cuts at an edge (a person from the waist up, legs from the hem
 * down) cannot float in the middle of a set: it comes in from that edge of the frame, and stands on no floor
 * unless it ends above the frame's bottom; cut at both ends, it spans the frame from edge to edge.
 */
export function placeOnSet(found: ShareBox, photo: { width: number; height: number }, set: { width: number; height: number }) {
  const { width: pw, height: ph } = photo;
  const box = {
    left: Math.floor(found.left * pw),
    top: Math.floor(found.top * ph),
    width: Math.max(1, Math.ceil((found.right - found.left) * pw)),
    height: Math.max(1, Math.ceil((found.bottom - found.top) * ph)),
  };
  box.width = Math.min(box.width, pw - box.left);
  box.height = Math.min(box.height, ph - box.top);
  const cut = { left: found.left < 0.015, top: found.top < 0.015, right: found.right > 0.985, bottom: found.bottom > 0.985 };
  const share = (low: boolean, high: boolean, free: number, one: number) => (low && high ? 1 : low || high ? one : free);
  const scale = Math.min(
    (set.width * share(cut.left, cut.right, PRODUCT_WIDTH, 0.85)) / box.width,
    (set.height * share(cut.top, cut.bottom, PRODUCT_HEIGHT, 0.8)) / box.height,
  );
  const placed: Box = {
    width: Math.max(1, Math.round(box.width * scale)),
    height: Math.max(1, Math.round(box.height * scale)),
    left: 0,
    top: 0,
  };
  placed.left = cut.left ? 0 : cut.right ? set.width - placed.width : Math.round((set.width - placed.width) / 2);
  placed.top = cut.top ? 0 : cut.bottom ? set.height - placed.height : Math.round(set.height * BASE - placed.height);
  return { box, placed, cut };
}

/**
 * A set on a blurred photo in its two planes, for a move that turns about the product (decision "Parallax"): the
 * background alone, and the product with its contact shadow as a transparent picture (RGBA) whose top-left corner
 * stands at `left`, `top` of the set.
 */
export interface SetPlanes {
  background: Sharp;
  product: Sharp;
  left: number;
  top: number;
}

/**
 * Draws the photo's product on a set of `width`×`height` and hands it to `finish`. `cutout` is the cut-out model's mask of
 * the photo (`side`×`side`, stretched over the picture); `backdrop` its plain backdrop's colour, if it has one.
 * The set is also handed to `planes`, when given, in its two planes: which sets are worth them is the caller's
 * choice (framing's `drawFramed`).
 */
export async function drawOnSet(
  input: string | Buffer,
  cutout: { mask: Buffer; side: number },
  backdrop: readonly number[] | null,
  width: number,
  height: number,
  /** Writes the set out (grading and encoding it as the caller wants). */
  finish: (set: Sharp) => Promise<unknown>,
  planes?: (planes: SetPlanes) => Promise<unknown>,
): Promise<void> {
  const found = maskBox(cutout.mask, cutout.side, cutout.side);
  if (!found) throw new Error('The cut-out found no product to put on a set');
  const picture = openImage(input).flatten({ background: '#ffffff' }).toColourspace('srgb');
  const { autoOrient } = await picture.metadata();
  const { width: pw, height: ph } = autoOrient;
  // Holes the model left in the subject are filled, and the mask's edge, soft after the enlargement, is
  // steepened to about the width it had at the mask's size.
  const alpha = await sharp(fillHoles(cutout.mask, cutout.side), { raw: { width: cutout.side, height: cutout.side, channels: 1 } })
    .resize(pw, ph, { fit: 'fill' })
    .linear(2, -127.5)
    .extractChannel(0)
    .raw()
    .toBuffer();
  const { box, placed, cut } = placeOnSet(found.box, { width: pw, height: ph }, { width, height });
  const onFloor = !cut.bottom;

  // Every layer is made at its own size on the frame and handed over raw: no full-frame layer but the background.
  const background = backdrop
    ? sharp(studioSweep(width, height, backdrop, placed.top + placed.height))
    : await blurredPhoto(input, cutout, width, height);
  const [colour, coverage] = await Promise.all([
    picture.clone().extract(box).resize(placed.width, placed.height, { fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer(),
    sharp(alpha, { raw: { width: pw, height: ph, channels: 1 } })
      .extract(box)
      .resize(placed.width, placed.height, { fit: 'fill' })
      .extractChannel(0)
      .raw()
      .toBuffer(),
  ]);
  const product = await withAlpha(colour, coverage, placed).raw().toBuffer();
  const layers: OverlayOptions[] = [];
  const shadow = onFloor ? await contactShadow({ width, height }, placed, coverage) : null;
  if (shadow) layers.push(shadow);
  layers.push({ input: product, raw: { width: placed.width, height: placed.height, channels: 4 }, left: placed.left, top: placed.top });
  if (planes) await planes({ background: background.clone(), ...productPlane(layers) });
  // Composited first and then handed to `finish` as a picture of its own: sharp composites after its other
  // operations, so a grade on the same pipeline would miss the product.
  const { data, info } = await background.composite(layers).raw().toBuffer({ resolveWithObject: true });
  await finish(sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }));
}

/** The product's layers (its shadow, then itself) on a transparent picture just large enough for them. */
function productPlane(layers: OverlayOptions[]): Omit<SetPlanes, 'background'> {
  const boxes = layers.map((layer) => ({
    left: layer.left ?? 0,
    top: layer.top ?? 0,
    right: (layer.left ?? 0) + (layer.raw?.width ?? 0),
    bottom: (layer.top ?? 0) + (layer.raw?.height ?? 0),
  }));
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const width = Math.max(...boxes.map((b) => b.right)) - left;
  const height = Math.max(...boxes.map((b) => b.bottom)) - top;
  const product = sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).composite(
    layers.map((layer) => ({ ...layer, left: (layer.left ?? 0) - left, top: (layer.top ?? 0) - top })),
  );
  return { product, left, top };
}
