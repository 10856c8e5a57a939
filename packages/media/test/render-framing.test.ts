import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { locateTools, renderVideo, runTool, type Timeline } from '../src/index.js';
import { bandsOf } from './bands.js';

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
      templateId: 'clean-studio',
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
});
