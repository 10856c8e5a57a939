/**
 * Word timings for speech whose engine gives none (decision "Voices and word timings"): the known text is aligned to
 * the audio. The loudness of every 5 ms is measured; the voiced stretches between pauses are found; the words are
 * given to the stretches in order, so that each stretch's length fits the words it says and the pauses fall after
 * punctuation where they can; within a stretch the words are spread by their weight (syllables, Han characters),
 * and the boundaries between them move to the quiet moments near their estimates (the dip between two words).
 */

import { hanCount } from '../script/language.js';
import { type Pcm, readWav } from './wav.js';
import { spokenWords, type WordTiming } from './words.js';

/** One loudness measurement every HOP seconds over a WINDOW seconds long. */
const HOP = 0.005;
const WINDOW = 0.02;
/** Quieter than the speech's loud parts by this much is not speech (dB). */
const SPEECH_RANGE = 40;
/** A quiet shorter than this is inside a word (a stop consonant's closure), not a pause. */
const MIN_PAUSE = 0.03;
/** How far (in voiced seconds) a word's end may stray from its share of the time for the cost of a 10 dB dip. */
const DRIFT = 0.18;
/** A sound shorter than this alone is a click, not a word. */
const MIN_SOUND = 0.03;

/**
 * How long a word takes to say relative to others, for the alignment: a Han character is a syllable, a Latin word
 * lasts about as long as its letters (a one-letter word is short, not a whole unit as in words.ts's estimate).
 */
export function sayingWeight(word: string): number {
  const letters = word.replace(/[^\p{L}\p{N}]/gu, '').length;
  const han = hanCount(word);
  return han > 0 ? han + 0.2 * (letters - han) : 0.25 + 0.2 * letters || 0.3;
}

/** A stretch of speech between pauses, in seconds on the file's clock. */
export interface Stretch {
  start: number;
  end: number;
}

/** The loudness (dB) of each frame of a mono mix of `pcm`. */
export function frameLoudness({ sampleRate, channels, samples }: Pcm): Float64Array {
  const frames = samples.length / channels;
  const hop = Math.round(HOP * sampleRate);
  const window = Math.round(WINDOW * sampleRate);
  const count = Math.max(0, Math.floor((frames - window) / hop) + 1);
  const db = new Float64Array(count);
  for (let f = 0; f < count; f++) {
    let sum = 0;
    for (let i = f * hop; i < f * hop + window; i++) {
      let x = 0;
      for (let c = 0; c < channels; c++) x += (samples[i * channels + c] as number) / 32768;
      x /= channels;
      sum += x * x;
    }
    db[f] = 10 * Math.log10(sum / window + 1e-12);
  }
  return db;
}

/** The time of the middle of frame `f`. */
const timeOf = (f: number) => f * HOP + WINDOW / 2;

const percentile = (values: Float64Array, p: number) => {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? -120;
};

/** The stretches of speech between pauses of at least MIN_PAUSE. */
export function voicedStretches(pcm: Pcm, loudness = frameLoudness(pcm)): Stretch[] {
  if (loudness.length === 0) return [];
  const loud = percentile(loudness, 0.95);
  const floor = percentile(loudness, 0.05);
  const threshold = Math.max(loud - SPEECH_RANGE, floor + 6);
  const runs: [number, number][] = [];
  loudness.forEach((db, f) => {
    if (db <= threshold) return;
    const last = runs.at(-1);
    // A quiet too short to be a pause joins the sounds either side of it.
    if (last && (f - last[1]) * HOP < MIN_PAUSE + HOP) last[1] = f;
    else runs.push([f, f]);
  });
  const sounds = runs.filter(([a, b]) => (b - a + 1) * HOP >= MIN_SOUND);
  return (sounds.length > 0 ? sounds : runs).map(([a, b]) => ({
    start: Math.max(0, timeOf(a) - HOP / 2),
    end: timeOf(b) + HOP / 2,
  }));
}

/** How strongly punctuation after a word calls for a pause: a sentence's end, a clause's, none. */
function pauseAfter(word: string): number {
  if (/[.!?。！？…]["'”’」』)]*$/u.test(word)) return 1;
  if (/[,;:，；：、—–-]["'”’」』)]*$/u.test(word)) return 0.6;
  return 0;
}

interface Group {
  /** Words [from, to) and stretches [first, last]. */
  from: number;
  to: number;
  first: number;
  last: number;
}

/**
 * Gives the words to the stretches in order, each group of words one or more whole stretches: the grouping whose
 * stretch lengths best fit the words' weights, pauses after punctuation and none long inside a group.
 */
function groupWords(weights: number[], pauses: number[], stretches: Stretch[]): Group[] {
  const W = weights.length;
  const S = stretches.length;
  const voiced = stretches.map((s) => s.end - s.start);
  const rate = voiced.reduce((a, b) => a + b, 0) / weights.reduce((a, b) => a + b, 0);
  const weightSum = [0];
  for (const w of weights) weightSum.push((weightSum.at(-1) as number) + w);
  const voicedSum = [0];
  for (const v of voiced) voicedSum.push((voicedSum.at(-1) as number) + v);
  // The pause after stretch k; sums of the squared pauses and of the punctuation, so a group's cost is quick.
  const gapAfter = (k: number) => (stretches[k + 1]?.start ?? Number.NaN) - (stretches[k]?.end ?? 0) || 0;
  const gapSum = [0];
  for (let k = 0; k < S; k++) gapSum.push((gapSum.at(-1) as number) + gapAfter(k) ** 2);
  const pauseSum = [0];
  for (const p of pauses) pauseSum.push((pauseSum.at(-1) as number) + p);
  const groupCost = (from: number, to: number, first: number, last: number) => {
    const said = (weightSum[to] as number) - (weightSum[from] as number);
    const heard = (voicedSum[last + 1] as number) - (voicedSum[first] as number);
    let cost = 3 * Math.log(heard / (rate * said)) ** 2;
    // A long quiet inside a group is unlikely; punctuation inside one without a pause is a little unlikely.
    cost += 40 * ((gapSum[last] as number) - (gapSum[first] as number));
    cost += 0.5 * ((pauseSum[to - 1] as number) - (pauseSum[from] as number));
    // A long pause after a word without punctuation is unlikely too.
    if (last < S - 1 && (pauses[to - 1] as number) === 0) cost += 8 * Math.max(0, gapAfter(last) - 0.12) ** 2;
    return cost;
  };
  // best[i][j]: the cheapest grouping of the first i words into the first j stretches.
  const best = Array.from({ length: W + 1 }, () => new Float64Array(S + 1).fill(Number.POSITIVE_INFINITY));
  const from = Array.from({ length: W + 1 }, () => new Array<[number, number]>(S + 1));
  (best[0] as Float64Array)[0] = 0;
  for (let i = 1; i <= W; i++)
    for (let j = 1; j <= S; j++)
      for (let pi = 0; pi < i; pi++)
        for (let pj = 0; pj < j; pj++) {
          const before = (best[pi] as Float64Array)[pj] as number;
          if (!Number.isFinite(before)) continue;
          const cost = before + groupCost(pi, i, pj, j - 1);
          if (cost < ((best[i] as Float64Array)[j] as number)) {
            (best[i] as Float64Array)[j] = cost;
            (from[i] as [number, number][])[j] = [pi, pj];
          }
        }
  const groups: Group[] = [];
  for (let i = W, j = S; i > 0; ) {
    const [pi, pj] = (from[i] as [number, number][])[j] as [number, number];
    groups.unshift({ from: pi, to: i, first: pj, last: j - 1 });
    [i, j] = [pi, pj];
  }
  return groups;
}

/**
 * The boundaries between a group's words: the cuts whose word lengths best fit the words' weights (each word's
 * share of the group's voiced time) and that fall in the quietest moments (the dip between two words, or a quiet
 * inside the group), found together by dynamic programming over the 5 ms frames.
 */
function placeGroup(weights: number[], stretches: Stretch[], loudness: Float64Array): Stretch[] {
  const first = stretches[0] as Stretch;
  const last = stretches.at(-1) as Stretch;
  if (weights.length === 1) return [{ start: first.start, end: last.end }];
  const voiced = stretches.reduce((sum, s) => sum + s.end - s.start, 0);
  const sum = weights.reduce((a, b) => a + b, 0);
  const expected = weights.map((w) => (voiced * w) / sum);
  // Candidate cuts: every frame of the group; the group's edges are fixed.
  const from = Math.max(0, Math.round((first.start - WINDOW / 2) / HOP));
  const to = Math.min(loudness.length - 1, Math.round((last.end - WINDOW / 2) / HOP));
  const frames = to - from;
  let loudest = Number.NEGATIVE_INFINITY;
  for (let f = from; f <= to; f++) loudest = Math.max(loudest, loudness[f] as number);
  /** A cut in a dip 10 dB below the group's loudest moment is worth as much as a word 40 % off its length. */
  const cutCost = (f: number) => Math.max(-60, (loudness[from + f] as number) - loudest) / 10;
  /** The voiced time between two frames of the group (a quiet inside it does not count). */
  const voicedUpTo = new Float64Array(frames + 1);
  for (let f = 1; f <= frames; f++) {
    const [ta, tb] = [timeOf(from + f - 1), timeOf(from + f)];
    const voicedHere = stretches.reduce((sum, s) => sum + Math.max(0, Math.min(tb, s.end) - Math.max(ta, s.start)), 0);
    voicedUpTo[f] = (voicedUpTo[f - 1] as number) + voicedHere;
  }
  const voicedBetween = (a: number, b: number) => (voicedUpTo[b] as number) - (voicedUpTo[a] as number);
  const lengthCost = (k: number, a: number, b: number) => {
    const heard = Math.max(voicedBetween(a, b), HOP);
    return 2.5 * Math.log(heard / (expected[k] as number)) ** 2;
  };
  const n = weights.length;
  // Where each word ends when spread by weight alone: a cut far from it must buy its distance with a deep dip, so a
  // dip inside a word (a stop consonant) cannot pull a whole word a slot away.
  const endsAt: number[] = [];
  let spread = 0;
  for (const e of expected) {
    spread += e;
    endsAt.push(spread);
  }
  const driftCost = (k: number, f: number) => ((voicedUpTo[f] as number) - (endsAt[k] as number)) ** 2 / DRIFT ** 2;
  // best[k][f]: the cheapest placing of the first k+1 words, word k ending at frame f.
  const best = Array.from({ length: n }, () => new Float64Array(frames + 1).fill(Number.POSITIVE_INFINITY));
  const back = Array.from({ length: n }, () => new Int32Array(frames + 1).fill(-1));
  const shortest = Math.max(1, Math.round(0.03 / HOP));
  for (let f = shortest; f <= frames; f++) (best[0] as Float64Array)[f] = lengthCost(0, 0, f) + cutCost(f) + driftCost(0, f);
  for (let k = 1; k < n; k++) {
    const row = best[k] as Float64Array;
    const prev = best[k - 1] as Float64Array;
    for (let f = shortest * (k + 1); f <= frames; f++) {
      // Word k's own span: from a quarter to four times its expected length keeps the search small.
      const longest = Math.round((4 * (expected[k] as number)) / HOP) + 1;
      for (let p = Math.max(shortest * k, f - longest); p <= f - shortest; p++) {
        const before = prev[p] as number;
        if (!Number.isFinite(before)) continue;
        const cost = before + lengthCost(k, p, f) + (k < n - 1 ? cutCost(f) + driftCost(k, f) : 0);
        if (cost < (row[f] as number)) {
          row[f] = cost;
          (back[k] as Int32Array)[f] = p;
        }
      }
    }
  }
  const cuts: number[] = [];
  if (Number.isFinite((best[n - 1] as Float64Array)[frames]))
    for (let k = n - 1, f = frames; k > 0; k--) {
      f = (back[k] as Int32Array)[f] as number;
      cuts.unshift(timeOf(from + f));
    }
  // Too many words for the sound (each needs 30 ms), or a word far longer than its weight: spread by weight alone.
  else
    for (const end of endsAt.slice(0, -1)) {
      const f = voicedUpTo.findIndex((v) => v >= end);
      cuts.push(timeOf(from + (f < 0 ? frames : f)));
    }
  // A cut in a quiet between stretches: the word before ends as the quiet begins, the next starts as it ends.
  const quietAt = (t: number) => stretches.findIndex((s, i) => i > 0 && t < s.start && t > (stretches[i - 1] as Stretch).end);
  return weights.map((_, i) => {
    const before = cuts[i - 1];
    const after = cuts[i];
    const quietBefore = before === undefined ? -1 : quietAt(before);
    const quietAfter = after === undefined ? -1 : quietAt(after);
    return {
      start: before === undefined ? first.start : quietBefore > 0 ? (stretches[quietBefore] as Stretch).start : before,
      end: after === undefined ? last.end : quietAfter > 0 ? (stretches[quietAfter - 1] as Stretch).end : after,
    };
  });
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * When each of `words` (spokenWords of the line the audio says, in order) is said in `pcm`: one timing per word,
 * in order, on the file's clock. Audio without any sound gets the words spread over its whole length.
 */
export function alignWords(words: string[], pcm: Pcm, weights: number[] = words.map(sayingWeight)): WordTiming[] {
  if (words.length === 0) return [];
  const loudness = frameLoudness(pcm);
  const stretches = voicedStretches(pcm, loudness);
  const seconds = pcm.samples.length / pcm.channels / pcm.sampleRate;
  if (stretches.length === 0) stretches.push({ start: 0, end: seconds });
  const timings: WordTiming[] = [];
  for (const group of groupWords(weights, words.map(pauseAfter), stretches)) {
    const placed = placeGroup(weights.slice(group.from, group.to), stretches.slice(group.first, group.last + 1), loudness);
    placed.forEach(({ start, end }, i) => {
      timings.push({ word: words[group.from + i] as string, start: round(start), end: round(end) });
    });
  }
  return timings;
}

/** When each word of `text` is said in a 16-bit PCM WAV of it (the file's bytes): spokenWords aligned to its sound. */
export const alignSpeech = (text: string, wav: Uint8Array): WordTiming[] => alignWords(spokenWords(text), readWav(wav));
