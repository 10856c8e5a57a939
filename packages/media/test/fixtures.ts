/**
 * Real media files for tests, made on the spot: a picture with sharp, a video with ffmpeg's test source. Shared
 * with the server's tests through `@reelsmith/media/fixtures`.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { TimelineMedia } from '../src/render/scene/types.js';
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

/**
 * A product photo: a bottle with a label standing on a table, on a lit, textured backdrop (or plain white, a
 * studio shot), with grain so it compresses like a photo. `at` is where the bottle stands across the photo.
 */
export async function productPhoto(width: number, height: number, { white = false, at = 0.5 } = {}): Promise<Buffer> {
  const h = Math.min(height * 0.6, width * 0.9);
  const w = h * 0.42;
  const x = width * at - w / 2;
  const y = height * 0.78 - h;
  const backdrop = white
    ? '<rect width="100%" height="100%" fill="#fff"/>'
    : `<defs><radialGradient id="bg" cx="40%" cy="35%" r="80%"><stop offset="0" stop-color="#e8d6c0"/><stop offset="1" stop-color="#5a4032"/></radialGradient>
<linearGradient id="table" x1="0" y1="0" x2="1" y2="0.3"><stop offset="0" stop-color="#8a6440"/><stop offset="1" stop-color="#4a3020"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#bg)"/><rect y="${height * 0.72}" width="100%" height="${height * 0.28}" fill="url(#table)"/>
${Array.from({ length: 30 }, (_, i) => `<circle cx="${(i * 211) % width}" cy="${(i * 137) % (height * 0.7)}" r="${8 + ((i * 7) % 30)}" fill="rgba(255,255,255,0.18)"/>`).join('')}`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${backdrop}
<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${w * 0.2}" fill="#1f6fb2"/>
<rect x="${x + w * 0.2}" y="${y - h * 0.12}" width="${w * 0.6}" height="${h * 0.14}" rx="8" fill="#223"/>
<rect x="${x + w * 0.1}" y="${y + h * 0.35}" width="${w * 0.8}" height="${h * 0.25}" fill="#f4f0e6"/></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true });
  if (!white) {
    let seed = width + height;
    for (let i = 0; i < data.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      data[i] = Math.max(0, Math.min(255, (data[i] as number) + ((seed >>> 24) % 9) - 4));
    }
  }
  return sharp(data, { raw: info }).jpeg({ quality: 88 }).toBuffer();
}

/**
 * A garden of leafy blobs in greens and browns, and a red dress the top edge cuts: a textured backdrop, where only
 * the cut-out model tells the subject from it.
 */
export async function gardenPhoto(width: number, height: number): Promise<Buffer> {
  let seed = 11;
  const random = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 4294967296;
  };
  let leaves = '';
  const count = Math.round((260 * width * height) / (800 * 600));
  for (let i = 0; i < count; i++) {
    const colour = ['#6a8f4e', '#3f6b35', '#a08a5a', '#c9c2a8', '#58794a', '#8fae7a'][Math.floor(random() * 6)];
    leaves += `<circle cx="${random() * width}" cy="${random() * height}" r="${10 + random() * 40}" fill="${colour}"/>`;
  }
  const [x, y] = [(share: number) => share * width, (share: number) => share * height];
  const dress = `M ${x(0.25)} ${height} L ${x(0.2875)} ${y(0.267)} Q ${x(0.325)} ${y(0.167)} ${x(0.4125)} 0 L ${x(0.5875)} 0 Q ${x(0.675)} ${y(0.167)} ${x(0.7125)} ${y(0.267)} L ${x(0.75)} ${height} Z`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#9fb58a"/>${leaves}<path d="${dress}" fill="#b02a2a"/></svg>`;
  return sharp(Buffer.from(svg)).blur(1.2).jpeg({ quality: 90 }).toBuffer();
}

/**
 * Grain: each channel of each pixel drawn from `low` to `low + spread`, softened by `blur` (gravel, leaves) or
 * not (a grey texture with nothing a model calls a product). A JPEG.
 */
export async function grainPhoto(width: number, height: number, { low = 0, spread = 256, blur = 0 } = {}): Promise<Buffer> {
  const grain = Buffer.alloc(width * height * 3);
  let seed = 3;
  for (let i = 0; i < grain.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    grain[i] = low + ((seed >>> 24) % spread);
  }
  const picture = sharp(grain, { raw: { width, height, channels: 3 } });
  return (blur > 0 ? picture.blur(blur) : picture).jpeg({ quality: 90 }).toBuffer();
}

/**
 * A drawn head-and-shoulders portrait, softened as a photo is, that the face detector takes for a face: skin,
 * hair, eyes with whites and irises, brows, nose and mouth on a studio backdrop. `turn` moves the features
 * towards one side of the head (0 looks at the camera, 1 looks far to the side); `faces` puts that many heads
 * side by side; `scale` sizes the heads against the picture.
 */
export async function drawnPortrait({
  width = 600,
  height = 800,
  turn = 0,
  faces = 1,
  scale = 1,
}: {
  width?: number;
  height?: number;
  turn?: number;
  faces?: number;
  scale?: number;
} = {}): Promise<Buffer> {
  const head = (cx: number) => {
    const s = (v: number) => v * scale;
    const cy = 360 * (height / 800);
    const shift = turn * 95 * scale;
    const eye = (ex: number) =>
      `<ellipse cx="${ex}" cy="${cy - s(10)}" rx="${s(30)}" ry="${s(15)}" fill="#fff"/>` +
      `<circle cx="${ex}" cy="${cy - s(10)}" r="${s(12)}" fill="#4a3020"/><circle cx="${ex}" cy="${cy - s(10)}" r="${s(5)}" fill="#000"/>`;
    return [
      `<path d="M${cx - s(220)} ${cy + s(440)} Q${cx - s(210)} ${cy + s(260)} ${cx} ${cy + s(240)} Q${cx + s(210)} ${cy + s(260)} ${cx + s(220)} ${cy + s(440)} Z" fill="#2d5d8a"/>`,
      `<rect x="${cx - s(45)}" y="${cy + s(140)}" width="${s(90)}" height="${s(120)}" fill="#c98f72"/>`,
      `<ellipse cx="${cx}" cy="${cy}" rx="${s(150)}" ry="${s(195)}" fill="url(#skin)"/>`,
      `<path d="M${cx - s(150)} ${cy - s(30)} Q${cx - s(160)} ${cy - s(210)} ${cx} ${cy - s(220)} Q${cx + s(160)} ${cy - s(210)} ${cx + s(150)} ${cy - s(30)} Q${cx + s(130)} ${cy - s(140)} ${cx} ${cy - s(145)} Q${cx - s(130)} ${cy - s(140)} ${cx - s(150)} ${cy - s(30)} Z" fill="#3a2418"/>`,
      eye(cx - s(60) + shift) + eye(cx + s(60) + shift),
      `<path d="M${cx - s(100) + shift} ${cy - s(42)} Q${cx - s(60) + shift} ${cy - s(60)} ${cx - s(25) + shift} ${cy - s(42)}" stroke="#3a2418" stroke-width="${s(9)}" fill="none"/>`,
      `<path d="M${cx + s(25) + shift} ${cy - s(42)} Q${cx + s(60) + shift} ${cy - s(60)} ${cx + s(100) + shift} ${cy - s(42)}" stroke="#3a2418" stroke-width="${s(9)}" fill="none"/>`,
      `<path d="M${cx + shift * 1.3} ${cy} L${cx - s(15) + shift * 1.3} ${cy + s(65)} Q${cx + shift * 1.3} ${cy + s(75)} ${cx + s(15) + shift * 1.3} ${cy + s(65)} Z" fill="#c58c70"/>`,
      `<path d="M${cx - s(45) + shift} ${cy + s(110)} Q${cx + shift} ${cy + s(140)} ${cx + s(45) + shift} ${cy + s(110)} Q${cx + shift} ${cy + s(125)} ${cx - s(45) + shift} ${cy + s(110)} Z" fill="#a5474a"/>`,
    ].join('');
  };
  const heads = Array.from({ length: faces }, (_, i) => head(((i + 0.5) * width) / faces)).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    '<defs><radialGradient id="skin" cx="50%" cy="45%" r="60%"><stop offset="0" stop-color="#f1c6a8"/><stop offset="0.7" stop-color="#d9a184"/><stop offset="1" stop-color="#a86f55"/></radialGradient>' +
    '<radialGradient id="bg" cx="50%" cy="40%" r="80%"><stop offset="0" stop-color="#8a9bb0"/><stop offset="1" stop-color="#3b4656"/></radialGradient></defs>' +
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>${heads}</svg>`;
  return sharp(Buffer.from(svg)).blur(2).jpeg({ quality: 90 }).toBuffer();
}

/** The tags a video file carries in its container's metadata (a muxed "AI-generated" tag among them). */
export async function formatTags(tools: MediaTools, file: string): Promise<Record<string, string>> {
  const { stdout } = await promisify(execFile)(tools.ffprobe, ['-v', 'error', '-show_entries', 'format_tags', '-of', 'json', file]);
  return (JSON.parse(stdout) as { format: { tags?: Record<string, string> } }).format.tags ?? {};
}

/** The file a timeline scene's media shows: the product's own under a presenter beside it. */
export const shownFile = (media: TimelineMedia): string => (media.kind === 'presented' ? media.product.file : media.file);
