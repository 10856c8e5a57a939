// What a person can read in a picture or a video frame, by Debian's tesseract: for checking the words a render
// burnt into its pictures (cards, buttons, captions).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

/**
 * The text tesseract reads in `picture` (any format sharp opens), as one line of lower-case words. The picture is
 * scaled to 1080 px wide first (a poster thumbnail's card type is too small for it otherwise), and read both as a
 * page and as sparse text, since a card's words stand alone on a photo; and read in grey and in each colour channel,
 * since tesseract's grey takes dark type on a mid blue button for one shade (the blue channel tells them apart).
 */
export async function readText(picture: Buffer, languages = 'eng'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'reelsmith-ocr-'));
  try {
    const scaled = sharp(picture).resize({ width: 1080 }).removeAlpha();
    const views = [scaled.clone().greyscale(), ...[0, 1, 2].map((channel) => scaled.clone().extractChannel(channel as 0 | 1 | 2))];
    const words: string[] = [];
    for (const [i, view] of views.entries()) {
      const file = join(dir, `view-${i}.png`);
      await view.png().toFile(file);
      for (const mode of ['3', '11']) {
        words.push(
          execFileSync('tesseract', [file, 'stdout', '-l', languages, '--psm', mode], {
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'ignore'],
          }),
        );
      }
    }
    return words.join(' ').toLowerCase().replace(/\s+/g, ' ').trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One frame of a video (its bytes), `fromEnd` seconds before its end, as a PNG. */
export const lastFrame = (video: Buffer, fromEnd = 0.3): Buffer => frame(video, ['-sseof', `-${fromEnd}`]);

/** One frame of a video (its bytes), `at` seconds from its start, as a PNG. */
export const frameAt = (video: Buffer, at: number): Buffer => frame(video, ['-ss', String(at)]);

function frame(video: Buffer, seek: string[]): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'reelsmith-frame-'));
  try {
    const file = join(dir, 'video.mp4');
    writeFileSync(file, video);
    return execFileSync('ffmpeg', ['-v', 'error', ...seek, '-i', file, '-frames:v', '1', '-f', 'image2', '-c:v', 'png', 'pipe:1'], {
      maxBuffer: 64 * 1024 * 1024,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The share of a picture's pixels within a small distance of the colour `hex` (#rrggbb). */
export async function shareOfColour(picture: Buffer, hex: string, tolerance = 40): Promise<number> {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  const { data, info } = await sharp(picture).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let near = 0;
  for (let p = 0; p < data.length; p += info.channels) {
    const d = Math.abs((data[p] as number) - r) + Math.abs((data[p + 1] as number) - g) + Math.abs((data[p + 2] as number) - b);
    if (d <= tolerance) near++;
  }
  return near / (info.width * info.height);
}
