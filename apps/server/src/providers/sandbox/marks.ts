// What makes a sandbox output unmistakable: a large "SANDBOX" across the picture and the prompt written on it, so
// nobody takes a stand-in for a real generation. Text is set by sharp (Pango) in the caption font shipped with the
// media package, so a Chinese prompt is drawn, not boxes.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { captionFontsDir } from '@reelsmith/media';
import sharp from 'sharp';

const FONT_FILE = () => join(captionFontsDir(), 'NotoSansSC_700Bold.ttf');
const PROMPT_SHOWN = 160;

const escapeMarkup = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A line of text as a transparent PNG at most `width` wide, wrapped, in the given Pango colour and alpha. */
async function textImage(text: string, width: number, dpi: number, colour: string, alpha: string): Promise<Buffer> {
  return sharp({
    text: {
      text: `<span foreground="${colour}" alpha="${alpha}">${escapeMarkup(text)}</span>`,
      fontfile: FONT_FILE(),
      font: 'Noto Sans SC Bold',
      width,
      dpi,
      rgba: true,
      wrap: 'word-char',
      align: 'centre',
    },
  })
    .png()
    .toBuffer();
}

/** Fits `text` into at most width × height by lowering the resolution it is set at. */
async function fitted(text: string, width: number, height: number, baseDpi: number, colour: string, alpha: string) {
  let dpi = baseDpi;
  for (;;) {
    const image = await textImage(text, width, dpi, colour, alpha);
    const meta = await sharp(image).metadata();
    if ((meta.height <= height && meta.width <= width) || dpi <= 20) return { image, width: meta.width, height: meta.height };
    dpi = Math.floor(dpi * 0.8);
  }
}

/**
 * The transparent overlay of a sandbox output: SANDBOX in the middle (or with its middle `markAt` down the picture,
 * a share of its height: below a face that must stay clear), the prompt (and a label) in a band below.
 */
export async function sandboxOverlay(width: number, height: number, caption: string, markAt = 0.39): Promise<Buffer> {
  const short = Math.min(width, height);
  const mark = await fitted('SANDBOX', Math.round(width * 0.9), Math.round(height * 0.3), Math.round(short * 1.4), 'white', '55%');
  const shown = caption.length > PROMPT_SHOWN ? `${caption.slice(0, PROMPT_SHOWN)}…` : caption;
  const bandHeight = Math.round(height * 0.22);
  const text = await fitted(shown || ' ', Math.round(width * 0.9), Math.round(bandHeight * 0.85), Math.round(short * 0.3), 'white', '100%');
  const band = Buffer.from(
    `<svg width="${width}" height="${bandHeight}"><rect width="100%" height="100%" fill="#000" fill-opacity="0.55"/></svg>`,
  );
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([
      { input: mark.image, left: Math.round((width - mark.width) / 2), top: Math.round(height * markAt - mark.height / 2) },
      { input: band, left: 0, top: height - bandHeight },
      {
        input: text.image,
        left: Math.round((width - text.width) / 2),
        top: height - bandHeight + Math.round((bandHeight - text.height) / 2),
      },
    ])
    .png()
    .toBuffer();
}

/** Two colours and a few shapes chosen by the prompt, so different prompts give visibly different pictures. */
export function sandboxBackground(width: number, height: number, seed: string): Buffer {
  const hash = createHash('sha256').update(seed).digest();
  const hue = (i: number) => Math.round(((hash[i] as number) / 255) * 360);
  const at = (i: number, max: number) => Math.round(((hash[i] as number) / 255) * max);
  const circles = [4, 7, 10, 13]
    .map(
      (i) =>
        `<circle cx="${at(i, width)}" cy="${at(i + 1, height)}" r="${Math.round(Math.min(width, height) * (0.08 + at(i + 2, 20) / 100))}" fill="hsl(${hue(i)},70%,60%)" fill-opacity="0.45"/>`,
    )
    .join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue(0)},60%,35%)"/><stop offset="1" stop-color="hsl(${hue(1)},60%,20%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${circles}</svg>`,
  );
}
