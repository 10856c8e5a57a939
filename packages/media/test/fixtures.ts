/**
 * Real media files for tests, made on the spot: a picture with sharp, a video with ffmpeg's test source. Shared
 * with the server's tests through `@reelsmith/media/fixtures`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { runTool } from '../src/run.js';
import type { MediaTools } from '../src/tools.js';

/** A gradient picture (so it compresses like a photo, not like a flat colour) in jpeg, png or webp. */
export async function makeImage(width: number, height: number, format: 'jpeg' | 'png' | 'webp' | 'tiff' | 'gif' = 'png'): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = ((x + y) * 97) % 256;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

/** An H.264 MP4 (or VP8 WebM) with a test pattern and a tone, `seconds` long. */
export async function makeVideo(
  tools: MediaTools,
  out: string,
  {
    seconds = 2,
    width = 320,
    height = 240,
    format = 'mp4',
  }: { seconds?: number; width?: number; height?: number; format?: 'mp4' | 'webm' } = {},
): Promise<string> {
  const codecs =
    format === 'mp4'
      ? ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac']
      : ['-c:v', 'libvpx', '-c:a', 'libvorbis'];
  await runTool(tools.ffmpeg, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=${width}x${height}:rate=25:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    ...codecs,
    '-shortest',
    out,
  ]);
  return out;
}

/** The first `fraction` of a file, as a download that broke off would leave it. */
export async function truncate(file: string, out: string, fraction = 0.5): Promise<string> {
  const bytes = await readFile(file);
  await writeFile(out, bytes.subarray(0, Math.floor(bytes.length * fraction)));
  return out;
}
