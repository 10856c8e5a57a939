import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { runTool } from '../run.js';
import { locateTools, type MediaTools } from '../tools.js';
import { captionFontsDir } from './font.js';

/** Quotes a path for an ffmpeg filter option: the filter graph gives `:`, `'` and `\` their own meanings. */
const filterPath = (path: string) => `'${path.replace(/\\/g, '\\\\').replace(/'/g, "'\\''").replace(/:/g, '\\:')}'`;

/** Where the sample product stands in the sample frame, in shares of it: the previews keep their captions off it. */
export const SAMPLE_PRODUCT = { x: 0.34, y: 0.27, w: 0.32, h: 0.35 };

/**
 * A product shot to show captions on (not flat grey, so a style's legibility over a photo shows): a warm studio
 * gradient, a table edge, and a bottle with its highlight and shadow where SAMPLE_PRODUCT says.
 */
export function sampleBackdrop(width: number, height: number): Promise<Buffer> {
  const { x, y, w, h } = SAMPLE_PRODUCT;
  const [px, py, pw, ph] = [x * width, y * height, w * width, h * height];
  const cap = ph * 0.16;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs>
    <linearGradient id="wall" x1="0" y1="0" x2="0.4" y2="1"><stop offset="0" stop-color="#7a8fa6"/><stop offset="0.55" stop-color="#c9a98c"/><stop offset="1" stop-color="#5b4636"/></linearGradient>
    <linearGradient id="table" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#8a6a50"/><stop offset="1" stop-color="#3c2a1f"/></linearGradient>
    <linearGradient id="body" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#1f6f78"/><stop offset="0.3" stop-color="#6fd0d6"/><stop offset="0.45" stop-color="#2d9aa4"/><stop offset="1" stop-color="#134a50"/></linearGradient>
    <radialGradient id="shadow"><stop offset="0" stop-color="#000" stop-opacity="0.55"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#wall)"/>
  <rect y="${py + ph * 0.92}" width="${width}" height="${height}" fill="url(#table)"/>
  <ellipse cx="${px + pw / 2}" cy="${py + ph}" rx="${pw * 0.75}" ry="${ph * 0.06}" fill="url(#shadow)"/>
  <rect x="${px + pw * 0.22}" y="${py}" width="${pw * 0.56}" height="${cap}" rx="${pw * 0.08}" fill="#22262b"/>
  <rect x="${px}" y="${py + cap * 0.9}" width="${pw}" height="${ph - cap * 0.9}" rx="${pw * 0.2}" fill="url(#body)"/>
  <rect x="${px + pw * 0.12}" y="${py + ph * 0.45}" width="${pw * 0.76}" height="${ph * 0.14}" fill="#f4efe6" opacity="0.9"/>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export interface CaptionFrameOptions {
  ass: string;
  width: number;
  height: number;
  /** The moment shown, in seconds on the captions' clock. */
  at: number;
  outFile: string;
  /** A picture (PNG bytes) of the frame's size behind the captions; flat grey without. */
  backdrop?: Buffer | undefined;
  tools?: MediaTools | undefined;
}

/** One frame of captions at `at`, drawn by libass exactly as the renderer burns them in, with the shipped font. */
export async function captionFrame({
  ass,
  width,
  height,
  at,
  outFile,
  backdrop,
  tools = locateTools(),
}: CaptionFrameOptions): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'reelsmith-caption-'));
  try {
    const assFile = join(dir, 'captions.ass');
    await writeFile(assFile, ass);
    const input = backdrop
      ? ['-i', await writeFile(join(dir, 'backdrop.png'), backdrop).then(() => join(dir, 'backdrop.png'))]
      : ['-f', 'lavfi', '-i', `color=c=0x808080:s=${width}x${height}:d=1`];
    await runTool(tools.ffmpeg, [
      ...['-v', 'error', '-y', ...input],
      // The one frame is stamped `at`, so libass draws the captions of that moment.
      ...['-vf', `setpts=PTS+${at.toFixed(3)}/TB,subtitles=filename=${filterPath(assFile)}:fontsdir=${filterPath(captionFontsDir())}`],
      ...['-frames:v', '1', outFile],
    ]);
    return outFile;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
