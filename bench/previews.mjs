// Benchmark of one link-video submit's previews: three 15 s 540p previews of one product, each as the task makes
// it (the local script writer, speech with eSpeak NG, the music bed and mix, captions and the template's cards,
// the render), one after the other, each in its own template. Prints when the first is playable and the three are
// done (targets: first ≤ 6 s, all ≤ 12 s), from a cold cache as a new project starts: its stills are new, and its
// music loops are those a server renders when it starts (warmMusic), so the bench renders them once before the runs
// and prints what a loop rendered on demand would cost, and the music's share of each first preview.
// Run from the repo root: node bench/previews.mjs (BENCH_RUNS, default 2).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { register } from 'tsx/esm/api';
import { childrenRss, loadAverage } from './proc.mjs';

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

async function preview(media, script, templateId, work, cacheDir, musicDir) {
  const template = m.TEMPLATES[templateId];
  const voice = await m.speakScript(script.segments, { voiceId: m.defaultVoice('en').voiceId, outDir: work, tools });
  const timeline = m.planTimeline({
    scenes: media,
    segments: voice.segments.map((s) => ({ segId: s.segId, seconds: s.seconds })),
    videoLength: 15,
    aspectRatio: '9:16',
    template,
    hasOffer: true,
  });
  const music = join(work, 'music.wav');
  const musicStarted = performance.now();
  await m.musicBed(m.MUSIC[0].musicId, 15, music, musicDir, tools);
  const musicSeconds = (performance.now() - musicStarted) / 1000;
  const audio = join(work, 'audio.wav');
  await m.mixAudio({ voice: voice.file, music, seconds: 15, outFile: audio, tools });
  const brand = m.DEFAULT_BRAND;
  const captions = m.buildAss({
    segments: voice.segments.map((s) => ({ text: s.segText, start: s.start, end: s.end })),
    styleId: m.CAPTIONS[0].captionId,
    width: 540,
    height: 960,
    language: 'en',
  });
  const facts = {
    name: product.productName,
    offer: product.offer,
    features: m.featureLines(product.productDescription, 'en'),
    opening: script.segments[0]?.segText,
    callToAction: 'Shop now',
  };
  const cards = m.buildCardsAss({ timeline, template, facts, brand, width: 540, height: 960, language: 'en', aiLabel: false });
  const ass = join(work, 'captions.ass');
  await writeFile(ass, m.mergeAss(captions, cards));
  await m.renderVideo(timeline, {
    audio,
    ass,
    fontsDir: m.cardFontsDir(m.cardFace(template, brand)),
    quality: 'preview',
    outFile: join(work, `${templateId}.mp4`),
    cacheDir: join(cacheDir, 'stills'),
    brand,
    tools,
  });
  return musicSeconds;
}

const media = await shots();
console.log(`${runs} runs; load average before: ${loadAverage()}`);
// What a loop costs when it is not cached (the synthesiser's thread starting, the SoundFont parsed, the render):
// then the eight loops rendered as a server does at start.
const musicDir = join(dir, 'music');
let musicStarted = performance.now();
await m.musicLoop(m.MUSIC[0].musicId, join(dir, 'music-cold'), tools);
const coldLoop = (performance.now() - musicStarted) / 1000;
musicStarted = performance.now();
await m.warmMusic(musicDir, tools);
console.log(
  `music: a loop not yet cached ${coldLoop.toFixed(2)} s (${m.MUSIC[0].musicId}, thread start included); all ${m.MUSIC.length} loops at start ${((performance.now() - musicStarted) / 1000).toFixed(2)} s`,
);
for (let run = 0; run < runs; run++) {
  const cacheDir = await mkdtemp(join(dir, 'cache-'));
  let peak = 0;
  const poll = setInterval(() => {
    peak = Math.max(peak, childrenRss());
  }, 100);
  const started = performance.now();
  const scripts = m.writeScripts({ ...product, language: 'en', videoLength: 15, count: 3 });
  const landed = [];
  const musicShare = [];
  for (const [i, templateId] of ['clean-studio', 'bold-ugc', 'minimal-luxury'].entries()) {
    const work = await mkdtemp(join(dir, 'work-'));
    musicShare.push(await preview(media, scripts[i], templateId, work, cacheDir, musicDir));
    landed.push((performance.now() - started) / 1000);
  }
  clearInterval(poll);
  const rss = Math.round((peak + process.memoryUsage().rss) / 2 ** 20);
  console.log(
    `three previews: first playable ${landed[0].toFixed(2)} s, all ${landed[2].toFixed(2)} s (${landed.map((s) => s.toFixed(2)).join(', ')}), peak about ${rss} MiB; the music bed ${musicShare[0].toFixed(2)} s of the first; load ${loadAverage()}`,
  );
}
await rm(dir, { recursive: true, force: true });
