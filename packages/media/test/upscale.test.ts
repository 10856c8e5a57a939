import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { upscaleImage } from '../src/imaging/upscale.js';
import { runTool } from '../src/run.js';
import { locateTools } from '../src/tools.js';

const tools = locateTools();
const work = mkdtempSync(join(tmpdir(), 'reelsmith-upscale-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * A made 512² picture with what a product shot has: a lit gradient, lettering of several sizes, hard and soft edges
 * at several angles, a fine woven texture and a little grain, softened as a camera's optics soften.
 */
async function madePicture(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f4efe6"/><stop offset="1" stop-color="#a89c88"/></linearGradient>
<pattern id="weave" width="7" height="7" patternUnits="userSpaceOnUse" patternTransform="rotate(20)"><rect width="7" height="7" fill="#5a6e8c"/><rect width="3" height="7" fill="#2c3a52"/><rect y="4" width="7" height="2" fill="#8da0bc"/></pattern></defs>
<rect width="512" height="512" fill="url(#g)"/>
<rect x="30" y="250" width="220" height="230" fill="url(#weave)"/>
<circle cx="380" cy="360" r="95" fill="#7a2418"/><circle cx="380" cy="360" r="40" fill="#e8c15a"/>
<polygon points="290,40 480,90 430,210 300,180" fill="#1d2b3a"/>
<text x="30" y="80" font-size="52" font-family="sans-serif" font-weight="bold" fill="#222">AQUA 7</text>
<text x="30" y="130" font-size="24" font-family="serif" fill="#333">Fresh linen, 250 ml</text>
<text x="30" y="170" font-size="15" font-family="sans-serif" fill="#111">Made in Porto · lote 0412 · 100% algodão</text>
<text x="320" y="140" font-size="30" font-family="sans-serif" fill="#f0e0c0">SALE</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).flatten().removeAlpha().blur(0.6).raw().toBuffer({ resolveWithObject: true });
  let seed = 12345;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = Math.max(0, Math.min(255, (data[i] as number) + ((seed >>> 24) % 5) - 2));
  }
  return sharp(data, { raw: info }).png().toBuffer();
}

const psnr = (a: Buffer, b: Buffer): number => {
  let error = 0;
  for (let i = 0; i < a.length; i++) error += ((a[i] as number) - (b[i] as number)) ** 2;
  return 10 * Math.log10((255 * 255) / (error / a.length));
};

describe('upscaleImage restores more than a plain enlargement', () => {
  it('comes at least 0.3 dB closer to the original than a centred lanczos enlargement of the same reduction (×2)', async () => {
    const original = await madePicture();
    const truth = await sharp(original).raw().toBuffer();
    // A small picture as they are usually made: sharp's default reduction (lanczos3).
    const small = join(work, 'small.png');
    await sharp(original).resize(256, 256).png().toFile(small);
    const ours = join(work, 'ours.png');
    expect(await upscaleImage(small, 2, ours)).toEqual({ width: 512, height: 512 });
    const plain = join(work, 'lanczos.png');
    await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-i', small, '-vf', 'scale=iw*2:ih*2:flags=lanczos', plain]);
    const oursScore = psnr(await sharp(ours).removeAlpha().raw().toBuffer(), truth);
    const plainScore = psnr(await sharp(plain).removeAlpha().raw().toBuffer(), truth);
    expect(oursScore).toBeGreaterThanOrEqual(plainScore + 0.3);
  });

  it.each([2, 4] as const)('does not shift the picture: a dot lands where it was (×%i)', async (scale) => {
    // A soft bright dot on grey at (21, 37): its centre enlarged is at ((21 + ½)·scale − ½, (37 + ½)·scale − ½).
    const size = 64;
    const pixels = Buffer.alloc(size * size, 40);
    const dot = [
      [0, 0, 240],
      [-1, 0, 140],
      [1, 0, 140],
      [0, -1, 140],
      [0, 1, 140],
    ] as const;
    for (const [dx, dy, v] of dot) pixels[(37 + dy) * size + 21 + dx] = v;
    const input = join(work, `dot-${scale}.png`);
    writeFileSync(
      input,
      await sharp(pixels, { raw: { width: size, height: size, channels: 1 } })
        .png()
        .toBuffer(),
    );
    const out = join(work, `dot-${scale}-big.png`);
    await upscaleImage(input, scale, out);
    const { data, info } = await sharp(out).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(size * scale);
    const expected = { x: (21 + 0.5) * scale - 0.5, y: (37 + 0.5) * scale - 0.5 };
    let total = 0;
    let sx = 0;
    let sy = 0;
    const reach = 4 * scale;
    for (let y = Math.round(expected.y) - reach; y <= Math.round(expected.y) + reach; y++) {
      for (let x = Math.round(expected.x) - reach; x <= Math.round(expected.x) + reach; x++) {
        const w = Math.max(0, (data[y * info.width + x] as number) - 40);
        total += w;
        sx += w * x;
        sy += w * y;
      }
    }
    expect(Math.abs(sx / total - expected.x)).toBeLessThanOrEqual(0.25);
    expect(Math.abs(sy / total - expected.y)).toBeLessThanOrEqual(0.25);
  });
});
