// Benchmark of the Avatar tool's own work around a vendor's lip-sync model (decision "The Avatar tool"): the face
// check of a portrait (cold, the models loading, then warm) and one presenter video per language as composeTalking
// makes it at export quality (1080×1920): the voice, the vendor's clip (here a still of the portrait as long as the
// voice, made at once: a vendor takes minutes, which is theirs to count) and the render (the face found for the
// captions, the mix, the encode). Prints each stage's seconds and the peak memory.
// Run from the repo root: node bench/avatar.mjs [portrait.jpg] (BENCH_RUNS, default 2; default portrait: drawn).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { register } from 'tsx/esm/api';
import { loadAverage, withPeakMemory } from './proc.mjs';
import { stageClock } from './stages.mjs';

register();
const m = await import('../packages/media/src/index.ts');
const { drawnPortrait } = await import('../packages/media/test/fixtures.ts');

const runs = Number(process.env.BENCH_RUNS || 2);
const tools = m.locateTools();
const dir = await mkdtemp(join(tmpdir(), 'reelsmith-bench-avatar-'));
const portrait = process.argv[2] ?? join(dir, 'portrait.jpg');
if (!process.argv[2]) await writeFile(portrait, await drawnPortrait());

/** About 15 s of an ad's script in each language, a sentence a line. */
const SCRIPTS = {
  en: [
    'en-ava',
    'Meet the Trail bottle. It keeps drinks cold for a whole day and hot for twelve hours. The lid locks with one hand. Tap the link and get yours today.',
  ],
  zh: ['zh-xiaomei', '认识这款保温杯。冷饮保冷一整天，热饮保温十二小时。单手就能锁紧杯盖。点击链接，立即购买。'],
  pt: [
    'pt-ana',
    'Conheça a garrafa Trail. Ela mantém a bebida gelada o dia todo e quente por doze horas. A tampa trava com uma só mão. Toque no link e garanta a sua.',
  ],
};

/** The vendor's clip: the portrait, still, as long as the voice (a vendor's own minutes are not ours to count). */
async function vendorClip(voice, workDir) {
  const { duration } = await m.probe(tools, voice);
  const clip = join(workDir, 'vendor.mp4');
  await m.runTool(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-loop', '1', '-i', portrait, '-t', duration.toFixed(2), '-r', '25'],
    ...['-vf', 'scale=720:-2,format=yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', clip],
  ]);
  return clip;
}

const seconds = (ms) => (ms / 1000).toFixed(2);
console.log(`Avatar tool, ${runs} run(s) a language, load ${loadAverage()}`);

let at = performance.now();
const cold = await m.checkPortrait(portrait);
const coldMs = performance.now() - at;
at = performance.now();
await m.checkPortrait(portrait);
console.log(
  `face check: ${seconds(coldMs)} s cold (models loading), ${seconds(performance.now() - at)} s warm; ${cold.problem ?? 'one face looking at the camera'}`,
);

console.log('language  run  voice  talking  render  total  video  peak MiB');
for (const [language, [voiceId, script]] of Object.entries(SCRIPTS)) {
  for (let run = 1; run <= runs; run++) {
    const workDir = await mkdtemp(join(dir, `${language}-`));
    const { stages, mark } = stageClock();
    const started = performance.now();
    const { result, peakMiB } = await withPeakMemory(() =>
      m.composeTalking(
        {
          script,
          language,
          voiceId,
          captionId: 'karaoke',
          aspectRatio: '9:16',
          quality: 'export',
          musicId: 'spark',
          talk: (request) => vendorClip(request.voice, workDir),
        },
        { workDir, cacheDir: join(dir, 'cache'), tools, progress: mark },
      ),
    );
    mark();
    const total = performance.now() - started;
    const row = [
      language.padEnd(8),
      String(run).padStart(3),
      ...['voice', 'talking', 'render'].map((s) => (stages[s] ?? 0).toFixed(2).padStart(6)),
    ];
    console.log(`${row.join('  ')}  ${seconds(total).padStart(5)}  ${result.seconds.toFixed(1).padStart(4)} s  ${peakMiB}`);
  }
}
await rm(dir, { recursive: true, force: true });
