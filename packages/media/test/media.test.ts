import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { imageInfo, locateTools, MediaToolError, onPath, posterFrame, probe, sniff, thumbnail } from '../src/index.js';
import { makeImage, makeVideo, truncate } from './fixtures.js';

const npmBinary = (name: string) => (createRequire(import.meta.url)(name) as { path: string }).path;
// The ffmpeg on PATH (Debian's where installed) beside the npm build the product takes first.
const locatedTools = locateTools({ ffmpegPath: onPath('ffmpeg'), ffprobePath: onPath('ffprobe') });
const npmTools = { ffmpeg: npmBinary('@ffmpeg-installer/ffmpeg'), ffprobe: npmBinary('@ffprobe-installer/ffprobe') };

const dir = mkdtempSync(join(tmpdir(), 'reelsmith-media-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, bytes?: Buffer) => {
  const path = join(dir, name);
  if (bytes) writeFileSync(path, bytes);
  return path;
};

describe('locating ffmpeg and ffprobe', () => {
  it('takes an explicit path, refuses one that is not a program', () => {
    const { ffmpeg } = npmTools;
    expect(locateTools({ ffmpegPath: ffmpeg }).ffmpeg).toBe(ffmpeg);
    expect(() => locateTools({ ffmpegPath: join(dir, 'no-ffmpeg') })).toThrow(/not an executable program/);
  });

  it('takes the npm-installed binaries before a program on PATH', () => {
    // A PATH whose ffmpeg and ffprobe are other programs: the bundled build is still the one taken.
    for (const name of ['ffmpeg', 'ffprobe']) writeFileSync(file(name), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const saved = process.env.PATH;
    process.env.PATH = dir;
    let tools: ReturnType<typeof locateTools>;
    try {
      tools = locateTools();
    } finally {
      process.env.PATH = saved;
    }
    expect(tools).toEqual(npmTools);
    expect(tools.ffmpeg).toMatch(/@ffmpeg-installer\/linux-x64\/ffmpeg$/);
  });
});

describe.each([
  ['path', locatedTools],
  ['npm', npmTools],
])('video with the %s programs', (name, tools) => {
  it('probes a generated MP4: duration, size and streams', async () => {
    const video = await makeVideo(tools, file(`a-${name}.mp4`), { seconds: 2, width: 320, height: 240 });
    const p = await probe(tools, video);
    expect(p.formatName).toContain('mp4');
    expect(p.duration).toBeGreaterThan(1.9);
    expect(p.duration).toBeLessThan(2.2);
    expect([p.width, p.height]).toEqual([320, 240]);
    expect(p.streams.map((s) => s.type).sort()).toEqual(['audio', 'video']);
  });

  it('takes a poster frame as a PNG of the video size', async () => {
    const video = await makeVideo(tools, file(`b-${name}.webm`), { seconds: 1, format: 'webm', width: 160, height: 288 });
    const out = file(`poster-${name}.png`);
    await posterFrame(tools, video, out, 0.5);
    expect(await sharp(out).metadata()).toMatchObject({ format: 'png', width: 160, height: 288 });
  });

  it('fails on a truncated MP4 and on a seek past the end, with the reason', async () => {
    const video = await makeVideo(tools, file(`c-${name}.mp4`), { seconds: 1 });
    await expect(probe(tools, await truncate(video, file(`c-half-${name}.mp4`)))).rejects.toBeInstanceOf(MediaToolError);
    await expect(posterFrame(tools, video, file(`none-${name}.png`), 30)).rejects.toThrow(/no frame/);
  });
});

describe('images', () => {
  it('reads format and displayed size, and writes a bounded WebP thumbnail', async () => {
    const png = file('photo.png', await makeImage(1200, 900, 'png'));
    expect(await imageInfo(png)).toEqual({ format: 'png', width: 1200, height: 900 });
    const out = file('photo.thumb.webp');
    await thumbnail(png, out, 480);
    expect(await sharp(out).metadata()).toMatchObject({ format: 'webp', width: 480, height: 360 });
  });

  it('applies the EXIF orientation to the size', async () => {
    const turned = await sharp(await makeImage(300, 100, 'jpeg'))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    expect(await imageInfo(file('turned.jpg', turned))).toMatchObject({ width: 100, height: 300 });
  });

  it('refuses a truncated image when decoding it, although its header reads', async () => {
    for (const format of ['png', 'jpeg'] as const) {
      const whole = file(`whole.${format}`, await makeImage(800, 600, format));
      const cut = await truncate(whole, file(`cut.${format}`), 0.6);
      await expect(imageInfo(cut)).resolves.toMatchObject({ width: 800 });
      await expect(thumbnail(cut, file(`cut-${format}.webp`))).rejects.toThrow();
    }
  });

  it('refuses what is not an image', async () => {
    await expect(imageInfo(file('script.png', Buffer.from('#!/bin/sh\nrm -rf /\n')))).rejects.toThrow();
  });
});

describe('sniffing', () => {
  it('names a file by its bytes, not its name', async () => {
    expect(await sniff(file('really-a-jpeg.png', await makeImage(10, 10, 'jpeg')))).toEqual({ ext: 'jpg', mime: 'image/jpeg' });
    expect(await sniff(file('pic.webp', await makeImage(10, 10, 'webp')))).toEqual({ ext: 'webp', mime: 'image/webp' });
    expect(await sniff(file('script.png', Buffer.from('<script>alert(1)</script>')))).toBeUndefined();
    expect(await sniff(file('empty.png', Buffer.alloc(0)))).toBeUndefined();
  });
});
