import { join } from 'node:path';
import { LOCAL_VOICE_SOUND, locateTools, probe, SEGMENT_PAUSE, speakScript, splitScript, spokenWords, voiceSample } from '@reelsmith/media';
import { describe, expect, it } from 'vitest';
import { openAiVoice } from '../../src/providers/openai/speech.js';
import { providerVoice } from '../../src/providers/openai/voices.js';
import { voice } from '../../src/providers/registry.js';
import { api, error, type FakeOpenAi, failure, fakeOpenAi, type Handler, stall, tone } from './fakeOpenAi.js';
import { scratchDirs } from './scratch.js';

const tools = locateTools();
const tts = (fake: FakeOpenAi, extra: object = {}) => ({ ...api(fake, { model: 'tts-test' }), voices: {}, ...extra });

/** Each line lasts 0.4 s a word, so every segment of a track has a different, known length. */
const secondsOf = (text: string) => Math.round(text.split(/\s+/).length * 0.4 * 1000) / 1000;
const speaking =
  (format: 'wav' | 'mp3' = 'wav'): Handler =>
  (req, res) => {
    if (req.path !== '/v1/audio/speech') return error(res, 404, 'no route');
    res
      .writeHead(200, { 'content-type': format === 'wav' ? 'audio/wav' : 'audio/mpeg' })
      .end(tone(secondsOf(String(req.body.input)), format));
  };

describe('OpenAI-compatible speech', () => {
  const fake = fakeOpenAi();
  const outDir = scratchDirs('reelsmith-tts-');

  it('speaks a script line by line, the voice track timed by the real audio', async () => {
    fake.answer(speaking());
    const script = splitScript('Meet the Aqua Bottle.\nIt keeps your drinks cold for a whole day.\nTap the link.');
    const track = await speakScript(script, {
      voiceId: 'en-ava',
      outDir: outDir(),
      tools,
      synthesize: openAiVoice(tts(fake)).synthesizer(),
    });

    const asked = fake.requests.slice(-3);
    expect(asked.map((r) => r.body)).toEqual(
      script.map((s) => ({ model: 'tts-test', voice: 'nova', input: s.segText, response_format: 'wav' })),
    );
    expect(asked[0]?.headers.authorization).toBe('Bearer sk-test');

    let at = 0;
    for (const [i, segment] of track.segments.entries()) {
      const said = secondsOf(script[i]?.segText ?? '');
      expect(segment.start).toBeCloseTo(at, 2);
      expect(segment.end - segment.start).toBeCloseTo(said, 2);
      expect(segment.seconds).toBeCloseTo(said + SEGMENT_PAUSE, 2);
      expect((await probe(tools, segment.file)).duration).toBeCloseTo(said, 2);
      at += segment.seconds;
    }
    expect(track.seconds).toBeCloseTo(at, 2);
    expect((await probe(tools, track.file)).duration).toBeCloseTo(at, 2);
    // The API tells no word timings: each line is aligned to its audio, a word a timing, inside the line's sound.
    for (const segment of track.segments) {
      expect(segment.words.map((w) => w.word)).toEqual(spokenWords(segment.segText));
      expect(segment.words[0]?.start).toBeCloseTo(segment.start, 1);
      expect(segment.words.at(-1)?.end).toBeCloseTo(segment.end, 1);
    }
  });

  it('reads MP3 from a server that ignores the asked format', async () => {
    fake.answer(speaking('mp3'));
    const track = await speakScript(splitScript('One two three four five.'), {
      voiceId: 'pt-lucas',
      outDir: outDir(),
      tools,
      synthesize: openAiVoice(tts(fake)).synthesizer(),
    });
    // MP3 frames pad the end a little; the track still follows the audio, not an estimate.
    expect(track.segments[0]?.end).toBeGreaterThan(1.9);
    expect(track.segments[0]?.end).toBeLessThan(2.2);
    expect(fake.requests.at(-1)?.body.voice).toBe('onyx');
  });

  it('gives the catalogue a sample in the provider voice', async () => {
    fake.answer(speaking());
    const sample = await voiceSample('zh-yating', join(outDir(), 'sample.wav'), tools, openAiVoice(tts(fake)).synthesizer());
    expect(fake.requests.at(-1)?.body).toMatchObject({ voice: 'shimmer', input: expect.stringContaining('雅婷') });
    expect(sample.seconds).toBeGreaterThan(0);
  });

  it.each([
    [401, 'Incorrect API key provided'],
    [429, 'Rate limit reached for requests'],
    [500, 'The server had an error'],
  ])('fails the voice with the error table message on %i', async (status, message) => {
    fake.answer((_, res) => error(res, status, message));
    const say = openAiVoice(tts(fake)).synthesizer();
    const { key, cause } = await failure(say('Hello.', { voiceId: 'en-noah', outFile: join(outDir(), 'a.wav'), tools }));
    expect(key).toBe('voiceFailed');
    expect(cause).toContain(`answered ${status}: ${message}`);
  });

  it.each([
    ['no answer in time', stall, 'within 0.3 s'],
    ['an empty body', ((_, res) => res.writeHead(200, { 'content-type': 'audio/wav' }).end()) as Handler, 'no audio'],
    [
      'bytes that are not audio',
      ((_, res) => res.writeHead(200, { 'content-type': 'audio/wav' }).end('<html>Gateway</html>')) as Handler,
      'cannot read',
    ],
  ])('fails the voice on %s', async (_, handler, expected) => {
    fake.answer(handler);
    const say = openAiVoice(tts(fake, { timeoutMs: 300 })).synthesizer();
    const { key, cause } = await failure(say('Hello.', { voiceId: 'en-noah', outFile: join(outDir(), 'a.wav'), tools }));
    expect(key).toBe('voiceFailed');
    expect(cause).toContain(expected);
  });

  it('stops with the task', async () => {
    fake.answer(stall);
    const stop = new AbortController();
    const saying = openAiVoice(tts(fake)).synthesizer(stop.signal)('Hello.', {
      voiceId: 'en-ava',
      outFile: join(outDir(), 'a.wav'),
      tools,
    });
    stop.abort(new Error('cancelled'));
    await expect(saying).rejects.toThrow('cancelled');
  });
});

describe('voice mapping and registry', () => {
  it('maps catalogue voices to OpenAI voices by gender and rank, overridden by id, then gender', () => {
    expect(['en-ava', 'en-grace', 'zh-haoran', 'pt-rafael'].map((id) => providerVoice(id, {}))).toEqual([
      'nova',
      'shimmer',
      'onyx',
      'echo',
    ]);
    const overrides = { 'en-ava': 'af_bella', male: 'am_adam' };
    expect(['en-ava', 'en-grace', 'zh-haoran'].map((id) => providerVoice(id, overrides))).toEqual(['af_bella', 'shimmer', 'am_adam']);
    expect(() => providerVoice('xx-nobody', {})).toThrow(RangeError);
  });

  it('names each engine apart, so cached samples of one are never served for the other', () => {
    const remote = {
      vendor: 'openai' as const,
      baseUrl: 'http://127.0.0.1:1/v1',
      apiKey: undefined,
      model: 'tts-1',
      timeoutMs: 1000,
      voices: {},
    };
    expect(voice({ tts: undefined }).engine).toBe(`local-${LOCAL_VOICE_SOUND}`);
    expect(voice({ tts: remote }).engine).toMatch(/^tts-[0-9a-f]{12}$/);
    expect(voice({ tts: remote }).engine).toBe(voice({ tts: { ...remote } }).engine);
    expect(voice({ tts: { ...remote, voices: { female: 'af_bella' } } }).engine).not.toBe(voice({ tts: remote }).engine);
  });
});
