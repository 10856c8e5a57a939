/**
 * The end card's picture (decision "Ad cards"): the hook's still, softened and darkened toward the bottom so
 * the name, price and call to action drawn there read on any photo, with the brand's logo near the top. It is a
 * still like the others, so the end card keeps the picture's gentle move and costs nothing per frame.
 */
import sharp from 'sharp';
import type { BrandLook } from '../brand/look.js';
import type { Look } from './look.js';
import { MOTION_MARGIN } from './stills.js';

/** A logo is a mark, not a photo: more pixels than this is refused before it is decoded. */
export const MAX_LOGO_PIXELS = 16_000_000;
/** The logo fits in this share of the frame's width and height. */
const LOGO_BOX = { width: 0.3, height: 0.1 };
/** Below the platforms' top bar in every window the still's move shows (as a share of the frame's height). */
const LOGO_TOP = 0.1;
/**
 * How dark the picture gets where the end card's type stands (cards.ts): toward the bottom of a tall frame,
 * over the lower two thirds of a square one, and at the left of a wide one, whose type stands beside the
 * product. Each is a ramp between two shares of the height (or width) up to a darkness where the type stands,
 * then on, without levelling off, to a darker `edge` at the frame's edge: a flat band there read as a letterbox.
 * The picture is blurred in proportion. Where the type still does not read, the card puts a scrim under it
 * (decision "Readable cards").
 */
const SHADE = {
  tall: { from: 0.3, to: 0.75, dark: 0.72, edge: 0.88 },
  square: { from: 0.15, to: 0.68, dark: 0.72, edge: 0.88 },
  wideBottom: { from: 0.35, to: 0.95, dark: 0.5, edge: 0.55 },
  wideLeft: { from: 0.62, to: 0.12, dark: 0.72, edge: 0.88 },
};
/** The darkness at which the picture is wholly the blurred copy. */
const DARKEST = 0.8;
/** The picture softens by blending toward a blurred copy, made small (quick) and scaled back. */
const BLUR_SCALE = 8;

const smooth = (t: number) => {
  const x = Math.min(1, Math.max(0, t));
  return x * x * (3 - 2 * x);
};

/** The logo, fitted in `box` keeping its shape and its transparency; a huge one is refused by its header. */
async function fittedLogo(file: string, box: { width: number; height: number }) {
  // The header alone, whatever size it claims: the limit below is this function's own, with a clear message.
  const meta = await sharp(file, { failOn: 'error', limitInputPixels: false }).metadata();
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (!pixels) throw new Error(`the logo ${file} is not a picture`);
  if (pixels > MAX_LOGO_PIXELS)
    throw new RangeError(`the logo is ${meta.width}×${meta.height}, more than ${MAX_LOGO_PIXELS / 1e6} megapixels`);
  return sharp(file, { failOn: 'error', limitInputPixels: MAX_LOGO_PIXELS, autoOrient: true })
    .ensureAlpha()
    .resize(Math.max(1, Math.round(box.width)), Math.max(1, Math.round(box.height)), { fit: 'inside' })
    .png()
    .toBuffer({ resolveWithObject: true });
}

/**
 * Writes the end card's background to `out` (a JPEG the size of `still`): `still` is the framed still of the
 * hook's picture (its motion margin included, `width`×`height`), `brand.logo` an optional PNG or JPEG.
 */
export async function drawEndCard(
  still: string,
  out: string,
  options: { width: number; height: number; brand: BrandLook; template: Look },
): Promise<void> {
  const { data, info } = await sharp(still, { failOn: 'error', limitInputPixels: 100_000_000 })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = info;
  // Two pipelines: sharp honours one resize per pipeline (the last), so down, blur and up in one was only a
  // 3 px blur at full size.
  const small = { width: Math.max(1, Math.round(w / BLUR_SCALE)), height: Math.max(1, Math.round(h / BLUR_SCALE)) };
  const blurred = await sharp(data, { raw: { width: w, height: h, channels: 3 } })
    .resize(small.width, small.height, { fit: 'fill' })
    .blur(3)
    .raw()
    .toBuffer();
  const soft = await sharp(blurred, { raw: { ...small, channels: 3 } })
    .resize(w, h, { fit: 'fill' })
    .raw()
    .toBuffer();
  // A smooth step to `dark` at `to`, plus a ramp that keeps darkening, ever faster, to `edge` at the far edge.
  const ramp = (at: number, { from, to, dark, edge }: (typeof SHADE)['tall']) => {
    const rest = (at - from) / ((to > from ? 1 : 0) - from);
    return dark * smooth((at - from) / (to - from)) + (edge - dark) * Math.max(0, rest) ** 2;
  };
  const shape = w / h;
  // Darkness per row (and, on a wide frame, per column): the darker of the two.
  const rows = Float32Array.from({ length: h }, (_, y) =>
    ramp(y / h, shape > 1.2 ? SHADE.wideBottom : shape < 0.8 ? SHADE.tall : SHADE.square),
  );
  const columns = Float32Array.from({ length: w }, (_, x) => (shape > 1.2 ? ramp(x / w, SHADE.wideLeft) : 0));
  const pixels = Buffer.alloc(data.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const dark = Math.max(rows[y] as number, columns[x] as number);
      const blur = Math.min(1, dark / DARKEST);
      const i = (y * w + x) * 3;
      for (let c = i; c < i + 3; c++) pixels[c] = ((data[c] as number) * (1 - blur) + (soft[c] as number) * blur) * (1 - dark);
    }
  }
  const image = sharp(pixels, { raw: { width: w, height: h, channels: 3 } });
  if (options.brand.logo) {
    // The frame the still is made for: the still is it plus the motion margin all round.
    const frame = { width: options.width / MOTION_MARGIN, height: options.height / MOTION_MARGIN };
    const logo = await fittedLogo(options.brand.logo, { width: frame.width * LOGO_BOX.width, height: frame.height * LOGO_BOX.height });
    // The still's move shows a window anywhere in the margin: below the top bar even in the lowest one.
    const top = options.height - frame.height + LOGO_TOP * frame.height;
    image.composite([
      { input: logo.data, left: Math.round((w - logo.info.width) / 2), top: Math.round(Math.min(top, h - logo.info.height)) },
    ]);
  }
  await image.jpeg({ quality: 92, mozjpeg: false, optimiseCoding: false }).toFile(out);
}
