import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultVoice, locateTools, probe, speakScript, splitScript, synthesize, VOICES, voiceSample } from '../src/index.js';

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
      expect(speech.seconds).toBe(probed.duration);
      // A natural read of these lines is about 2–4 s; silence or a runaway would be far outside.
      expect(speech.seconds).toBeGreaterThan(1.5);
      expect(speech.seconds).toBeLessThan(6);
    });
  }

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
  });

  it('makes a short sample for the catalogue', async () => {
    const sample = await voiceSample('pt-rafael', join(dir, 'sample.wav'));
    expect(sample.seconds).toBeGreaterThan(2);
  });
});
