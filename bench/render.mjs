// Benchmark of the renderer: wall time, CPU time and peak memory of preview (540p) and export (1080p)
// renders of 15, 30 and 45 s at 9:16, from realistic inputs made on the spot: 7 product shots of 1200×1600
// (a lit bottle on a gradient with label text and grain, JPEG), a voice-like soundtrack (a pitched buzz with
// syllable rhythm over soft noise) and ASS subtitles with one caption per speech segment.
// Run from the repo root: node bench/render.mjs
// BENCH_RUNS (renders per case, default 3), BENCH_CASES (e.g. "export-15,preview-15") and BENCH_TEMPLATE change the run.
// Every run starts with an empty still cache, as an export does (previews are a different size).
// CPU is all the work done (ffmpeg, and sharp inside this process): on a shared machine it is the steadier
// figure, and CPU ÷ 2 is the least wall time two idle cores could take.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { register } from 'tsx/esm/api';
import { childrenRss, loadAverage } from './proc.mjs';

register();
const { locateTools, planTimeline, probe, renderVideo, runTool, TEMPLATES } = await import('../packages/media/src/index.ts');

const runs = Number(process.env.BENCH_RUNS || 3);
/** The template the ads are made in (BENCH_TEMPLATE); Minimal luxury's long dissolves and zooms cost the most. */
const template = process.env.BENCH_TEMPLATE || 'minimal-luxury';
const wanted = process.env.BENCH_CASES?.split(',');
const tools = locateTools();
const dir = await mkdtemp(join(tmpdir(), 'reelsmith-bench-render-'));

/** A product shot: a lit bottle on a gradient with label text, and sensor-like grain so it compresses like a photo. */
async function productImage(hue, out) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1600">
<defs><radialGradient id="bg" cx="50%" cy="40%" r="75%"><stop offset="0" stop-color="hsl(${hue},40%,85%)"/><stop offset="1" stop-color="hsl(${hue + 30},35%,35%)"/></radialGradient>
<linearGradient id="p" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue + 180},70%,60%)"/><stop offset="1" stop-color="hsl(${hue + 200},60%,25%)"/></linearGradient></defs>
<rect width="1200" height="1600" fill="url(#bg)"/><ellipse cx="600" cy="1330" rx="380" ry="60" fill="rgba(0,0,0,0.35)"/>
<rect x="380" y="420" width="440" height="900" rx="80" fill="url(#p)"/><rect x="450" y="300" width="300" height="160" rx="30" fill="hsl(${hue + 180},20%,20%)"/>
<text x="600" y="860" font-size="90" font-family="sans-serif" text-anchor="middle" fill="white">BRAND</text>
<text x="600" y="960" font-size="40" font-family="sans-serif" text-anchor="middle" fill="white">Premium formula 250 ml</text>
${Array.from({ length: 40 }, (_, i) => `<circle cx="${(i * 137) % 1200}" cy="${(i * 251) % 1600}" r="${10 + ((i * 7) % 40)}" fill="rgba(255,255,255,0.15)"/>`).join('')}
</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true });
  let seed = hue + 1;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = Math.max(0, Math.min(255, data[i] + ((seed >>> 24) % 13) - 6));
  }
  await sharp(data, { raw: info }).jpeg({ quality: 88 }).toFile(out);
  return out;
}

const images = await Promise.all(Array.from({ length: 7 }, (_, i) => productImage(i * 47, join(dir, `product-${i}.jpg`))));

const ASS_HEAD = `[Script Info]
ScriptType: v4.00+
PlayResX: 1080
PlayResY: 1920

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,DejaVu Sans,72,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,-1,0,0,0,100,100,0,0,1,5,2,2,60,60,320,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
`;
const clock = (s) => `0:${String(Math.floor(s / 60)).padStart(2, '0')}:${(s % 60).toFixed(2).padStart(5, '0')}`;

/** Speech segments of 2.2–3.6 s filling about 90 % of the length, their captions and the soundtrack. */
async function inputs(seconds) {
  const segments = [];
  for (let t = 0, i = 0; t < seconds * 0.9; i++) {
    const s = 2.2 + ((i * 0.7) % 1.4);
    segments.push({ segId: i + 1, seconds: s });
    t += s;
  }
  let t = 0;
  const events = segments.map(({ segId, seconds: s }) => {
    const line = `Dialogue: 0,${clock(t)},${clock(t + s)},Default,,0,0,0,,Reason ${segId}: made to last, loved by thousands`;
    t += s;
    return line;
  });
  const ass = join(dir, `captions-${seconds}.ass`);
  await writeFile(ass, `${ASS_HEAD}${events.join('\n')}\n`);
  const audio = join(dir, `voice-${seconds}.wav`);
  await runTool(tools.ffmpeg, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=150:sample_rate=44100:duration=${t}`,
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=color=pink:amplitude=0.05:sample_rate=44100:duration=${t}`,
    '-filter_complex',
    "[0]aeval='val(0)*0.6*(0.55+0.45*sin(2*PI*4*t))':c=same,highpass=f=120[v];[v][1]amix=inputs=2",
    audio,
  ]);
  return { segments, ass, audio };
}

/** CPU seconds used so far (user + system) by this process (sharp works in it) and its reaped children (ffmpeg). */
function cpuSeconds() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const own = process.resourceUsage();
  return (Number(fields[13]) + Number(fields[14])) / 100 + (own.userCPUTime + own.systemCPUTime) / 1e6;
}

async function measure(quality, seconds, input) {
  const timeline = planTimeline({
    scenes: images.map((file) => ({ kind: 'image', file })),
    segments: input.segments,
    videoLength: seconds,
    aspectRatio: '9:16',
    template: TEMPLATES[template],
    hasOffer: true,
  });
  const cacheDir = await mkdtemp(join(dir, 'cache-'));
  const outFile = join(dir, `${quality}-${seconds}.mp4`);
  let peak = 0;
  const poll = setInterval(() => {
    peak = Math.max(peak, childrenRss());
  }, 100);
  const cpuBefore = cpuSeconds();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  await renderVideo(timeline, {
    audio: input.audio,
    ass: input.ass,
    quality,
    outFile,
    posterFile: join(dir, 'poster.png'),
    cacheDir,
    tools,
  });
  const wall = (performance.now() - started) / 1000;
  clearInterval(poll);
  const cpu = cpuSeconds() - cpuBefore;
  const node = Math.max(0, process.memoryUsage().rss - rssBefore);
  const p = await probe(tools, outFile);
  await rm(cacheDir, { recursive: true, force: true });
  return { wall, cpu, peak: peak + node, duration: p.duration, size: `${p.width}×${p.height}` };
}

const cases = [15, 30, 45]
  .flatMap((s) => [
    ['preview', s],
    ['export', s],
  ])
  .filter(([q, s]) => !wanted || wanted.includes(`${q}-${s}`));
const load = loadAverage;
console.log(`${runs} runs per case; load average before: ${load()}`);
for (const [quality, seconds] of cases) {
  const input = await inputs(seconds);
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await measure(quality, seconds, input));
  const walls = results.map((r) => r.wall);
  const best = results.reduce((a, b) => (b.wall < a.wall ? b : a));
  const mb = (bytes) => `${Math.round(bytes / 2 ** 20)} MiB`;
  console.log(
    `${quality} ${seconds} s (${best.size}, ${best.duration.toFixed(2)} s): wall best ${best.wall.toFixed(2)} s ` +
      `(${Math.min(...walls).toFixed(2)}–${Math.max(...walls).toFixed(2)}), CPU ${best.cpu.toFixed(1)} s, ` +
      `peak memory ${mb(Math.max(...results.map((r) => r.peak)))}; load ${load()}`,
  );
}
await rm(dir, { recursive: true, force: true });
