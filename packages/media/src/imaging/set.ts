/**
 * The product on a set: the photo's cut-out standing on a designed background that fills the whole frame, for
 * photos no crop at the frame's shape can show whole. A photo on a plain backdrop (a studio shot) gets a studio
 * sweep in its backdrop's colour (a seamless gradient with a soft floor shadow and a vignette); any other photo
 * a blurred, darkened enlargement of itself, which keeps its colours. Decision "Framing".
 */
import sharp, { type OverlayOptions } from 'sharp';
import { type Box, contactShadow } from './composite.js';
import { clamp, openImage, rgbPixels } from './open.js';
import { maskBox } from './subject.js';

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
async function blurredPhoto(
  input: string | Buffer,
  cutout: { mask: Buffer; side: number },
  width: number,
  height: number,
): Promise<Buffer> {
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
  const field = Buffer.alloc(fw * fh * 3);
  for (let p = 0; p < weight.length; p++) {
    const w = Math.max(1e-3, weight[p] as number);
    for (let c = 0; c < 3; c++) field[p * 3 + c] = clamp(((planes[c] as Float32Array)[p] as number) / w, 0, 255);
  }
  return sharp(field, { raw: { width: fw, height: fh, channels: 3 } })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .modulate({ brightness: 0.6, saturation: 1.1 })
    .png({ compressionLevel: 0 })
    .toBuffer();
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

/**
 * Draws the photo's product on a set of `width`×`height` to `out` (JPEG). `cutout` is the cut-out model's mask of
 * the photo (`side`×`side`, stretched over the picture); `backdrop` its plain backdrop's colour, if it has one.
 */
export async function drawOnSet(
  input: string | Buffer,
  cutout: { mask: Buffer; side: number },
  backdrop: readonly number[] | null,
  width: number,
  height: number,
  out: string,
): Promise<void> {
  const found = maskBox(cutout.mask, cutout.side, cutout.side);
  if (!found) throw new Error('The cut-out found no product to put on a set');
  const picture = await openImage(input).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const { width: pw, height: ph } = picture.info;
  const alpha = await sharp(cutout.mask, { raw: { width: cutout.side, height: cutout.side, channels: 1 } })
    .resize(pw, ph, { fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const box = {
    left: Math.floor(found.box.left * pw),
    top: Math.floor(found.box.top * ph),
    width: Math.max(1, Math.ceil((found.box.right - found.box.left) * pw)),
    height: Math.max(1, Math.ceil((found.box.bottom - found.box.top) * ph)),
  };
  box.width = Math.min(box.width, pw - box.left);
  box.height = Math.min(box.height, ph - box.top);
  // A subject the photo itself cuts at an edge (a person from the waist up, legs from the hem down) cannot float
  // in the middle of a set: it comes in from that edge of the frame, and stands on no floor unless it ends above
  // the frame's bottom.
  const cut = {
    left: found.box.left < 0.015,
    top: found.box.top < 0.015,
    right: found.box.right > 0.985,
    bottom: found.box.bottom > 0.985,
  };
  // Cut at both ends, it spans the frame from edge to edge; at one end, it comes most of the way in.
  const share = (low: boolean, high: boolean, free: number, one: number) => (low && high ? 1 : low || high ? one : free);
  const scale = Math.min(
    (width * share(cut.left, cut.right, PRODUCT_WIDTH, 0.85)) / box.width,
    (height * share(cut.top, cut.bottom, PRODUCT_HEIGHT, 0.8)) / box.height,
  );
  const placed: Box = {
    width: Math.max(1, Math.round(box.width * scale)),
    height: Math.max(1, Math.round(box.height * scale)),
    left: 0,
    top: 0,
  };
  placed.left = cut.left ? 0 : cut.right ? width - placed.width : Math.round((width - placed.width) / 2);
  placed.top = cut.top ? 0 : cut.bottom ? height - placed.height : Math.round(height * BASE - placed.height);
  const onFloor = !cut.bottom;

  const background = backdrop
    ? await sharp(studioSweep(width, height, backdrop, placed.top + placed.height))
        .png({ compressionLevel: 0 })
        .toBuffer()
    : await blurredPhoto(input, cutout, width, height);
  // Joined first and resized apart: sharp joins a channel after its resize, at the picture's size.
  const rgba = await sharp(picture.data, { raw: picture.info })
    .joinChannel(alpha, { raw: { width: pw, height: ph, channels: 1 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const product = await sharp(rgba.data, { raw: rgba.info })
    .extract(box)
    .resize(placed.width, placed.height, { fit: 'fill', kernel: 'lanczos3' })
    .png({ compressionLevel: 0 })
    .toBuffer();
  const layers: OverlayOptions[] = [];
  if (onFloor) {
    const shadow = await sharp(contactShadow({ width, height }, placed))
      .blur(Math.max(1, placed.height * 0.01))
      .png({ compressionLevel: 0 })
      .toBuffer();
    layers.push({ input: shadow, left: 0, top: 0 });
  }
  layers.push({ input: product, left: placed.left, top: placed.top });
  await sharp(background).composite(layers).jpeg({ quality: 90 }).toFile(out);
}
