// Benchmark of one link-video submit's previews: three 15 s 540p previews of one product, each as the task makes
// it (the local script writer, speech with eSpeak NG, the music bed and mix, captions and the template's cards,
// the render), one after the other, each in its own template. Prints when the first is playable and the three are
// done (targets: first ≤ 6 s, all ≤ 12 s), from a cold cache as a new project starts: its stills are new, and its
// music loops are those a server renders when it starts (warmMusic), so the bench renders them once before the runs
// and prints what a loop rendered on demand would cost, and the music's share of each first preview.
// Run from the repo root: node bench/previews.mjs (BENCH_RUNS, default 2).
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { register } from 'tsx/esm/api';
import { childrenRss, loadAverage } from './proc.mjs';
import { stageClock } from './stages.mjs';

register();
const m = await import('../packages/media/src/index.ts');

const runs = Number(process.env.BENCH_RUNS || 2);
const tools = m.locateTools();
const dir = await mkdtemp(join(tmpdir(), 'reelsmith-bench-previews-'));
const product = {
  productName: 'Aqua Bottle 1L Stainless Steel',
  productDescription:
    'Keeps drinks cold for 24 hours and hot for 12. Leak-proof lid that locks with one hand. Fits every cup holder. Dishwasher safe. Made from recycled steel.',
  offer: { price: '24.90', currency: 'USD', listPrice: '34.90' },
};

/** Product shots of 1200×1600 on a plain studio backdrop: the kind a shop page gives. */
async function shots() {
  return Promise.all(
    [200, 20, 120, 280].map(async (hue, i) => {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1600"><rect width="1200" height="1600" fill="#f4f3f0"/>
<ellipse cx="600" cy="1360" rx="300" ry="40" fill="rgba(0,0,0,0.2)"/><rect x="420" y="${380 + i * 20}" width="360" height="980" rx="90" fill="hsl(${hue},55%,42%)"/>
<rect x="470" y="${260 + i * 20}" width="260" height="150" rx="30" fill="#222"/><rect x="420" y="800" width="360" height="180" fill="#f0ece2"/></svg>`;
      const file = join(dir, `shot-${i}.jpg`);
      await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toFile(file);
      return { kind: 'image', file, width: 1200, height: 1600 };
    }),
  );
}

/** One preview as the link-video task makes it (composeAd), with the seconds each of its stages took. */
async function preview(media, script, templateId, work, cacheDir) {
  const { stages, mark } = stageClock();
  await m.composeAd(
    {
      scenes: media,
      segments: script.segments,
      templateId,
      brand: m.DEFAULT_BRAND,
      facts: {
        name: product.productName,
        offer: product.offer,
        features: m.featureLines(product.productDescription, 'en'),
        opening: script.segments[0]?.segText,
        callToAction: 'Shop now',
      },
      aspectRatio: '9:16',
      videoLength: 15,
      quality: 'preview',
      language: 'en',
      voiceId: m.defaultVoice('en').voiceId,
      musicId: m.MUSIC[0].musicId,
      captionId: m.CAPTIONS[0].captionId,
      aiLabel: false,
    },
    { workDir: work, cacheDir, tools, progress: mark },
  );
  mark(undefined);
  return stages;
}

const media = await shots();
console.log(`${runs} runs; load average before: ${loadAverage()}`);
// What a loop costs when it is not cached (the synthesiser's thread starting, the SoundFont parsed, the render):
// then the eight loops rendered as a server does at start, into the music folder every run's cache shares.
const musicDir = join(dir, 'music');
let musicStarted = performance.now();
await m.musicLoop(m.MUSIC[0].musicId, join(dir, 'music-cold'), tools);
const coldLoop = (performance.now() - musicStarted) / 1000;
musicStarted = performance.now();
await m.warmMusic(musicDir, tools);
console.log(
  `music: a loop not yet cached ${coldLoop.toFixed(2)} s (${m.MUSIC[0].musicId}, the synthesiser's process starting included); all ${m.MUSIC.length} loops at start ${((performance.now() - musicStarted) / 1000).toFixed(2)} s`,
);
for (let run = 0; run < runs; run++) {
  const cacheDir = await mkdtemp(join(dir, 'cache-'));
  await symlink(musicDir, join(cacheDir, 'music'));
  let peak = 0;
  const poll = setInterval(() => {
    peak = Math.max(peak, childrenRss());
  }, 100);
  const started = performance.now();
  const scripts = m.writeScripts({ ...product, language: 'en', videoLength: 15, count: 3 });
  const landed = [];
  const byStage = [];
  for (const [i, templateId] of ['clean-studio', 'bold-ugc', 'minimal-luxury'].entries()) {
    const work = await mkdtemp(join(dir, 'work-'));
    byStage.push(await preview(media, scripts[i], templateId, work, cacheDir));
    landed.push((performance.now() - started) / 1000);
  }
  clearInterval(poll);
  const rss = Math.round((peak + process.memoryUsage().rss) / 2 ** 20);
  console.log(
    `three previews: first playable ${landed[0].toFixed(2)} s, all ${landed[2].toFixed(2)} s (${landed.map((s) => s.toFixed(2)).join(', ')}), peak about ${rss} MiB; load ${loadAverage()}`,
  );
  const first = byStage[0];
  console.log(
    `  first preview by stage: ${Object.entries(first)
      .map(([name, seconds]) => `${name} ${seconds.toFixed(2)} s`)
      .join(', ')} (the music bed and mix are in "timeline")`,
  );
}
await rm(dir, { recursive: true, force: true });
