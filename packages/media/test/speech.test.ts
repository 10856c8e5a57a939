import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// From the modules themselves, so these tests do not depend on the rest of the package loading.
import { probe } from '../src/probe.js';
import { splitScript } from '../src/script/split.js';
import { writeScripts } from '../src/script/writer.js';
import { espeakWav } from '../src/speech/espeak.js';
import { fitVoice, MAX_PAUSE, MAX_SILENCE, MAX_SPEED_UP, VOICE_END } from '../src/speech/fit.js';
import { polishEspeak } from '../src/speech/polish.js';
import { voiceSample } from '../src/speech/sample.js';
import { type Synthesizer, synthesize } from '../src/speech/synthesize.js';
import { speakScript } from '../src/speech/track.js';
import { defaultVoice, localVoice, VOICES } from '../src/speech/voices.js';
import { readWav } from '../src/speech/wav.js';
import { spokenWords } from '../src/speech/words.js';
import { locateTools } from '../src/tools.js';

const tools = locateTools();
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-speech-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the voice catalogue', () => {
  it('has a recommended male and female voice in every language, with unique ids', () => {
    for (const language of ['en', 'zh', 'pt'] as const) {
      const voices = VOICES.filter((v) => v.language === language);
      expect(voices.length).toBeGreaterThanOrEqual(2);
      expect(new Set(voices.filter((v) => v.recommended).map((v) => v.gender))).toEqual(new Set(['male', 'female']));
      expect(defaultVoice(language).language).toBe(language);
    }
    expect(new Set(VOICES.map((v) => v.voiceId)).size).toBe(VOICES.length);
  });
});

describe('speech synthesis, offline', () => {
  const lines = {
    en: ['en-ava', 'Keeps your coffee hot for twelve hours.'],
    zh: ['zh-haoran', '这款保温杯让咖啡保持十二小时的温度。'],
    pt: ['pt-ana', 'Mantém seu café quente por doze horas.'],
  } as const;
  for (const [language, [voiceId, text]] of Object.entries(lines)) {
    it(`speaks ${language} into a WAV ffprobe reads, with its real duration`, async () => {
      const outFile = join(dir, `${voiceId}.wav`);
      const speech = await synthesize(text, { voiceId, language: language as 'en', outFile });
      expect(existsSync(outFile)).toBe(true);
      const probed = await probe(tools, outFile);
      expect(probed.streams.map((s) => s.type)).toEqual(['audio']);
      // Counted from the samples; ffprobe rounds to the microsecond.
      expect(Math.abs(speech.seconds - probed.duration)).toBeLessThan(1e-6);
      // A natural read of these lines is about 2–4 s; silence or a runaway would be far outside.
      expect(speech.seconds).toBeGreaterThan(1.5);
      expect(speech.seconds).toBeLessThan(6);
      // One timing a word, in order, inside the file: aligned to eSpeak's own audio.
      expect(speech.words?.map((w) => w.word)).toEqual(spokenWords(text));
      let last = 0;
      for (const w of speech.words ?? []) {
        expect(w.start).toBeGreaterThanOrEqual(last);
        expect(w.end).toBeGreaterThan(w.start);
        last = w.end;
      }
      expect(last).toBeLessThanOrEqual(speech.seconds + 0.001);
      // The first word starts when the sound does, not at the file's leading silence's start.
      expect(speech.words?.[0]?.start).toBeLessThan(0.3);
    });
  }

  it('says the same line the same way every time, so a preview and its export sound and are timed alike', async () => {
    const take = async (voiceId: string, n: number) =>
      readFile((await synthesize('Conheça a camiseta básica.', { voiceId, outFile: join(dir, `take-${voiceId}-${n}.wav`) })).file);
    const takes = await Promise.all([1, 2, 3].map((n) => take('pt-rafael', n)));
    expect(takes[1]).toEqual(takes[0]);
    expect(takes[2]).toEqual(takes[0]);
    // A voice variant with a random jitter (pt-ana, "+f3"), said in two different seconds: eSpeak seeds the jitter
    // from its clock, which is held still.
    const first = await take('pt-ana', 1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await take('pt-ana', 2)).toEqual(first);
  });

  it('refuses an unknown voice, a voice of another language and empty text', async () => {
    const outFile = join(dir, 'refused.wav');
    await expect(synthesize('Hello', { voiceId: 'en-nobody', outFile })).rejects.toThrow(/unknown voice/);
    await expect(synthesize('Hello', { voiceId: 'zh-xiaomei', language: 'en', outFile })).rejects.toThrow(/speaks zh/);
    await expect(synthesize('  ', { voiceId: 'en-ava', outFile })).rejects.toThrow(/nothing to say/);
  });

  it('speaks a script segment by segment into one track whose timing adds up', async () => {
    const segments = splitScript('Meet the HydroPeak bottle.\nIt keeps drinks cold all day.\nGet yours today.');
    const track = await speakScript(segments, { voiceId: 'en-noah', outDir: dir, pause: 0.25 });
    expect(track.segments.map((s) => s.segId)).toEqual([1, 2, 3]);
    let expectedStart = 0;
    for (const segment of track.segments) {
      expect(segment.start).toBeCloseTo(expectedStart, 2);
      const own = await probe(tools, segment.file);
      expect(segment.end - segment.start).toBeCloseTo(own.duration, 2);
      expect(segment.seconds).toBeCloseTo(own.duration + 0.25, 2);
      expectedStart = segment.start + segment.seconds;
    }
    expect(track.seconds).toBeCloseTo(expectedStart, 2);
    expect((await probe(tools, track.file)).duration).toBeCloseTo(track.seconds, 2);
    // Each segment's words on the track's clock, inside the segment.
    for (const segment of track.segments) {
      expect(segment.words.map((w) => w.word)).toEqual(spokenWords(segment.segText));
      expect(segment.words[0]?.start).toBeGreaterThanOrEqual(segment.start);
      expect(segment.words.at(-1)?.end).toBeLessThanOrEqual(segment.end + 0.001);
    }
  });

  it('keeps lines spoken once: the same words in the same voice and engine are read back, anything else is spoken', async () => {
    const said: string[] = [];
    const counting: Synthesizer = (text, options) => {
      said.push(`${options.voiceId}: ${text}`);
      return synthesize(text, options);
    };
    const cache = { dir: join(dir, 'line-cache'), engine: 'local-test' };
    const speak = (script: string, voiceId: string, engine = cache.engine) => {
      const outDir = mkdtempSync(join(dir, 'lines-'));
      return speakScript(splitScript(script), { voiceId, outDir, synthesize: counting, cache: { ...cache, engine } });
    };
    const first = await speak('Meet the bottle.\nGet yours today.', 'en-ava');
    expect(said).toEqual(['en-ava: Meet the bottle.', 'en-ava: Get yours today.']);
    // The export of the same script: nothing is spoken again, and the track is the same sound with the same timing.
    const again = await speak('Meet the bottle.\nGet yours today.', 'en-ava');
    expect(said).toHaveLength(2);
    expect(await readFile(again.file)).toEqual(await readFile(first.file));
    expect(again.segments.map((s) => [s.start, s.end, s.words])).toEqual(first.segments.map((s) => [s.start, s.end, s.words]));
    // An edited line, another voice and another engine are spoken; the unchanged line is not.
    await speak('Meet the new bottle.\nGet yours today.', 'en-ava');
    expect(said.slice(2)).toEqual(['en-ava: Meet the new bottle.']);
    await speak('Get yours today.', 'en-noah');
    await speak('Get yours today.', 'en-ava', 'vendor-x');
    expect(said.slice(3)).toEqual(['en-noah: Get yours today.', 'en-ava: Get yours today.']);
    // A line whose words file was swept is spoken again.
    for (const name of readdirSync(cache.dir).filter((n) => n.endsWith('.words.json'))) rmSync(join(cache.dir, name));
    await speak('Meet the bottle.', 'en-ava');
    expect(said.at(-1)).toBe('en-ava: Meet the bottle.');
  });

  it('makes a short sample for the catalogue', async () => {
    const sample = await voiceSample('pt-rafael', join(dir, 'sample.wav'));
    expect(sample.seconds).toBeGreaterThan(2);
  });
});

describe('the eSpeak engine', () => {
  it('says each line on its own: nothing of the lines before it, in other voices, carries over', async () => {
    const { espeak } = localVoice(defaultVoice('en').voiceId);
    const { espeak: other } = localVoice(defaultVoice('pt').voiceId);
    const first = await espeakWav('Shop now.', espeak);
    const between = await espeakWav('Compre agora, com frete grátis.', { ...other, speed: other.speed + 40 });
    expect(Buffer.from(await espeakWav('Shop now.', espeak)).equals(Buffer.from(first))).toBe(true);
    expect(between.length).not.toBe(first.length);
  });

  it('says lines asked for at once each on an instance of its own, as each would be said alone', async () => {
    const { espeak } = localVoice(defaultVoice('en').voiceId);
    const lines = ['Shop now.', 'Free shipping today.', 'Made to last, made for you.'];
    const alone: Buffer[] = [];
    for (const line of lines) alone.push(Buffer.from(await espeakWav(line, espeak)));
    const together = await Promise.all(lines.map(async (line) => Buffer.from(await espeakWav(line, espeak))));
    expect(together.map((wav, i) => wav.equals(alone[i] as Buffer))).toEqual([true, true, true]);
  });
});

describe("eSpeak's sound", () => {
  it('comes out at 48 kHz, the formant buzz at 3-5 kHz turned down, the rumble gone, never clipping', async () => {
    // A voice whose raw peak comes near full scale, and whose buzz is strong (a female variant).
    const { espeak } = localVoice('zh-xiaomei');
    const raw = await espeakWav('这款保温杯让咖啡保持十二小时的温度。现在下单，今天就发货！', espeak);
    const rawFile = join(dir, 'raw.wav');
    const polished = join(dir, 'polished.wav');
    await writeFile(rawFile, raw);
    await polishEspeak(raw, polished, tools);
    const pcm = readWav(await readFile(polished));
    expect(pcm.sampleRate).toBe(48_000);
    expect(pcm.channels).toBe(1);
    const peak = pcm.samples.reduce((max, x) => Math.max(max, Math.abs(x)), 0) / 32767;
    expect(peak).toBeLessThanOrEqual(10 ** (-1 / 20) + 1e-4);
    expect(peak).toBeGreaterThan(0.5);
    // The same length: the chain changes the sound, not the timing the words were aligned on.
    expect((await probe(tools, polished)).duration).toBeCloseTo((await probe(tools, rawFile)).duration, 2);
    const bandShare = async (file: string, band: [number, number]) => (await rmsDb(file, band)) - (await rmsDb(file));
    expect(await bandShare(polished, [3000, 5000])).toBeLessThan((await bandShare(rawFile, [3000, 5000])) - 3);
    expect(await bandShare(polished, [20, 70])).toBeLessThan((await bandShare(rawFile, [20, 70])) - 4);
  });
});

/** The RMS level in dB of a file, or of one band of it, as ffmpeg's volumedetect measures it. */
async function rmsDb(file: string, band?: [number, number]): Promise<number> {
  const filter = band ? `highpass=f=${band[0]},highpass=f=${band[0]},lowpass=f=${band[1]},lowpass=f=${band[1]},` : '';
  const stderr = await new Promise<string>((resolve, reject) =>
    execFile(tools.ffmpeg, ['-hide_banner', '-nostats', '-i', file, '-af', `${filter}volumedetect`, '-f', 'null', '-'], (error, _, err) =>
      error ? reject(error) : resolve(err),
    ),
  );
  const mean = /mean_volume: (-?[\d.]+) dB/.exec(stderr)?.[1];
  if (mean === undefined) throw new Error(`no level in ${stderr}`);
  return Number(mean);
}

describe('the voice fits the video', () => {
  const SCRIPT = [
    'Meet the Aurora bottle.',
    'Double walls keep drinks cold for a whole day.',
    'The lid seals tight, so nothing leaks in your bag.',
    'It fits every cup holder in the car.',
    'Tap the link and get yours today.',
  ].join('\n');
  let track: Awaited<ReturnType<typeof speakScript>>;
  const end = (t: { segments: { end: number }[] }) => t.segments.at(-1)?.end ?? 0;
  const speak = async (name: string) => {
    const out = join(dir, name);
    mkdirSync(out, { recursive: true });
    return speakScript(splitScript(SCRIPT), { voiceId: 'en-ava', outDir: out, tools });
  };

  beforeAll(async () => {
    track = await speak('fits');
  });

  it('leaves a voice that ends in time as it is', async () => {
    const fitted = await fitVoice(track, end(track) + VOICE_END.latest + 0.5, { outDir: join(dir, 'fits'), tools });
    expect(fitted).toMatchObject({ tempo: 1, dropped: [], file: track.file });
  });

  it('gives a voice too short for its video longer breaths, never more than a second without speech', async () => {
    const length = Math.ceil(end(track) + 4);
    const fitted = await fitVoice(track, length, { outDir: join(dir, 'fits'), tools });
    expect(fitted).toMatchObject({ tempo: 1, dropped: [] });
    expect(fitted.segments.map((s) => s.segText)).toEqual(track.segments.map((s) => s.segText));
    const gapsOf = (t: typeof track) => t.segments.slice(1).map((s, i) => s.start - (t.segments[i] as { end: number }).end);
    const before = Math.max(...gapsOf(track));
    for (const gap of gapsOf(fitted)) {
      expect(gap).toBeGreaterThan(before + 0.05);
      expect(gap).toBeLessThanOrEqual(MAX_PAUSE + 0.002);
    }
    // Between any two words, the voice is silent no more than a second; the words move with their sentences.
    const words = fitted.segments.flatMap((s) => s.words);
    words.slice(1).forEach((word, i) => {
      expect(word.start - (words[i] as { end: number }).end).toBeLessThanOrEqual(MAX_SILENCE + 0.002);
    });
    const [first, last] = [track.segments.at(-1), fitted.segments.at(-1)];
    expect(last?.words[0]?.start).toBeCloseTo((last?.start ?? 0) + (first?.words[0]?.start ?? 0) - (first?.start ?? 0), 2);
    expect(end(fitted)).toBeGreaterThan(end(track) + 4 * 0.3);
    expect(Math.abs((await probe(tools, fitted.file)).duration - fitted.seconds)).toBeLessThan(0.08);
  });

  it('speaks a voice a little too long faster, up to 12 %, to end 0.3–1.2 s before the video does, every sentence kept', async () => {
    // A video about 6 % shorter than the voice needs.
    const length = end(track) / 1.06 + VOICE_END.latest;
    const fitted = await fitVoice(track, length, { outDir: join(dir, 'fits'), tools });
    expect(fitted.dropped).toEqual([]);
    expect(fitted.tempo).toBeGreaterThan(1);
    expect(fitted.tempo).toBeLessThanOrEqual(MAX_SPEED_UP);
    expect(end(fitted)).toBeLessThanOrEqual(length - VOICE_END.latest);
    expect(end(fitted)).toBeGreaterThanOrEqual(length - VOICE_END.earliest);
    // The file is as long as the timings say: the call to action is in it, whole.
    expect(Math.abs((await probe(tools, fitted.file)).duration - fitted.seconds)).toBeLessThan(0.08);
    expect(fitted.segments.map((s) => s.segText)).toEqual(track.segments.map((s) => s.segText));
  });

  it('drops the sentences before the call to action, last first, when even 12 % faster runs over; never the hook or the call to action', async () => {
    const length = end(track) / 1.6;
    const fitted = await fitVoice(track, length, { outDir: join(dir, 'fits'), tools });
    expect(fitted.dropped.length).toBeGreaterThan(0);
    const said = fitted.segments.map((s) => s.segText);
    expect(said[0]).toBe('Meet the Aurora bottle.');
    expect(said.at(-1)).toBe('Tap the link and get yours today.');
    // The dropped ones are the last before the call to action: what is kept is the script's beginning.
    expect(said.slice(0, -1)).toEqual(track.segments.slice(0, said.length - 1).map((s) => s.segText));
    expect(end(fitted)).toBeLessThanOrEqual(length - VOICE_END.latest);
    expect(Math.abs((await probe(tools, fitted.file)).duration - fitted.seconds)).toBeLessThan(0.08);
  });
});

describe('the local writer’s scripts fit their slot, spoken', () => {
  const PAGES = {
    en: {
      productName: 'Aurora Bottle - 1L',
      productDescription:
        'Double walls keep drinks cold for 24 hours and hot for 12. The lid seals tight, so nothing leaks in your bag. It fits every cup holder in the car. The powder coat is easy to grip. Dishwasher safe. BPA free. Comes in six colours.',
    },
    zh: {
      productName: '极光保温杯 1升',
      productDescription:
        '双层真空，保冷24小时，保温12小时。杯盖密封，放进包里也不漏。适合大多数车载杯架。粉末涂层表面防滑好握。可以放进洗碗机。六种颜色可选。',
    },
    pt: {
      productName: 'Garrafa Aurora 1L',
      productDescription:
        'Parede dupla mantém bebidas geladas por 24 horas e quentes por 12. A tampa veda bem e nada vaza na bolsa. Cabe na maioria dos porta-copos do carro. O acabamento é fácil de segurar. Pode ir na lava-louças. Seis cores à escolha.',
    },
  } as const;
  const offer = { price: '24.90', currency: 'USD' };

  for (const language of ['en', 'zh', 'pt'] as const) {
    it(`${language}: the longest and the shortest script end in time at 15, 30 and 45 s, the call to action whole`, async () => {
      for (const videoLength of [15, 30, 45] as const) {
        const longest = writeScripts({ ...PAGES[language], productBrand: 'Aurora', offer, language, videoLength, count: 1 });
        const shortest = writeScripts({
          productName: PAGES[language].productName,
          productDescription: '',
          language,
          videoLength,
          count: 1,
        });
        for (const [kind, [script]] of [
          ['longest', longest],
          ['shortest', shortest],
        ] as const) {
          const out = join(dir, `slot-${language}-${videoLength}-${kind}`);
          mkdirSync(out, { recursive: true });
          const spoken = await speakScript(script?.segments ?? [], { voiceId: defaultVoice(language).voiceId, outDir: out, tools });
          const fitted = await fitVoice(spoken, videoLength, { outDir: out, tools });
          const name = `${language} ${videoLength} s ${kind}`;
          // Ends in time, with the call to action whole: the last sentence is the script's last.
          expect(fitted.segments.at(-1)?.end, name).toBeLessThanOrEqual(videoLength - VOICE_END.latest);
          expect(fitted.segments.at(-1)?.segText, name).toBe(script?.segments.at(-1)?.segText);
          // The voice never falls silent for more than a second between its words.
          const words = fitted.segments.flatMap((s) => s.words);
          words.slice(1).forEach((word, i) => {
            expect(word.start - (words[i] as { end: number }).end, name).toBeLessThanOrEqual(MAX_SILENCE + 0.002);
          });
          if (kind === 'longest') expect(fitted.segments.at(-1)?.end, name).toBeGreaterThanOrEqual(videoLength * 0.7);
        }
      }
    }, 120_000);
  }
});
