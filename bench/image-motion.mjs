// Image → video on real photos (decision "Image to video moves the photo"): per photo and prompt, the move the clip
// makes, measured on its frames, and the time it took. The clip is the server's: 5 s at the standard tier's size of
// the ratio nearest the photo's (720 px on the short side).
// Run from the repo root: node bench/image-motion.mjs
// BENCH_PHOTOS (a folder of photos and of product folders, each with a product.json; default
// /work/shared/real-photos: every single photo and each product's first), BENCH_PROMPTS (prompts separated by "|"), BENCH_SHEETS (a folder to write
// each clip's contact sheet to: 4 frames a second, 5×2).
// Each line: the photo, the prompt, the moves it asked for, the zoom (the content's scale, last frame over first),
// the pan (the content's shift, first frame to last, in px of the frame and in shares of its width: + is to the
// right or down), for a pan the steadiness of its steps frame to frame (CV over the middle 60 %), and the wall time.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { register } from 'tsx/esm/api';

register();
const { imageToVideo, locateTools } = await import('../packages/media/src/index.ts');
const { nearestRatioOf, videoSize } = await import('../apps/server/src/modules/generation/sizes.ts');
const { patchShift, readLuma } = await import('../packages/media/test/flow.ts');

const root = process.env.BENCH_PHOTOS || '/work/shared/real-photos';
const prompts = (
  process.env.BENCH_PROMPTS || 'slow zoom in|pan left|镜头缓慢推近|向右平移|afastar lentamente|panorâmica para a esquerda'
).split('|');
const sheets = process.env.BENCH_SHEETS;
const tools = locateTools();
const dir = await mkdtemp(join(tmpdir(), 'reelsmith-bench-motion-'));

const isPhoto = (name) => /\.(jpe?g|png|webp)$/i.test(name);
/** The folder's photos: each product's first (a folder with a product.json), every other photo found. */
function photosIn(folder) {
  const names = readdirSync(folder).sort();
  if (names.includes('product.json'))
    return names
      .filter(isPhoto)
      .slice(0, 1)
      .map((name) => join(folder, name));
  return names.flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? photosIn(path) : isPhoto(name) ? [path] : [];
  });
}

/**
 * The content's motion over the clip: nine places tracked frame to frame (Lucas–Kanade on luma, each place
 * following what it first showed), the zoom as the mean distance between them at the end over the start, the pan
 * as the mean shift of their centroid, and the CV of that centroid's step over the middle of the clip.
 */
function measure(clip, width, height) {
  const { frames } = readLuma(clip, width, height);
  const half = Math.round(Math.min(width, height) / 24);
  const margin = half + 4;
  let points = [0.25, 0.5, 0.75].flatMap((fy) => [0.25, 0.5, 0.75].map((fx) => ({ x: width * fx, y: height * fy })));
  const start = points.map((p) => ({ ...p }));
  const steps = [];
  for (let f = 1; f < frames.length; f++) {
    const next = points.map((p) => {
      const cx = Math.min(width - margin, Math.max(margin, Math.round(p.x)));
      const cy = Math.min(height - margin, Math.max(margin, Math.round(p.y)));
      const [dx, dy] = patchShift(frames[f - 1], frames[f], width, cx, cy, half);
      return Number.isFinite(dx) && Number.isFinite(dy) ? { x: p.x + dx, y: p.y + dy } : p;
    });
    const moved = next.map((p, i) => [p.x - points[i].x, p.y - points[i].y]);
    steps.push(Math.hypot(...[0, 1].map((a) => moved.reduce((s, m) => s + m[a], 0) / moved.length)));
    points = next;
  }
  const spread = (ps) => {
    let sum = 0;
    for (let i = 0; i < ps.length; i++) for (let j = i + 1; j < ps.length; j++) sum += Math.hypot(ps[i].x - ps[j].x, ps[i].y - ps[j].y);
    return sum;
  };
  const centroid = (ps) => [0, 1].map((a) => ps.reduce((s, p) => s + (a ? p.y : p.x), 0) / ps.length);
  const [x0, y0] = centroid(start);
  const [x1, y1] = centroid(points);
  const middle = steps.slice(Math.round(steps.length * 0.2), Math.round(steps.length * 0.8));
  const mean = middle.reduce((a, b) => a + b, 0) / middle.length;
  const sd = Math.sqrt(middle.reduce((a, b) => a + (b - mean) ** 2, 0) / middle.length);
  // The CV of a pan's steps: a zoom's centroid hardly moves, and the CV of nearly nothing is noise.
  const panned = Math.hypot(x1 - x0, y1 - y0) > 0.02 * width;
  return { zoom: spread(points) / spread(start), dx: x1 - x0, dy: y1 - y0, cv: panned ? sd / mean : null };
}

const photos = existsSync(root) ? photosIn(root) : [];
if (photos.length === 0) throw new Error(`no photos in ${root}`);
console.log(
  `image → video on ${photos.length} photos, ${prompts.length} prompts; load ${(await import('node:os')).loadavg()[0].toFixed(1)}`,
);
try {
  for (const photo of photos) {
    const { width: pw, height: ph } = await sharp(photo, { autoOrient: true }).metadata();
    const size = videoSize(nearestRatioOf(pw, ph), 'std');
    for (const [i, prompt] of prompts.entries()) {
      const out = join(dir, `clip-${i}.mp4`);
      const started = performance.now();
      const made = await imageToVideo(photo, { seconds: 5, ...size, prompt, tools }, out);
      const seconds = (performance.now() - started) / 1000;
      const m = measure(out, size.width, size.height);
      const name = photo.slice(root.length + 1);
      console.log(
        [
          name.padEnd(48),
          `${size.width}×${size.height}`,
          prompt.padEnd(28),
          made.moves
            .map((mv) => `${mv.kind}/${mv.speed}`)
            .join(',')
            .padEnd(16),
          `zoom ${m.zoom.toFixed(3)}`,
          `pan ${m.dx.toFixed(1).padStart(6)}, ${m.dy.toFixed(1).padStart(6)} px (${((100 * m.dx) / size.width).toFixed(1)} %, ${((100 * m.dy) / size.width).toFixed(1)} %)`,
          `CV ${m.cv === null ? '–' : `${(m.cv * 100).toFixed(0)} %`}`,
          `${seconds.toFixed(2)} s`,
        ].join('  '),
      );
      if (sheets) {
        const sheet = join(sheets, `${name.replace(/\W+/g, '-')}-${i}.png`);
        spawnSync(tools.ffmpeg, ['-v', 'error', '-y', '-i', out, '-vf', 'fps=4,scale=216:-1,tile=5x2', '-frames:v', '1', sheet]);
      }
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
