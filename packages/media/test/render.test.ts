import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateTools, type MediaTools, planTimeline, probe, renderVideo, runTool, TEMPLATES, type Timeline } from '../src/index.js';
import { makeImage, makeVideo } from './fixtures.js';

const tools = locateTools();
const npmBinary = (name: string) => (createRequire(import.meta.url)(name) as { path: string }).path;
const npmTools = { ffmpeg: npmBinary('@ffmpeg-installer/ffmpeg'), ffprobe: npmBinary('@ffprobe-installer/ffprobe') };

const dir = mkdtempSync(join(tmpdir(), 'reelsmith-render-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = (name: string) => join(dir, name);
const cacheDir = path('cache');

/** One white caption, low in the frame, from 1 s to 3 s; nothing after. */
const ASS = `[Script Info]
ScriptType: v4.00+
PlayResX: 540
PlayResY: 960

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,DejaVu Sans,56,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,-1,0,0,0,100,100,0,0,1,3,0,2,20,20,100,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:01.00,0:00:03.00,Default,,0,0,0,,BUY NOW TODAY
`;

/** A flat picture, so anything bright in the caption area of a frame is the caption. */
const flat = (file: string) =>
  sharp({ create: { width: 600, height: 800, channels: 3, background: '#2a4a7a' } })
    .jpeg()
    .toFile(file);

/** The top-level MP4 boxes in file order. */
function boxes(file: string): string[] {
  const bytes = readFileSync(file);
  const names: string[] = [];
  for (let at = 0; at + 8 <= bytes.length; ) {
    const size = bytes.readUInt32BE(at);
    names.push(bytes.toString('latin1', at + 4, at + 8));
    if (size < 8) break;
    at += size;
  }
  return names;
}

/** Stats of the bottom fifth of the frame `at` seconds into a video (where the caption sits). */
async function captionArea(video: string, at: number) {
  const png = path(`frame-${at}-${Date.now()}.png`);
  await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-ss', String(at), '-i', video, '-frames:v', '1', png]);
  const image = sharp(png);
  const { width, height } = await image.metadata();
  const top = Math.round(height * 0.75);
  const stats = await image.extract({ left: 0, top, width, height: height - top - 10 }).stats();
  return { max: Math.max(...stats.channels.map((c) => c.max)), spread: Math.max(...stats.channels.map((c) => c.stdev)) };
}

async function meanVolume(video: string): Promise<number> {
  const { stderr } = await import('node:child_process').then(({ spawnSync }) =>
    spawnSync(tools.ffmpeg, ['-i', video, '-vn', '-af', 'volumedetect', '-f', 'null', '-'], { encoding: 'utf8' }),
  );
  return Number(/mean_volume: (-?[\d.]+) dB/.exec(stderr)?.[1]);
}

/** A hand-made timeline of `seconds` (renders of plans are always 15 s or more; size checks need less). */
const shortTimeline = (aspectRatio: Timeline['aspectRatio'], files: string[], seconds = 2): Timeline => ({
  aspectRatio,
  seconds,
  transition: 0.4,
  look: TEMPLATES['clean-studio'],
  transitionKind: 'dissolve',
  scenes: files.map((file, i) => ({
    media: { kind: 'image' as const, file },
    role: 'feature' as const,
    start: (i * seconds) / files.length,
    seconds: seconds / files.length,
    motion: i % 2 ? ('pan-right' as const) : ('zoom-in' as const),
  })),
});

let audio: string;
let ass: string;
let images: string[];

beforeAll(async () => {
  audio = path('voice.wav');
  await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=13', '-af', 'volume=0.3', audio]);
  ass = path('captions.ass');
  writeFileSync(ass, ASS);
  images = [path('flat.jpg'), path('a.jpg'), path('b.png')];
  await flat(images[0] as string);
  writeFileSync(images[1] as string, await makeImage(1200, 1600, 'jpeg'));
  writeFileSync(images[2] as string, await makeImage(1600, 900, 'png'));
});

describe('renderVideo', () => {
  it('renders a 15 s 9:16 preview from a plan: 540×960 H.264 + AAC, faststart, poster, audible, within ±1 s', async () => {
    const clip = await makeVideo(tools, path('clip.mp4'), { seconds: 2, width: 320, height: 240 });
    const timeline = planTimeline({
      scenes: [
        { kind: 'image', file: images[1] as string },
        { kind: 'video', file: clip, seconds: 2 },
        { kind: 'image', file: images[2] as string },
      ],
      segments: [3.1, 2.6, 3.4, 2.9].map((seconds, i) => ({ segId: i + 1, seconds })),
      videoLength: 15,
      aspectRatio: '9:16',
      template: TEMPLATES['clean-studio'],
      hasOffer: false,
    });
    const outFile = path('preview.mp4');
    const posterFile = path('poster.png');
    const result = await renderVideo(timeline, { audio, ass, quality: 'preview', outFile, posterFile, cacheDir, tools });
    expect(result).toMatchObject({ width: 540, height: 960, seconds: 15 });

    const p = await probe(tools, outFile);
    expect(Math.abs(p.duration - 15)).toBeLessThanOrEqual(1);
    expect([p.width, p.height]).toEqual([540, 960]);
    expect(p.streams.map((s) => `${s.type}:${s.codec}`).sort()).toEqual(['audio:aac', 'video:h264']);
    const order = boxes(outFile);
    expect(order.indexOf('moov')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('moov')).toBeLessThan(order.indexOf('mdat'));
    // The voice is 13 s and padded with silence: still clearly audible on average, not clipped.
    expect(await meanVolume(outFile)).toBeGreaterThan(-40);
    expect(await meanVolume(outFile)).toBeLessThan(-3);
    expect((await sharp(posterFile).metadata()).width).toBe(540);
    const fps = await runTool(tools.ffprobe, [
      '-v',
      'error',
      '-select_streams',
      'v',
      '-show_entries',
      'stream=pix_fmt,r_frame_rate',
      '-of',
      'csv=p=0',
      outFile,
    ]);
    expect(fps.trim()).toBe('yuv420p,25/1');
  });

  it('burns the subtitles in: the caption area lights up while a caption is on screen only', async () => {
    const outFile = path('captions.mp4');
    await renderVideo(shortTimeline('9:16', [images[0] as string], 4), { audio, ass, quality: 'preview', outFile, cacheDir, tools });
    const during = await captionArea(outFile, 2);
    const after = await captionArea(outFile, 3.6);
    expect(during.max).toBeGreaterThan(230);
    expect(during.spread).toBeGreaterThan(20);
    expect(after.max).toBeLessThan(150);
  });

  it.each([
    ['1:1', 'preview', [540, 540]],
    ['16:9', 'preview', [960, 540]],
    ['9:16', 'export', [1080, 1920]],
  ] as const)('sizes %s %s renders to %j', async (aspectRatio, quality, size) => {
    const outFile = path(`size-${aspectRatio.replace(':', 'x')}-${quality}.mp4`);
    await renderVideo(shortTimeline(aspectRatio, images.slice(1)), { audio, quality, outFile, cacheDir, tools });
    const p = await probe(tools, outFile);
    expect([p.width, p.height]).toEqual(size);
    expect(Math.abs(p.duration - 2)).toBeLessThan(0.1);
  });

  it('renders with the npm ffmpeg 4.1 too (no xfade there): transitions, zoom, pan, subtitles', async () => {
    const outFile = path('npm.mp4');
    await renderVideo(shortTimeline('9:16', images, 3), {
      audio,
      ass,
      quality: 'preview',
      outFile,
      cacheDir,
      tools: npmTools as MediaTools,
    });
    const p = await probe(tools, outFile);
    expect(Math.abs(p.duration - 3)).toBeLessThan(0.1);
    expect(p.streams.map((s) => s.codec).sort()).toEqual(['aac', 'h264']);
  });

  it('scales each still once: scenes repeating a picture share it, a second render reuses the cache', async () => {
    const own = path('own-cache');
    const [a, b] = images.slice(1) as [string, string];
    const render = () =>
      renderVideo(shortTimeline('1:1', [a, b, a], 3), { audio, quality: 'preview', outFile: path('again.mp4'), cacheDir: own, tools });
    await render();
    // Two stills (beside them, what framing learnt of each photo: its subject).
    expect(readdirSync(own).filter((f) => f.endsWith('.jpg'))).toHaveLength(2);
    const before = statSync(own).mtimeMs;
    await render();
    expect(statSync(own).mtimeMs).toBe(before);
  });
});
