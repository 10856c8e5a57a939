import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { locateTools, renderVideo, runTool, TEMPLATES, type TemplateId, type Timeline } from '../src/index.js';
import { bandsOf } from './bands.js';
import { productPhoto } from './fixtures.js';

const tools = locateTools();
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-render-framing-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = (name: string) => join(dir, name);

/** A lifestyle-like photo: a red product on a lit, grainy backdrop with a table, `width`×`height`. */
async function photo(file: string, width: number, height: number): Promise<string> {
  const h = height * 0.55;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<defs><radialGradient id="bg" cx="30%" cy="30%" r="90%"><stop offset="0" stop-color="#cfe0ea"/><stop offset="1" stop-color="#2c3e58"/></radialGradient>
<linearGradient id="t" x1="0" y1="0" x2="1" y2="0.4"><stop offset="0" stop-color="#9b7b55"/><stop offset="1" stop-color="#3e2c1c"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#bg)"/><rect y="${height * 0.75}" width="100%" height="${height * 0.25}" fill="url(#t)"/>
<rect x="${width * 0.55 - h * 0.2}" y="${height * 0.8 - h}" width="${h * 0.4}" height="${h}" rx="${h * 0.08}" fill="#c8322d"/></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true });
  for (let i = 0, seed = width; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = Math.max(0, Math.min(255, (data[i] as number) + ((seed >>> 24) % 9) - 4));
  }
  await sharp(data, { raw: info }).jpeg({ quality: 88 }).toFile(file);
  return file;
}

describe('rendered frames', () => {
  it('are picture to every edge: no band in a 9:16 ad made of a 2.35:1 banner, a 4:5 and a 16:9 photo', async () => {
    const files = await Promise.all([
      photo(path('banner.jpg'), 1880, 800),
      photo(path('portrait.jpg'), 1080, 1350),
      photo(path('wide.jpg'), 1600, 900),
    ]);
    const audio = path('tone.wav');
    await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=3', audio]);
    const timeline: Timeline = {
      aspectRatio: '9:16',
      seconds: 3,
      transition: 0.2,
      look: TEMPLATES['clean-studio'],
      transitionKind: 'dissolve',
      scenes: files.map((file, i) => ({
        media: { kind: 'image' as const, file },
        role: 'feature' as const,
        start: i,
        seconds: 1,
        motion: (['zoom-in', 'pan-right', 'pan-down'] as const)[i] ?? 'none',
      })),
    };
    const video = path('ad.mp4');
    await renderVideo(timeline, { audio, quality: 'preview', outFile: video, cacheDir: path('cache'), tools });
    for (const at of [0.1, 0.5, 1.5, 2.5, 2.9]) {
      const frame = path(`frame-${at}.png`);
      await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-ss', String(at), '-i', video, '-frames:v', '1', frame]);
      expect(await bandsOf(frame), `the frame at ${at} s`).toEqual([]);
    }
  }, 120_000);

  /** Frame `at` (seconds) of `video`, as RGB. */
  async function frameAt(video: string, at: number) {
    const file = path(`${video.split('/').pop()}-${at}.png`);
    await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-ss', String(at), '-i', video, '-frames:v', '1', file]);
    return sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  }

  /** The middle of the blue bottle's pixels, across. */
  const productX = ({ data, info }: Awaited<ReturnType<typeof frameAt>>) => {
    let sum = 0;
    let count = 0;
    for (let p = 0; p < info.width * info.height; p++) {
      const [r, g, b] = [data[p * 3] as number, data[p * 3 + 1] as number, data[p * 3 + 2] as number];
      if (b > 140 && r < 80 && g > 70 && g < 150) {
        sum += p % info.width;
        count++;
      }
    }
    expect(count).toBeGreaterThan(1000);
    return sum / count;
  };

  /**
   * How far the picture's top tenth (background only: the product stands low on its set) moved across from `a`
   * to `b`: the shift that best lays its column profile (mean of each column) on the other's.
   */
  const backgroundShift = (a: Awaited<ReturnType<typeof frameAt>>, b: Awaited<ReturnType<typeof frameAt>>) => {
    const { width, height } = a.info;
    const profile = ({ data }: typeof a) =>
      Array.from({ length: width }, (_, x) => {
        let sum = 0;
        for (let y = 0; y < height / 10; y++) sum += data[(y * width + x) * 3 + 1] as number;
        return sum / Math.ceil(height / 10);
      });
    const [pa, pb] = [profile(a), profile(b)];
    let best = { shift: 0, error: Number.POSITIVE_INFINITY };
    for (let shift = -100; shift <= 100; shift++) {
      let error = 0;
      let n = 0;
      for (let x = 120; x < width - 120; x++) {
        error += Math.abs((pa[x] as number) - (pb[x - shift] as number));
        n++;
      }
      if (error / n < best.error) best = { shift, error: error / n };
    }
    return best.shift;
  };

  it('turns about a product on a blurred set: the product holds still while its background pans, where a studio sweep pans whole', async () => {
    // A bottle on a textured backdrop, on a banner no 9:16 crop holds: the model cuts it out and it goes on a set.
    const banner = path('pan-banner.jpg');
    await sharp(await productPhoto(1880, 800)).toFile(banner);
    const audio = path('silence.wav');
    // Silence made long by -t: anullsrc's own duration option is missing from the npm ffmpeg 4.1, which a machine without
    // a system ffmpeg runs these tests with (decision "Both ffmpeg builds").
    await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc', '-t', '3', audio]);
    const render = async (templateId: TemplateId) => {
      const video = path(`pan-${templateId}.mp4`);
      const timeline: Timeline = {
        aspectRatio: '9:16',
        seconds: 3,
        transition: 0.2,
        look: TEMPLATES[templateId],
        transitionKind: 'cut',
        scenes: [{ media: { kind: 'image', file: banner }, role: 'feature', start: 0, seconds: 3, motion: 'pan-right' }],
      };
      await renderVideo(timeline, { audio, quality: 'preview', outFile: video, cacheDir: path('cache'), tools });
      return Promise.all([frameAt(video, 0.4), frameAt(video, 2.6)]);
    };
    // Bold UGC sets products on the blurred photo: the pan slides the background some 40 px behind a still product.
    const [start, end] = await render('bold-ugc');
    expect(Math.abs(productX(end) - productX(start))).toBeLessThan(1.5);
    expect(Math.abs(backgroundShift(start, end))).toBeGreaterThan(25);
    // Clean studio's sweep has nothing to slide: the product moves with the pan.
    const [studioStart, studioEnd] = await render('clean-studio');
    expect(Math.abs(productX(studioEnd) - productX(studioStart))).toBeGreaterThan(25);
  }, 120_000);

  it('pans along a wide photo: the still runs as far as the pan travels, well past the usual margin', async () => {
    const wide = path('along-16x9.jpg');
    await sharp(await productPhoto(1600, 900, { at: 0.45 })).toFile(wide);
    const audio = path('silence.wav');
    await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc', '-t', '3', audio]);
    const video = path('along.mp4');
    const timeline: Timeline = {
      aspectRatio: '9:16',
      seconds: 3,
      transition: 0.2,
      look: TEMPLATES['clean-studio'],
      transitionKind: 'cut',
      scenes: [
        { media: { kind: 'image', file: wide, width: 1600, height: 900 }, role: 'feature', start: 0, seconds: 3, motion: 'pan-right' },
      ],
    };
    await renderVideo(timeline, { audio, quality: 'preview', outFile: video, cacheDir: path('cache'), tools });
    const [start, end] = await Promise.all([frameAt(video, 0.4), frameAt(video, 2.6)]);
    // 0.45 frame widths more than the margin's 0.12 over 3 s: about 200 of 540 px between these frames, where the
    // margin alone moves the picture about 50.
    expect(productX(start) - productX(end)).toBeGreaterThan(120);
    expect(await bandsOf(path(`${video.split('/').pop()}-2.6.png`))).toEqual([]);
  }, 120_000);
});
