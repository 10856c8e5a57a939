/**
 * The renderer on both ffmpeg builds it must work with (decision "Both ffmpeg builds"): the npm static ffmpeg 4.1
 * (named explicitly, as a machine with only Node and npm has it) and the ffmpeg on PATH (Debian's 5.1 where
 * installed; the npm one again where not). One short ad each, with a zoom, a pan, a crossfade, burnt-in captions
 * and the AI label's metadata, checked on the file: its length, the tags the renderer writes, and a decoded frame,
 * which must match the other build's.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAPTION_FONT,
  captionFontsDir,
  locateTools,
  type MediaTools,
  onPath,
  renderVideo,
  runTool,
  TEMPLATES,
  type Timeline,
} from '../src/index.js';
import { trimHeaderDurations } from '../src/render/movieDuration.js';
import { productPhoto } from './fixtures.js';

const require = createRequire(import.meta.url);
const npmBinary = (name: string) => (require(name) as { path: string }).path;
const npmTools = locateTools({ ffmpegPath: npmBinary('@ffmpeg-installer/ffmpeg'), ffprobePath: npmBinary('@ffprobe-installer/ffprobe') });
const pathTools = locateTools({ ffmpegPath: onPath('ffmpeg'), ffprobePath: onPath('ffprobe') });
const BUILDS = [
  ['the npm ffmpeg', npmTools],
  ['the ffmpeg on PATH', pathTools],
] as const;

const dir = mkdtempSync(join(tmpdir(), 'reelsmith-both-ffmpeg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = (name: string) => join(dir, name);

const SECONDS = 1.6;
const SIZE = 540;
const FPS = 25;
/** What the server's compose writes on a labelled export (decision "AI-generated label"). */
const METADATA = { comment: 'AI-generated content', ai_generated: 'true' };

/** A caption over the whole ad, in the bundled font so libass draws the same glyphs on any machine. */
const ASS = `[Script Info]
ScriptType: v4.00+
PlayResX: ${SIZE}
PlayResY: ${SIZE}

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,${CAPTION_FONT},48,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,-1,0,0,0,100,100,0,0,1,3,0,2,20,20,40,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:00.00,0:00:01.60,Default,,0,0,0,,BUY NOW
`;

interface Rendered {
  file: string;
  poster: string;
  /** Wall-clock time of the render, for the record. */
  ms: number;
}
const rendered = new Map<MediaTools, Rendered>();

beforeAll(async () => {
  const [a, b] = [path('a.jpg'), path('b.jpg')];
  writeFileSync(a, await productPhoto(800, 800));
  writeFileSync(b, await productPhoto(1000, 700, { at: 0.4 }));
  const audio = path('voice.wav');
  // Made by the npm ffmpeg, which every machine has; `sine`'s duration option is in both builds.
  await runTool(npmTools.ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=1.2', audio]);
  const ass = path('captions.ass');
  writeFileSync(ass, ASS);
  const timeline: Timeline = {
    aspectRatio: '1:1',
    seconds: SECONDS,
    transition: 0.4,
    look: TEMPLATES['clean-studio'],
    transitionKind: 'dissolve',
    scenes: [
      { media: { kind: 'image', file: a }, role: 'feature', start: 0, seconds: 0.8, motion: 'zoom-in' },
      { media: { kind: 'image', file: b }, role: 'feature', start: 0.8, seconds: 0.8, motion: 'pan-right' },
    ],
  };
  // One still cache for both: the second render reuses the first's stills, so the two differ by ffmpeg alone.
  const cacheDir = path('cache');
  for (const [, tools] of BUILDS) {
    if (rendered.has(tools)) continue;
    const name = tools === npmTools ? 'npm' : 'path';
    const file = path(`${name}.mp4`);
    const poster = path(`${name}.png`);
    const started = performance.now();
    await renderVideo(timeline, {
      audio,
      ass,
      fontsDir: captionFontsDir(),
      quality: 'preview',
      outFile: file,
      posterFile: poster,
      cacheDir,
      metadata: METADATA,
      tools,
    });
    rendered.set(tools, { file, poster, ms: performance.now() - started });
  }
}, 60_000);

interface Probed {
  format: { duration: string; tags?: Record<string, string> };
  streams: Array<Record<string, string | number | undefined>>;
}

/** What an ffprobe reads of the file: the format's length and tags, and each stream's. */
async function probeWith(tools: MediaTools, file: string): Promise<Probed> {
  const json = await runTool(tools.ffprobe, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file]);
  return JSON.parse(json) as Probed;
}

/**
 * The movie header's length in seconds, read from the MP4's bytes (what QuickTime, browsers and ffprobe 5.1 show
 * as the file's length, whatever a newer ffprobe makes of the tracks).
 */
function movieHeaderSeconds(file: string): number {
  const bytes = readFileSync(file);
  const mvhd = bytes.indexOf('mvhd', 0, 'latin1');
  expect(mvhd).toBeGreaterThan(0);
  const version = bytes.readUInt8(mvhd + 4);
  const timescale = bytes.readUInt32BE(mvhd + (version === 1 ? 24 : 16));
  const duration = version === 1 ? Number(bytes.readBigUInt64BE(mvhd + 28)) : bytes.readUInt32BE(mvhd + 20);
  return duration / timescale;
}

/** The video sample description's colour box (`colr`, nclx): primaries, transfer, matrix and full-range flag. */
function colourBox(file: string) {
  const bytes = readFileSync(file);
  const at = bytes.indexOf('colrnclx', 0, 'latin1');
  if (at < 0) return undefined;
  return {
    primaries: bytes.readUInt16BE(at + 8),
    transfer: bytes.readUInt16BE(at + 10),
    matrix: bytes.readUInt16BE(at + 12),
    fullRange: bytes.readUInt8(at + 14) >> 7,
  };
}

/** The frame `at` seconds in, decoded by the same build to RGB. */
async function frameAt(tools: MediaTools, file: string, at: number): Promise<Buffer> {
  const png = path(`frame-${tools === npmTools ? 'npm' : 'path'}-${at}.png`);
  await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-ss', String(at), '-i', file, '-frames:v', '1', png]);
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([SIZE, SIZE]);
  return data;
}

const mean = (pixels: Buffer) => pixels.reduce((sum, v) => sum + v, 0) / pixels.length;

describe.each(BUILDS)('an ad rendered with %s', (_, tools) => {
  it('is as long as asked (movie header, format and both streams within 0.02 s), 40 frames at 25 fps', async () => {
    const { file, ms } = rendered.get(tools) as Rendered;
    console.log(`${tools.ffmpeg}: rendered ${SECONDS} s in ${Math.round(ms)} ms`);
    // Read by both builds' ffprobe: files made by one are read by the other wherever both exist.
    for (const reader of new Set([tools, npmTools, pathTools])) {
      const probed = await probeWith(reader, file);
      expect(Math.abs(Number(probed.format.duration) - SECONDS)).toBeLessThanOrEqual(0.02);
      for (const stream of probed.streams) expect(Math.abs(Number(stream.duration) - SECONDS)).toBeLessThanOrEqual(0.02);
    }
    expect(Math.abs(movieHeaderSeconds(file) - SECONDS)).toBeLessThanOrEqual(0.02);
    const frames = await runTool(tools.ffprobe, [
      ...['-v', 'error', '-count_frames', '-select_streams', 'v', '-show_entries', 'stream=nb_read_frames,r_frame_rate'],
      ...['-of', 'csv=p=0', file],
    ]);
    expect(frames.trim()).toBe(`${FPS}/1,${SECONDS * FPS}`);
  });

  it('carries the tags the renderer writes: H.264 + AAC, BT.709 limited range in the stream and its colr box, the metadata', async () => {
    const { file } = rendered.get(tools) as Rendered;
    const probed = await probeWith(pathTools, file);
    expect(probed.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual(['audio:aac', 'video:h264']);
    expect(probed.streams.find((s) => s.codec_type === 'video')).toMatchObject({
      width: SIZE,
      height: SIZE,
      pix_fmt: 'yuv420p',
      color_range: 'tv',
      color_space: 'bt709',
      color_transfer: 'bt709',
      color_primaries: 'bt709',
    });
    // The container's own colour box, which players such as Safari read before the stream (decision "BT.709 exports").
    expect(colourBox(file)).toEqual({ primaries: 1, transfer: 1, matrix: 1, fullRange: 0 });
    expect(probed.format.tags).toMatchObject(METADATA);
  });

  it('shows the pictures and the caption: a decoded frame and the poster are the frame size, not black', async () => {
    const { file, poster } = rendered.get(tools) as Rendered;
    const frame = await frameAt(tools, file, 1.2);
    expect(mean(frame)).toBeGreaterThan(40);
    // The caption's white letters, low in the frame: nothing else in these pictures is that white.
    let white = 0;
    for (let i = SIZE * 3 * Math.round(SIZE * 0.8); i < frame.length; i += 3) {
      if ((frame[i] as number) > 235 && (frame[i + 1] as number) > 235 && (frame[i + 2] as number) > 235) white++;
    }
    expect(white).toBeGreaterThan(500);
    expect((await sharp(poster).metadata()).width).toBe(SIZE);
  });
});

it('draws the same frames with both builds: the crossfade and the caption within 3 levels on average', async () => {
  const npm = rendered.get(npmTools) as Rendered;
  const other = rendered.get(pathTools) as Rendered;
  // Mid-crossfade (overlay, fade with alpha) and in the pan, both under the caption (libass).
  for (const at of [0.6, 1.2]) {
    const [a, b] = await Promise.all([frameAt(npmTools, npm.file, at), frameAt(pathTools, other.file, at)]);
    let difference = 0;
    for (let i = 0; i < a.length; i++) difference += Math.abs((a[i] as number) - (b[i] as number));
    console.log(`frame at ${at} s: mean difference ${(difference / a.length).toFixed(3)} levels`);
    expect(difference / a.length).toBeLessThan(3);
  }
});

it('leaves a file whose header durations already agree with its edit lists byte for byte', async () => {
  for (const { file } of rendered.values()) {
    const before = readFileSync(file);
    expect(await trimHeaderDurations(file)).toBe(false);
    expect(readFileSync(file).equals(before)).toBe(true);
  }
});
