// The aligner against speech whose word boundaries are known: each word spoken alone by eSpeak NG, its silence
// trimmed, the words joined with known gaps (a pause after punctuation, short gaps or none between other words).
import { describe, expect, it } from 'vitest';
import { alignWords, voicedStretches } from '../src/speech/align.js';
import { espeakWav } from '../src/speech/espeak.js';
import { localVoice } from '../src/speech/voices.js';
import { type Pcm, readWav } from '../src/speech/wav.js';
import { spokenWords, type WordTiming } from '../src/speech/words.js';

/** The word's sound without the silence eSpeak puts around it: from the first to the last sample above 1 % of its peak. */
function trimmed(pcm: Pcm): Int16Array {
  const { samples } = pcm;
  const peak = samples.reduce((max, x) => Math.max(max, Math.abs(x)), 0);
  const above = (x: number) => Math.abs(x) > peak * 0.01;
  const first = samples.findIndex(above);
  const last = samples.findLastIndex(above);
  return samples.slice(first, last + 1);
}

/** Between words: a pause after a sentence or clause, else one of these in turn. */
const SHORT_GAPS = [0.06, 0.035, 0.09, 0.04, 0.12, 0.05];
/** Harder: a third of the words touch the next with no gap at all, as in connected speech. */
const TOUCHING = [0.06, 0, 0.09, 0.03, 0.12, 0];

/** A clip of `line` whose every word boundary is known. */
async function knownClip(line: string, voiceId: string, shortGaps = SHORT_GAPS): Promise<{ pcm: Pcm; truth: WordTiming[] }> {
  const words = spokenWords(line);
  const { espeak } = localVoice(voiceId);
  const sounds = [];
  for (const word of words) sounds.push(trimmed(readWav(await espeakWav(word.replace(/[^\p{L}\p{N}'’-]/gu, ''), espeak))));
  const sampleRate = 22_050;
  const lead = Math.round(0.25 * sampleRate);
  const gaps = words.map((word, i) =>
    /[.!?。！？]$/u.test(word) ? 0.4 : /[,，、]$/u.test(word) ? 0.28 : (shortGaps[i % shortGaps.length] as number),
  );
  const length = lead * 2 + sounds.reduce((sum, s, i) => sum + s.length + Math.round((gaps[i] as number) * sampleRate), 0);
  const samples = new Int16Array(length);
  const truth: WordTiming[] = [];
  let at = lead;
  for (const [i, sound] of sounds.entries()) {
    samples.set(sound, at);
    truth.push({ word: words[i] as string, start: at / sampleRate, end: (at + sound.length) / sampleRate });
    at += sound.length + Math.round((gaps[i] as number) * sampleRate);
  }
  return { pcm: { sampleRate, channels: 1, samples }, truth };
}

const CLIPS = {
  en: ['en-ava', 'Meet the Aurora bottle, it keeps drinks cold for a whole day. Tap the link and get yours today!'],
  pt: ['pt-lucas', 'Conheça a garrafa Aurora, ela mantém a bebida gelada o dia todo. Toque no link e garanta a sua!'],
  zh: ['zh-xiaomei', '这款保温杯让咖啡保持十二小时的温度，出门携带很方便。现在下单，今天发货！'],
} as const;

/** Each boundary's error: a word's start and end against the truth. */
async function boundaryErrors(language: string, voiceId: string, line: string, gaps: number[]): Promise<number[]> {
  const { pcm, truth } = await knownClip(line, voiceId, gaps);
  const aligned = alignWords(spokenWords(line), pcm);
  expect(aligned.map((w) => w.word)).toEqual(truth.map((w) => w.word));
  // In order, never overlapping.
  for (const [i, w] of aligned.entries()) {
    expect(w.end).toBeGreaterThan(w.start);
    if (i > 0) expect(w.start).toBeGreaterThanOrEqual((aligned[i - 1] as WordTiming).end);
  }
  const off = aligned.flatMap((w, i) => [
    Math.abs(w.start - (truth[i] as WordTiming).start),
    Math.abs(w.end - (truth[i] as WordTiming).end),
  ]);
  const mean = off.reduce((x, y) => x + y, 0) / off.length;
  console.log(
    `${language}, gaps ${gaps.join('/')} s: ${truth.length} words, boundary error mean ${(mean * 1000).toFixed(0)} ms, max ${(Math.max(...off) * 1000).toFixed(0)} ms`,
  );
  return off;
}

describe('aligning known text to speech', () => {
  for (const [language, [voiceId, line]] of Object.entries(CLIPS)) {
    it(`finds every word boundary of a ${language} clip within 80 ms`, async () => {
      expect(Math.max(...(await boundaryErrors(language, voiceId, line, SHORT_GAPS)))).toBeLessThanOrEqual(0.08);
    });
    it(`finds the boundaries of a ${language} clip whose words partly touch within 120 ms`, async () => {
      expect(Math.max(...(await boundaryErrors(language, voiceId, line, TOUCHING)))).toBeLessThanOrEqual(0.12);
    });
  }

  it('finds the pauses of a clip as the edges of its stretches', async () => {
    const { pcm, truth } = await knownClip('Hello there. Goodbye now.', 'en-noah');
    const stretches = voicedStretches(pcm);
    // Two sentences, each of two words with a short gap or none: at most four stretches, and the sentences apart.
    expect(stretches[0]?.start).toBeCloseTo(truth[0]?.start ?? 0, 1);
    expect(stretches.at(-1)?.end).toBeCloseTo(truth.at(-1)?.end ?? 0, 1);
    expect(stretches.some((s) => Math.abs(s.end - (truth[1]?.end ?? 0)) < 0.03)).toBe(true);
  });

  it('spreads the words by weight over a sound too short to place them one by one', () => {
    // 40 words in one 0.5 s burst: fewer than 30 ms a word, so no frame-by-frame placing fits.
    const samples = new Int16Array(24_000);
    for (let i = 6_000; i < 18_000; i++) samples[i] = Math.round(8_000 * Math.sin(i / 5));
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    const spread = alignWords(words, { sampleRate: 24_000, channels: 1, samples });
    expect(spread.map((w) => w.word)).toEqual(words);
    for (const [i, w] of spread.entries()) {
      expect(Number.isFinite(w.start) && Number.isFinite(w.end)).toBe(true);
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      if (i > 0) expect(w.start).toBeGreaterThanOrEqual(spread[i - 1]?.end ?? 0);
    }
    expect(spread[0]?.start).toBeCloseTo(0.25, 1);
    expect(spread.at(-1)?.end).toBeCloseTo(0.75, 1);
  });

  it('spreads the words over audio that is all silence, and gives an empty line no words', () => {
    const silence = { sampleRate: 24_000, channels: 1, samples: new Int16Array(24_000) };
    const spread = alignWords(['one', 'two'], silence);
    expect(spread.map((w) => w.word)).toEqual(['one', 'two']);
    expect(spread[0]?.start).toBe(0);
    expect(spread[1]?.end).toBe(1);
    expect(alignWords([], silence)).toEqual([]);
  });
});
