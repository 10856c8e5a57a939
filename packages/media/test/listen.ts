/**
 * Listening by numbers, for the music tests: decoded samples, band levels, spectral flatness and an onset
 * detector, all from real files through ffmpeg.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type MediaTools, onPath } from '../src/index.js';

const run = promisify(execFile);

/** A file's samples, mixed to mono at `rate`, after an ffmpeg filter (`anull` for none). */
export async function samples(tools: MediaTools, file: string, rate: number, filter = 'anull'): Promise<Float32Array> {
  const args = ['-v', 'error', '-i', file, '-af', filter, '-ac', '1', '-ar', String(rate), '-f', 'f32le', '-'];
  const { stdout } = await run(tools.ffmpeg, args, { encoding: 'buffer', maxBuffer: 1 << 30 });
  return new Float32Array(stdout.buffer, stdout.byteOffset, stdout.byteLength / 4);
}

/** The RMS level in dB of `x` between two times (seconds), or of all of it. */
export function level(x: Float32Array, rate: number, from = 0, to = x.length / rate): number {
  const a = Math.round(from * rate);
  const b = Math.min(x.length, Math.round(to * rate));
  let sum = 0;
  for (let i = a; i < b; i++) sum += (x[i] as number) ** 2;
  return 10 * Math.log10(sum / Math.max(1, b - a) + 1e-20);
}

/**
 * Mean spectral flatness (ffmpeg aspectralstats): near 0 for a tone and its partials, higher for real instruments and
 * drums. aspectralstats came in ffmpeg 5: the measure runs on the ffmpeg on PATH (Debian's in CI) when there is one,
 * whatever build made the file (decision "Both ffmpeg builds").
 */
export async function flatness(tools: MediaTools, file: string): Promise<number> {
  const key = 'lavfi.aspectralstats.1.flatness';
  const args = ['-v', 'error', '-i', file, '-ac', '1', '-af', `aspectralstats,ametadata=print:key=${key}:file=-`, '-f', 'null', '-'];
  const { stdout } = await run(onPath('ffmpeg') ?? tools.ffmpeg, args, { maxBuffer: 1 << 26 });
  const values = [...stdout.matchAll(/flatness=([\d.e+-]+|nan)/g)].map((m) => Number(m[1])).filter(Number.isFinite);
  return values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
}

const ONSET_RATE = 22_050;
const HOP = 64;
const WINDOW = 256;

/**
 * Onsets (seconds) in one band: where the short-time energy jumps (its rise over the last few frames) well above
 * its usual rise, at least 80 ms apart.
 */
async function bandOnsets(tools: MediaTools, file: string, filter: string): Promise<number[]> {
  const x = await samples(tools, file, ONSET_RATE, filter);
  const energy: number[] = [];
  for (let i = 0; i + WINDOW <= x.length; i += HOP) {
    let sum = 0;
    for (let j = i; j < i + WINDOW; j++) sum += (x[j] as number) ** 2;
    energy.push(10 * Math.log10(sum / WINDOW + 1e-12));
  }
  const rise = energy.map((e, i) => Math.max(0, e - Math.min(e, ...energy.slice(Math.max(0, i - 4), i))));
  const mean = rise.reduce((a, b) => a + b, 0) / rise.length;
  const sd = Math.sqrt(rise.reduce((a, b) => a + (b - mean) ** 2, 0) / rise.length);
  const found: number[] = [];
  for (let i = 1; i < rise.length - 1; i++) {
    const r = rise[i] as number;
    if (r > mean + 2.5 * sd && r >= (rise[i - 1] as number) && r >= (rise[i + 1] as number)) {
      const at = (i * HOP + WINDOW / 2) / ONSET_RATE;
      if (!found.length || at - (found.at(-1) as number) > 0.08) found.push(at);
    }
  }
  return found;
}

/** Onsets of the drums and bass: the low band (kick, bass) and the high band (snare, claps, hats), merged. */
export async function onsets(tools: MediaTools, file: string): Promise<number[]> {
  const [low, high] = await Promise.all([
    bandOnsets(tools, file, 'lowpass=f=200,lowpass=f=200'),
    bandOnsets(tools, file, 'highpass=f=2000'),
  ]);
  return [...low, ...high].sort((a, b) => a - b);
}

/** The share of `grid` times with an onset within `tolerance` seconds. */
export const coverage = (grid: number[], found: number[], tolerance = 0.04) =>
  grid.filter((at) => found.some((t) => Math.abs(t - at) <= tolerance)).length / grid.length;

/** The number of channels of a file's first audio stream, as ffprobe reads it. */
export async function channels(tools: MediaTools, file: string): Promise<number> {
  const args = ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=channels', '-of', 'csv=p=0', file];
  const { stdout } = await run(tools.ffprobe, args);
  return Number(stdout.trim());
}

/** The correlation of the left and right channels: 1 mono, 0 unrelated, below 0 cancelling when played in mono. */
export async function correlation(tools: MediaTools, file: string): Promise<number> {
  const args = ['-v', 'error', '-i', file, '-ac', '2', '-f', 'f32le', '-'];
  const { stdout } = await run(tools.ffmpeg, args, { encoding: 'buffer', maxBuffer: 1 << 30 });
  const x = new Float32Array(stdout.buffer, stdout.byteOffset, stdout.byteLength / 4);
  let lr = 0;
  let ll = 0;
  let rr = 0;
  for (let i = 0; i + 1 < x.length; i += 2) {
    const l = x[i] as number;
    const r = x[i + 1] as number;
    lr += l * r;
    ll += l * l;
    rr += r * r;
  }
  return lr / Math.sqrt(ll * rr || 1);
}
