// Benchmark of the ads a new project makes from real product photos: for each product folder (a product.json and
// its photos, as in ../shared/real-photos), three 15 s 540p previews one after the other as the link-video task
// makes them (the local script writer's three angles, each in its own template), then the 15 s 1080×1920 export of
// the first. Each product starts from a fresh cache (its photos never seen), and the first product in a fresh
// process meets the subject model cold. Prints when the first preview is playable and all three are done
// (targets ≤ 6 s, ≤ 12 s), the export's time (≤ 7.5 s), each stage of the first preview and of the export, and
// with BENCH_LONG=1 a 45 s export's time and peak memory (≤ 1 GiB) after them, or with BENCH_LONG=only that alone.
// BENCH_LEARNT=1 first learns each product's pictures as link analysis does while the user reads the product page
// (learnPicture), printing how long that took, and times the previews after it; before the 45 s export it also waits
// for the model to be released, as the worker's is while the user watches the previews.
// Run from the repo root: node bench/ads.mjs [folder] (default ../shared/real-photos); BENCH_KEEP=dir keeps the
// videos (previews and exports, named by product) for contact sheets and comparisons.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import sharp from 'sharp';
import { register } from 'tsx/esm/api';
import { loadAverage, withPeakMemory } from './proc.mjs';
import { stageClock } from './stages.mjs';

// The server runs with glibc told to give freed memory back (scripts/start.mjs, the Dockerfile); so does this.
if (process.env.MALLOC_TRIM_THRESHOLD_ === undefined) {
  const { status } = spawnSync(process.execPath, process.argv.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, MALLOC_TRIM_THRESHOLD_: '131072' },
  });
  process.exit(status ?? 1);
}
register();
const m = await import('../packages/media/src/index.ts');

const folder = resolve(process.argv[2] ?? join(import.meta.dirname, '../../shared/real-photos'));
const keep = process.env.BENCH_KEEP && resolve(process.env.BENCH_KEEP);
const long = process.env.BENCH_LONG === '1' || process.env.BENCH_LONG === 'only';
// The 45 s export alone, in a process that has made nothing before it (its peak then is the export's own).
const longOnly = process.env.BENCH_LONG === 'only';
const tools = m.locateTools();
const dir = await mkdtemp(join(tmpdir(), 'reelsmith-bench-ads-'));
const LANGUAGE = { en: 'en', 'zh-CN': 'zh', 'pt-BR': 'pt' };
const TEMPLATES = ['clean-studio', 'bold-ugc', 'minimal-luxury'];
const CALL_TO_ACTION = { en: 'Shop now', zh: '立即购买', pt: 'Compre agora' };

/** A product folder's facts and photos (largest first is the page's order: file names in order). */
async function productIn(path) {
  const page = JSON.parse(await readFile(join(path, 'product.json'), 'utf8'));
  const names = (await readdir(path)).filter((n) => /\.(jpe?g|png|webp)$/i.test(n)).sort();
  const media = await Promise.all(
    names.map(async (n) => {
      const file = join(path, n);
      const { width, height } = await sharp(file).metadata();
      return { kind: 'image', file, width, height };
    }),
  );
  const language = LANGUAGE[page.language] ?? 'en';
  return { page, media, language };
}

/** One ad through composeAd, with the seconds each of its stages took, and its file's hash. */
async function ad({ page, media, language }, script, templateId, quality, videoLength, cacheDir, keepAs) {
  const { stages, mark } = stageClock();
  const work = await mkdtemp(join(dir, 'work-'));
  const offer = page.price ? { price: page.price, currency: page.currency } : undefined;
  const made = await m.composeAd(
    {
      scenes: media,
      segments: script.segments,
      templateId,
      brand: m.DEFAULT_BRAND,
      facts: {
        name: page.name,
        brand: page.brand,
        offer,
        features: m.featureLines(page.description, language),
        opening: script.segments[0]?.segText,
        callToAction: CALL_TO_ACTION[language],
      },
      aspectRatio: '9:16',
      videoLength,
      quality,
      language,
      voiceId: m.defaultVoice(language).voiceId,
      musicId: m.MUSIC[0].musicId,
      captionId: m.CAPTIONS[0].captionId,
      aiLabel: false,
    },
    { workDir: work, cacheDir, tools, progress: mark },
  );
  mark(undefined);
  const hash = createHash('sha256')
    .update(await readFile(made.file))
    .digest('hex')
    .slice(0, 12);
  if (keep) await copyFile(made.file, join(keep, `${keepAs}.mp4`));
  await rm(work, { recursive: true, force: true });
  return { stages, hash };
}

/** The local writer's scripts for a product, as link-video asks for them. */
const scriptsOf = ({ page, language }, videoLength, count) =>
  m.writeScripts({
    productName: page.name,
    productDescription: page.description,
    productBrand: page.brand,
    pageLanguage: page.language,
    offer: page.price ? { price: page.price, currency: page.currency } : undefined,
    language,
    videoLength,
    count,
  });

/** A fresh cache for a product never seen, sharing the music loops rendered at start. */
async function freshCache(musicDir) {
  const cacheDir = await mkdtemp(join(dir, 'cache-'));
  await symlink(musicDir, join(cacheDir, 'music'));
  return cacheDir;
}

const byStage = (stages) =>
  Object.entries(stages)
    .map(([name, seconds]) => `${name} ${seconds.toFixed(2)}`)
    .join(', ');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

if (keep) await mkdir(keep, { recursive: true });
const products = (await readdir(folder, { withFileTypes: true, recursive: true }))
  .filter((e) => e.name === 'product.json')
  .map((e) => relative(folder, e.parentPath))
  .sort();
console.log(`${products.length} products from ${folder}; load average before: ${loadAverage()}`);
// The music loops are rendered once, as a server renders them at start (warmMusic), into the folder every cache shares.
const musicDir = join(dir, 'music');
const musicStarted = performance.now();
await m.warmMusic(musicDir, tools);
console.log(`music: ${m.MUSIC.length} loops at start ${((performance.now() - musicStarted) / 1000).toFixed(2)} s`);
// The local voice's engine, as a worker prepares it at start (warmSpeech).
await m.warmSpeech();

const results = [];
for (const name of longOnly ? [] : products) {
  const product = await productIn(join(folder, name));
  if (product.media.length === 0) continue;
  const cacheDir = await freshCache(musicDir);
  const scripts = scriptsOf(product, 15, 3);
  if (process.env.BENCH_LEARNT === '1') {
    const learning = performance.now();
    for (const { file } of product.media) await m.learnPicture(file, cacheDir);
    console.log(`${name}: its pictures learnt during analysis in ${((performance.now() - learning) / 1000).toFixed(2)} s`);
  }
  const { result: made, peakMiB: rss } = await withPeakMemory(async () => {
    const started = performance.now();
    const landed = [];
    const previews = [];
    for (const [i, script] of scripts.entries()) {
      previews.push(await ad(product, script, TEMPLATES[i % 3], 'preview', 15, cacheDir, `${name}-preview-${i + 1}`));
      landed.push((performance.now() - started) / 1000);
    }
    const exportStarted = performance.now();
    const exported = await ad(product, scripts[0], TEMPLATES[0], 'export', 15, cacheDir, `${name}-export`);
    return { landed, previews, exported, exportSeconds: (performance.now() - exportStarted) / 1000 };
  });
  const { landed, previews, exported, exportSeconds } = made;
  results.push({ first: landed[0], all: landed.at(-1), exportSeconds });
  console.log(
    `${name} (${product.media.length} photos, ${product.language}): first preview ${landed[0].toFixed(2)} s, all ${landed.length} ${landed.at(-1).toFixed(2)} s, 15 s export ${exportSeconds.toFixed(2)} s, peak about ${rss} MiB`,
  );
  console.log(`  first preview by stage (s): ${byStage(previews[0].stages)}`);
  console.log(`  export by stage (s): ${byStage(exported.stages)}`);
  console.log(`  files: ${[...previews, exported].map((p) => p.hash).join(' ')}`);
}
if (results.length > 0)
  console.log(
    `median of ${results.length}: first preview ${median(results.map((r) => r.first)).toFixed(2)} s, all three ${median(results.map((r) => r.all)).toFixed(2)} s, 15 s export ${median(results.map((r) => r.exportSeconds)).toFixed(2)} s; load ${loadAverage()}`,
  );

if (long) {
  const name = products[0];
  const product = await productIn(join(folder, name));
  const cacheDir = await freshCache(musicDir);
  const [script] = scriptsOf(product, 45, 1);
  if (process.env.BENCH_LEARNT === '1') {
    // As a worker meets an export: the pictures learnt during analysis, the model released while the user
    // watched the previews.
    for (const { file } of product.media) await m.learnPicture(file, cacheDir);
    while (m.heldModels() > 0) await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const started = performance.now();
  const { peakMiB, childrenMiB, ownMiB } = await withPeakMemory(() =>
    ad(product, script, TEMPLATES[0], 'export', 45, cacheDir, `${name}-export-45`),
  );
  console.log(
    `45 s export (${name}): ${((performance.now() - started) / 1000).toFixed(2)} s, peak about ${peakMiB} MiB (then ffmpeg's ${childrenMiB} MiB, this process's ${ownMiB} MiB: the speech engine, and the models unless learnt and released)`,
  );
}
await rm(dir, { recursive: true, force: true });
