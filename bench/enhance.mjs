// Benchmark of enhancement (sharpen and enlarge, decision "Super-resolution by back-projection") on real photos:
// for each photo under BENCH_PHOTOS (default /work/shared/real-photos: products' folders with a product.json, and
// single photos), a centre crop (at most 512 px, a multiple of 4) is the truth; it is reduced ×2 and ×4 by sharp's
// default reduction (lanczos3, as small pictures are usually made) and enlarged back by (a) the tool, (b) ffmpeg's
// centred lanczos (`scale=iw*2:ih*2:flags=lanczos`), (c) sharp's lanczos3. Prints PSNR (RGB) and SSIM (luma,
// 11×11 gaussian window, σ 1.5) per photo and the means, then the tool's time per output megapixel at 1024² ×2 and
// 1920×1080 ×4, and this process's peak resident set.
// Run from the repo root: node bench/enhance.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { register } from 'tsx/esm/api';

register();
const { locateTools, upscaleImage } = await import('../packages/media/src/index.ts');

const root = process.env.BENCH_PHOTOS || '/work/shared/real-photos';
const tools = locateTools();
const dir = await mkdtemp(join(tmpdir(), 'reelsmith-bench-enhance-'));

/** Every photo: the pictures in each folder that has a product.json, and the pictures of the other folders. */
function photos(folder) {
  const found = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...photos(path));
    else if (/\.(jpe?g|png|webp)$/i.test(name)) found.push(path);
  }
  return found;
}

const psnr = (a, b) => {
  let error = 0;
  for (let i = 0; i < a.length; i++) error += (a[i] - b[i]) ** 2;
  return 10 * Math.log10((255 * 255) / (error / a.length));
};

const luma = (rgb) =>
  Float64Array.from({ length: rgb.length / 3 }, (_, i) => 0.299 * rgb[3 * i] + 0.587 * rgb[3 * i + 1] + 0.114 * rgb[3 * i + 2]);

const window = (() => {
  const w = Array.from({ length: 11 }, (_, i) => Math.exp(-((i - 5) ** 2) / (2 * 1.5 * 1.5)));
  const total = w.reduce((a, b) => a + b, 0);
  return w.map((v) => v / total);
})();

/** The picture blurred by the window, over the places where the whole window fits (a "valid" convolution). */
function blurred(values, width, height) {
  const across = new Float64Array((width - 10) * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width - 10; x++) {
      let sum = 0;
      for (let k = 0; k < 11; k++) sum += window[k] * values[y * width + x + k];
      across[y * (width - 10) + x] = sum;
    }
  const out = new Float64Array((width - 10) * (height - 10));
  for (let y = 0; y < height - 10; y++)
    for (let x = 0; x < width - 10; x++) {
      let sum = 0;
      for (let k = 0; k < 11; k++) sum += window[k] * across[(y + k) * (width - 10) + x];
      out[y * (width - 10) + x] = sum;
    }
  return out;
}

function ssim(a, b, width, height) {
  const x = luma(a);
  const y = luma(b);
  const product = (p, q) => p.map((v, i) => v * q[i]);
  const [mx, my, xx, yy, xy] = [x, y, product(x, x), product(y, y), product(x, y)].map((v) => blurred(v, width, height));
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let sum = 0;
  for (let i = 0; i < mx.length; i++) {
    const vx = xx[i] - mx[i] ** 2;
    const vy = yy[i] - my[i] ** 2;
    const cov = xy[i] - mx[i] * my[i];
    sum += ((2 * mx[i] * my[i] + c1) * (2 * cov + c2)) / ((mx[i] ** 2 + my[i] ** 2 + c1) * (vx + vy + c2));
  }
  return sum / mx.length;
}

const rgb = async (file) => sharp(file).removeAlpha().raw().toBuffer();
const methods = ['tool', 'ffmpeg lanczos', 'sharp lanczos3'];
const means = {};
let toolSeconds = 0;
let toolPixels = 0;

console.log(`enhancement against the original (PSNR dB / SSIM), centre crops of the photos under ${root}`);
for (const photo of photos(root)) {
  const meta = await sharp(photo).metadata();
  const size = Math.min(512, Math.floor(Math.min(meta.width, meta.height) / 4) * 4);
  const crop = { left: (meta.width - size) >> 1, top: (meta.height - size) >> 1, width: size, height: size };
  const truth = await sharp(photo).rotate().removeAlpha().extract(crop).raw().toBuffer();
  const cells = [];
  for (const scale of [2, 4]) {
    const small = join(dir, `small-${scale}.png`);
    await sharp(truth, { raw: { width: size, height: size, channels: 3 } })
      .resize(size / scale, size / scale)
      .png()
      .toFile(small);
    const outs = methods.map((_, i) => join(dir, `out-${scale}-${i}.png`));
    const start = performance.now();
    await upscaleImage(small, scale, outs[0]);
    toolSeconds += (performance.now() - start) / 1000;
    toolPixels += size * size;
    execFileSync(tools.ffmpeg, ['-v', 'error', '-y', '-i', small, '-vf', `scale=iw*${scale}:ih*${scale}:flags=lanczos`, outs[1]]);
    await sharp(small).resize(size, size, { kernel: 'lanczos3' }).png().toFile(outs[2]);
    for (const [i, method] of methods.entries()) {
      const pixels = await rgb(outs[i]);
      const p = psnr(pixels, truth);
      const s = ssim(pixels, truth, size, size);
      const key = `×${scale} ${method}`;
      means[key] ??= { psnr: 0, ssim: 0, n: 0 };
      means[key].psnr += p;
      means[key].ssim += s;
      means[key].n++;
      cells.push(`${p.toFixed(2)}/${s.toFixed(4)}`);
    }
  }
  console.log(`${photo.slice(root.length + 1).padEnd(42)} ${size}px  ×2 ${cells.slice(0, 3).join(' ')}  ×4 ${cells.slice(3).join(' ')}`);
}
console.log(`columns per scale: ${methods.join(', ')}`);
for (const [key, { psnr: p, ssim: s, n }] of Object.entries(means))
  console.log(`mean ${key.padEnd(22)} PSNR ${(p / n).toFixed(2)} dB  SSIM ${(s / n).toFixed(4)}  (${n} photos)`);
console.log(`tool on the crops: ${(toolSeconds / (toolPixels / 1e6)).toFixed(2)} s per output megapixel`);

// Speed at the sizes the tool is asked for: a 1 MP picture ×2, and a full-HD one ×4 (the largest outputs).
const first = photos(root)[0];
for (const [width, height, scale] of [
  [1024, 1024, 2],
  [1920, 1080, 4],
]) {
  const input = join(dir, `speed-${width}.png`);
  await sharp(first).resize(width, height, { fit: 'cover' }).png().toFile(input);
  const out = join(dir, `speed-${width}-${scale}.jpg`);
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    await upscaleImage(input, scale, out);
    best = Math.min(best, (performance.now() - start) / 1000);
  }
  const mp = (width * height * scale * scale) / 1e6;
  console.log(
    `tool ${width}×${height} ×${scale} → ${mp.toFixed(1)} MP: best of 3 ${best.toFixed(2)} s, ${(best / mp).toFixed(3)} s per output megapixel`,
  );
}
console.log(`peak resident set of this process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
if (existsSync(dir)) await rm(dir, { recursive: true, force: true });
