// Background removal on the real photos of ../shared/real-photos (every product folder's photos and the single
// photos): the cut-out of each, timed, with how much of its subject came out opaque, and a contact sheet of the
// cut-outs over a checkerboard to look at (decision "Cut-outs keep the subject").
// Run from the repo root: node bench/cutouts.mjs
// BENCH_PHOTOS (the photos' folder, default ../shared/real-photos), BENCH_MODELS (cut-out models, default "small";
// "small,medium" for both), BENCH_OUT (where the cut-outs and the sheet are written, default a temporary folder).
// It prints per photo the wall time of the cut-out, the share of the cut-out's own box (its pixels at least half
// opaque) that is opaque (alpha ≥ 0.9), the same share inside the photo's salient box (edges and distance from the
// border's colour, as framing finds it without the model) and the share of the salient box the cut-out covers at
// all; a refusal (NoSubjectError) is printed as such. Then the contact sheet's path (ImageMagick `convert` and `montage`).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { register } from 'tsx/esm/api';
import { loadAverage } from './proc.mjs';

register();
const { cutOut, NoSubjectError, warmCutOut } = await import('../packages/media/src/index.ts');
const { saliencyBox } = await import('../packages/media/src/imaging/subject.ts');

const root = process.env.BENCH_PHOTOS || join(import.meta.dirname, '..', '..', 'shared', 'real-photos');
const models = (process.env.BENCH_MODELS || 'small').split(',');
const out = process.env.BENCH_OUT || (await mkdtemp(join(tmpdir(), 'reelsmith-bench-cutouts-')));
await mkdir(out, { recursive: true });

/** Every photo under the folder: the product folders' and the singles', in name order. */
function photos(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...photos(path));
    else if (/\.(jpe?g|png|webp)$/i.test(name)) found.push(path);
  }
  return found;
}

/** The share of pixels at least `level` (0–255) of the alpha inside a box given in pixels. */
function shareAtLeast(alpha, width, box, level) {
  let on = 0;
  let all = 0;
  for (let y = box.top; y < box.bottom; y++) {
    for (let x = box.left; x < box.right; x++) {
      all++;
      if (alpha[y * width + x] >= level) on++;
    }
  }
  return all ? on / all : 0;
}

/** The box of the alpha's pixels at least half opaque, or null. */
function ownBox(alpha, width, height) {
  let [left, top, right, bottom] = [width, height, -1, -1];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (alpha[y * width + x] < 128) continue;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  return right < 0 ? null : { left, top, right: right + 1, bottom: bottom + 1 };
}

const pct = (v) => `${(v * 100).toFixed(0)} %`.padStart(5);
const list = photos(root);
console.log(`${list.length} photos in ${root}; load average before: ${loadAverage()}`);
for (const model of models) {
  await warmCutOut(model);
  const tiles = [];
  const times = [];
  for (const photo of list) {
    const name = `${basename(join(photo, '..'))}-${basename(photo).replace(/\.[^.]+$/, '')}`;
    const file = join(out, `${name}-${model}.png`);
    const start = performance.now();
    let refused = false;
    try {
      await cutOut(photo, file, { model });
    } catch (error) {
      if (!(error instanceof NoSubjectError)) throw error;
      refused = true;
    }
    const seconds = (performance.now() - start) / 1000;
    times.push(seconds);
    const label = `${name} (${model})`.padEnd(40);
    const tile = join(out, `${name}-${model}-tile.png`);
    if (refused) {
      console.log(`${label} refused (no subject), ${seconds.toFixed(2)} s`);
      execFileSync('convert', [photo, '-resize', '240x240', '-fill', '#ff000080', '-draw', 'rectangle 0,0 240,240', tile]);
      tiles.push(tile, `${name}: refused`);
      continue;
    }
    const { data: alpha, info } = await sharp(file).extractChannel(3).raw().toBuffer({ resolveWithObject: true });
    const { width, height } = info;
    const own = ownBox(alpha, width, height);
    const salient = (await saliencyBox(photo)).box;
    const box = {
      left: Math.floor(salient.left * width),
      top: Math.floor(salient.top * height),
      right: Math.ceil(salient.right * width),
      bottom: Math.ceil(salient.bottom * height),
    };
    const inOwn = own ? shareAtLeast(alpha, width, own, 230) : 0;
    const inSalient = shareAtLeast(alpha, width, box, 230);
    const covered = shareAtLeast(alpha, width, box, 128);
    console.log(
      `${label} ${width}×${height}  opaque in its box ${pct(inOwn)}, in the salient box ${pct(inSalient)}` +
        ` (covered ${pct(covered)}), ${seconds.toFixed(2)} s`,
    );
    // Over a checkerboard, so what is transparent shows as such; partial alpha shows the squares through it.
    execFileSync('convert', [
      '-size',
      `${width}x${height}`,
      'pattern:checkerboard',
      '-fill',
      '#ff00ff',
      '-colorize',
      '35',
      file,
      '-composite',
      '-resize',
      '240x240',
      tile,
    ]);
    tiles.push(tile, `${name} ${pct(inOwn).trim()}`);
  }
  const sheet = join(out, `contact-sheet-${model}.png`);
  const args = [];
  for (let i = 0; i < tiles.length; i += 2) args.push('-label', tiles[i + 1], tiles[i]);
  execFileSync('montage', [...args, '-tile', '6x', '-geometry', '240x240+4+4', '-pointsize', '11', sheet]);
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `${model}: ${times.length} photos, median ${sorted[sorted.length >> 1].toFixed(2)} s, ` +
      `slowest ${sorted[sorted.length - 1].toFixed(2)} s; load ${loadAverage()}`,
  );
  console.log(`contact sheet: ${sheet}${existsSync(sheet) ? '' : ' (not written)'}`);
}
