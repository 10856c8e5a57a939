// The ElevenLabs and Azure voices against local fakes that speak each vendor's protocol: ElevenLabs' text to speech
// with timestamps (xi-api-key, base64 PCM and character timings, `{detail: {status, message}}` errors) and Azure's REST
// text to speech (Ocp-Apim-Subscription-Key, SSML in, RIFF WAV out). Rate limits with Retry-After, stalls and
// malformed answers end in voiceFailed.
import { join } from 'node:path';
import { locateTools, probe, speakScript, splitScript, spokenWords } from '@reelsmith/media';
import { beforeEach, describe, expect, it } from 'vitest';
import { azureVoice, azureVoiceOf, ssmlOf } from '../../src/providers/azure/speech.js';
import { elevenLabsVoice, elevenLabsVoiceOf, wordsFromCharacters } from '../../src/providers/elevenlabs/speech.js';
import { voice } from '../../src/providers/registry.js';
import { loadSettings } from '../../src/settings.js';
import { failure, fakeOpenAi, type Handler, json, stall } from './fakeOpenAi.js';
import { fakeVendor, type Handler as VendorHandler, json as vendorJson } from './fakeVendor.js';
import { scratchDirs } from './scratch.js';

const tools = locateTools();
const RATE = 24_000;
const outDir = scratchDirs('reelsmith-vendor-tts-');

/**
 * Speech-like sound with known word boundaries: a 220 Hz tone burst for each word (0.25 s plus 0.06 s a letter), with
 * 5 ms fades, separated by `gap` seconds of silence, after a 0.2 s lead. Answers the 16-bit samples and the truth.
 */
function bursts(words: string[], gap = 0.25) {
  const spans = [];
  let at = 0.2;
  for (const word of words) {
    const length = 0.25 + 0.06 * word.replace(/[^\p{L}]/gu, '').length;
    spans.push({ word, start: at, end: at + length });
    at += length + gap;
  }
  const samples = new Int16Array(Math.round((at + 0.2) * RATE));
  for (const { start, end } of spans)
    for (let i = Math.round(start * RATE); i < Math.round(end * RATE); i++) {
      const t = i / RATE;
      const fade = Math.min(1, (t - start) / 0.005, (end - t) / 0.005);
      samples[i] = Math.round(12_000 * fade * Math.sin(2 * Math.PI * 220 * t));
    }
  return { samples, spans };
}

function wav(samples: Int16Array): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.byteLength, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.byteLength, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)]);
}

/** ElevenLabs' error envelope. */
const elevenError =
  (status: number, code: string, message: string, headers: Record<string, string> = {}): Handler =>
  (_, res) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ detail: { status: code, message } }));

describe('ElevenLabs text to speech with timestamps', () => {
  const fake = fakeOpenAi();
  const api = (extra: object = {}) => ({
    vendor: 'elevenlabs' as const,
    baseUrl: fake.baseUrl.replace(/\/v1$/, ''),
    apiKey: 'xi-test',
    model: 'eleven_multilingual_v2',
    timeoutMs: 5_000,
    voices: {},
    ...extra,
  });
  /** Answers like ElevenLabs: the line as tone bursts, base64 PCM, each character timed within its word's burst. */
  const speaking =
    (spell: (text: string) => string = (text) => text): Handler =>
    (req, res) => {
      if (!/^\/v1\/text-to-speech\/[^/]+\/with-timestamps\?output_format=pcm_24000$/.test(req.path))
        return json(res, 404, { detail: 'Not Found' });
      if (req.headers['xi-api-key'] !== 'xi-test') return elevenError(401, 'invalid_api_key', 'Invalid API key')(req, res);
      const text = spell(String(req.body.text));
      const { samples, spans } = bursts(spokenWords(text));
      const characters: string[] = [];
      const starts: number[] = [];
      const ends: number[] = [];
      let cursor = 0;
      for (const { word, start, end } of spans) {
        const at = text.indexOf(word, cursor);
        // The spaces before a word: timed at its start, as ElevenLabs times the spaces between words.
        for (const c of text.slice(cursor, at)) {
          characters.push(c);
          starts.push(start);
          ends.push(start);
        }
        [...word].forEach((c, i) => {
          characters.push(c);
          starts.push(start + ((end - start) * i) / word.length);
          ends.push(start + ((end - start) * (i + 1)) / word.length);
        });
        cursor = at + word.length;
      }
      json(res, 200, {
        audio_base64: Buffer.from(samples.buffer).toString('base64'),
        alignment: { characters, character_start_times_seconds: starts, character_end_times_seconds: ends },
        normalized_alignment: { characters, character_start_times_seconds: starts, character_end_times_seconds: ends },
      });
    };
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it('speaks each line with its key, model and voice, the words timed by the characters', async () => {
    fake.answer(speaking());
    const script = splitScript('Meet the Aqua Bottle.\nIt keeps drinks cold, all day!\nTap the link.');
    const track = await speakScript(script, {
      voiceId: 'en-ava',
      outDir: outDir(),
      tools,
      synthesize: elevenLabsVoice(api()).synthesizer(),
    });
    expect(fake.requests.map((r) => [r.method, r.path, r.headers['xi-api-key']])).toEqual(
      script.map(() => ['POST', '/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM/with-timestamps?output_format=pcm_24000', 'xi-test']),
    );
    expect(fake.requests.map((r) => r.body)).toEqual(script.map((s) => ({ text: s.segText, model_id: 'eleven_multilingual_v2' })));
    for (const [i, segment] of track.segments.entries()) {
      const { samples, spans } = bursts(spokenWords(script[i]?.segText ?? ''));
      expect(segment.end - segment.start).toBeCloseTo(samples.length / RATE, 2);
      // The vendor's own timings, exactly: from the word's first character to its last letter (not its full stop).
      expect(segment.words).toEqual(
        spans.map((s) => ({
          word: s.word,
          start: Math.round((segment.start + s.start) * 1000) / 1000,
          end: expect.closeTo(segment.start + s.start + ((s.end - s.start) * s.word.replace(/\W+$/, '').length) / s.word.length, 2),
        })),
      );
    }
  });

  it('aligns the audio when the characters do not spell the line (the vendor normalised it)', async () => {
    fake.answer(speaking((text) => text.replace('12', 'twelve')));
    const say = elevenLabsVoice(api()).synthesizer();
    const speech = await say('Cold for 12 hours.', { voiceId: 'en-noah', outFile: join(outDir(), 'a.wav'), tools });
    expect(speech.words?.map((w) => w.word)).toEqual(['Cold', 'for', '12', 'hours.']);
    // Four bursts, four stretches: each word found where its burst is.
    const { spans } = bursts(['Cold', 'for', 'twelve', 'hours.']);
    speech.words?.forEach((w, i) => {
      expect(Math.abs(w.start - (spans[i]?.start ?? 0))).toBeLessThan(0.03);
      expect(Math.abs(w.end - (spans[i]?.end ?? 0))).toBeLessThan(0.03);
    });
    expect(fake.requests.at(-1)?.path).toContain('/pNInz6obpgDQGcFmaJgB/');
  });

  it('maps catalogue voices to premade voices by gender and rank, TTS_VOICES first', () => {
    expect(['en-ava', 'en-grace', 'zh-haoran', 'pt-rafael'].map((id) => elevenLabsVoiceOf(id, {}))).toEqual([
      '21m00Tcm4TlvDq8ikWAM',
      'EXAVITQu4vr4xnSDxMaL',
      'pNInz6obpgDQGcFmaJgB',
      'nPczCjzI2devNBz1zQrb',
    ]);
    expect(elevenLabsVoiceOf('zh-xiaomei', { 'zh-xiaomei': 'myClone', female: 'other' })).toBe('myClone');
  });

  it('turns character timings into word timings, Chinese words too', () => {
    const characters = [...'你好，冬季外套'];
    const timed = {
      characters,
      character_start_times_seconds: characters.map((_, i) => i * 0.2),
      character_end_times_seconds: characters.map((_, i) => i * 0.2 + 0.2),
    };
    expect(wordsFromCharacters('你好，冬季外套', timed)).toEqual([
      { word: '你好，', start: 0, end: 0.4 },
      { word: '冬季', start: 0.6, end: 1 },
      { word: '外套', start: 1, end: 1.4 },
    ]);
    expect(wordsFromCharacters('你好，冬季大衣', timed)).toBeUndefined();
  });

  it('stops with the task, even while it waits to try again', async () => {
    fake.answer(elevenError(429, 'too_many_concurrent_requests', 'Too many concurrent requests', { 'retry-after': '10' }));
    const stop = new AbortController();
    const saying = elevenLabsVoice(api()).synthesizer(stop.signal)('Hello.', {
      voiceId: 'en-ava',
      outFile: join(outDir(), 'a.wav'),
      tools,
    });
    setTimeout(() => stop.abort(new Error('cancelled')), 200);
    await expect(saying).rejects.toThrow('cancelled');
    expect(fake.requests.length).toBe(1);
  });

  it('tries a rate-limited line again after the Retry-After it asks for', async () => {
    let calls = 0;
    const answer = speaking();
    fake.answer((req, res) => {
      calls += 1;
      if (calls === 1)
        return elevenError(429, 'too_many_concurrent_requests', 'Too many concurrent requests', { 'retry-after': '1' })(req, res);
      answer(req, res);
    });
    const began = Date.now();
    const speech = await elevenLabsVoice(api()).synthesizer()('Hello there.', {
      voiceId: 'en-ava',
      outFile: join(outDir(), 'a.wav'),
      tools,
    });
    expect(calls).toBe(2);
    expect(Date.now() - began).toBeGreaterThanOrEqual(950);
    expect(speech.words?.map((w) => w.word)).toEqual(['Hello', 'there.']);
  });

  it.each([
    ['a wrong key', elevenError(401, 'invalid_api_key', 'Invalid API key'), 'answered 401: invalid_api_key: Invalid API key', 1],
    ['a used-up quota', elevenError(400, 'quota_exceeded', 'You have 3 credits remaining'), 'quota_exceeded', 1],
    [
      'a rate limit that lasts',
      elevenError(429, 'too_many_concurrent_requests', 'Too many concurrent requests', { 'retry-after': '0' }),
      'answered 429',
      3,
    ],
    ['a Retry-After too long to wait', elevenError(429, 'system_busy', 'Busy', { 'retry-after': '600' }), 'Retry-After 600 s', 1],
    ['no answer in time', stall, 'within 0.3 s', 1],
    ['an answer that is not JSON', ((_, res) => res.writeHead(200).end('<html>gateway</html>')) as Handler, 'not JSON', 1],
    ['JSON without audio', ((_, res) => json(res, 200, { alignment: null })) as Handler, 'no audio_base64', 1],
    [
      'PCM cut mid-sample',
      ((_, res) => json(res, 200, { audio_base64: Buffer.from([1, 2, 3]).toString('base64') })) as Handler,
      'odd number',
      1,
    ],
  ])('fails the voice on %s', async (_, handler, expected, requests) => {
    fake.answer(handler);
    const say = elevenLabsVoice(api({ timeoutMs: 300 })).synthesizer();
    const { key, cause } = await failure(say('Hello.', { voiceId: 'en-noah', outFile: join(outDir(), 'a.wav'), tools }));
    expect(key).toBe('voiceFailed');
    expect(cause).toContain(expected);
    expect(fake.requests.length).toBe(requests);
  });
});

describe('Azure text to speech (REST)', () => {
  const azure = fakeVendor();
  const api = (extra: object = {}) => ({
    vendor: 'azure' as const,
    baseUrl: azure.base,
    apiKey: 'az-test',
    timeoutMs: 5_000,
    voices: {},
    ...extra,
  });
  beforeEach(() => {
    azure.requests.length = 0;
    azure.handlers.clear();
  });
  /** Answers like Azure: checks the key and output format, speaks the SSML's text as tone bursts in a RIFF WAV. */
  const speaking = (res: Parameters<VendorHandler>[1], body: string, headers: Record<string, string | string[] | undefined>) => {
    if (headers['ocp-apim-subscription-key'] !== 'az-test')
      return vendorJson(res, 401, {
        error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint.' },
      });
    if (headers['x-microsoft-outputformat'] !== 'riff-24khz-16bit-mono-pcm' || headers['content-type'] !== 'application/ssml+xml')
      return res.writeHead(400).end();
    const text =
      /<voice name="[^"]+">(.*)<\/voice>/s.exec(body)?.[1]?.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&') ?? '';
    res.writeHead(200, { 'content-type': 'audio/x-wav' }).end(wav(bursts(spokenWords(text)).samples));
  };

  it('sends SSML in the voice of the catalogue voice, and aligns the words to the audio it answers', async () => {
    azure.handlers.set('POST /cognitiveservices/v1', (req, res) => speaking(res, req.body.toString('utf8'), req.headers));
    const line = 'Rock & roll <today>, get yours now.';
    const speech = await azureVoice(api()).synthesizer()(line, { voiceId: 'pt-beatriz', outFile: join(outDir(), 'a.wav'), tools });
    const sent = azure.requests[0]?.body.toString('utf8');
    expect(sent).toBe(
      '<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="pt-PT"><voice name="pt-PT-RaquelNeural">Rock &amp; roll &lt;today&gt;, get yours now.</voice></speak>',
    );
    const { samples, spans } = bursts(spokenWords(line));
    expect(speech.seconds).toBeCloseTo(samples.length / RATE, 2);
    expect(speech.words?.map((w) => w.word)).toEqual(spokenWords(line));
    // The REST API gives no word boundaries; the aligner finds these to within a frame or two.
    speech.words?.forEach((w, i) => {
      expect(Math.abs(w.start - (spans[i]?.start ?? 0))).toBeLessThan(0.03);
      expect(Math.abs(w.end - (spans[i]?.end ?? 0))).toBeLessThan(0.03);
    });
  });

  it('speaks a script into a voice track, each line its own request', async () => {
    azure.handlers.set('POST /cognitiveservices/v1', (req, res) => speaking(res, req.body.toString('utf8'), req.headers));
    const script = splitScript('这款保温杯很好用。\n现在下单！');
    const track = await speakScript(script, { voiceId: 'zh-haoran', outDir: outDir(), tools, synthesize: azureVoice(api()).synthesizer() });
    expect(azure.requests.map((r) => /name="([^"]+)"/.exec(r.body.toString())?.[1])).toEqual(['zh-CN-YunxiNeural', 'zh-CN-YunxiNeural']);
    expect(track.segments.map((s) => s.words.map((w) => w.word))).toEqual(script.map((s) => spokenWords(s.segText)));
    expect((await probe(tools, track.file)).duration).toBeCloseTo(track.seconds, 2);
  });

  it('maps every catalogue voice to a neural voice of its locale, TTS_VOICES first', () => {
    expect(azureVoiceOf('en-grace', {})).toBe('en-GB-SoniaNeural');
    expect(azureVoiceOf('zh-xiaomei', {})).toBe('zh-CN-XiaoxiaoNeural');
    expect(azureVoiceOf('pt-lucas', { male: 'pt-BR-JulioNeural' })).toBe('pt-BR-JulioNeural');
    expect(ssmlOf('Oi', 'pt-BR-JulioNeural')).toContain('xml:lang="pt-BR"');
  });

  it('tries a rate-limited line again after its Retry-After', async () => {
    let calls = 0;
    azure.handlers.set('POST /cognitiveservices/v1', (req, res) => {
      calls += 1;
      if (calls < 3) return res.writeHead(429, { 'retry-after': '0' }).end();
      speaking(res, req.body.toString('utf8'), req.headers);
    });
    const speech = await azureVoice(api()).synthesizer()('Hello.', { voiceId: 'en-ava', outFile: join(outDir(), 'a.wav'), tools });
    expect(calls).toBe(3);
    expect(speech.words?.map((w) => w.word)).toEqual(['Hello.']);
  });

  it.each([
    ['a wrong key', { apiKey: 'wrong' }, undefined, 'answered 401: Access denied due to invalid subscription key', 1],
    ['SSML it refuses', {}, ((_, res) => res.writeHead(400, 'Bad Request').end()) as VendorHandler, 'answered 400: Bad Request', 1],
    ['a rate limit that lasts', {}, ((_, res) => res.writeHead(429, { 'retry-after': '0' }).end()) as VendorHandler, 'answered 429', 3],
    ['no answer in time', { timeoutMs: 300 }, (() => {}) as VendorHandler, 'within 0.3 s', 1],
    [
      'an answer that is not audio',
      {},
      ((_, res) => res.writeHead(200, { 'content-type': 'audio/x-wav' }).end('<html>proxy</html>')) as VendorHandler,
      'cannot read',
      1,
    ],
    ['an empty answer', {}, ((_, res) => res.writeHead(200).end()) as VendorHandler, 'no audio', 1],
  ] as const)('fails the voice on %s', async (_, extra, handler, expected, requests) => {
    azure.handlers.set('POST /cognitiveservices/v1', handler ?? ((req, res) => speaking(res, req.body.toString('utf8'), req.headers)));
    const { key, cause } = await failure(
      azureVoice(api(extra)).synthesizer()('Hello.', { voiceId: 'en-noah', outFile: join(outDir(), 'a.wav'), tools }),
    );
    expect(key).toBe('voiceFailed');
    expect(cause).toContain(expected);
    expect(azure.requests.length).toBe(requests);
  });
});

describe('the speech API the settings choose', () => {
  it('gives each vendor its adapter, each named apart for the cached samples', () => {
    const openai = voice(loadSettings({ TTS_BASE_URL: 'http://127.0.0.1:8880/v1', TTS_MODEL: 'kokoro' }));
    const eleven = voice(loadSettings({ TTS_PROVIDER: 'elevenlabs', ELEVENLABS_API_KEY: 'k' }));
    const azureOne = voice(loadSettings({ TTS_PROVIDER: 'azure', AZURE_SPEECH_KEY: 'k', AZURE_SPEECH_REGION: 'westeurope' }));
    const azureTwo = voice(loadSettings({ TTS_PROVIDER: 'azure', AZURE_SPEECH_KEY: 'other', AZURE_SPEECH_REGION: 'westeurope' }));
    expect(new Set([openai.engine, eleven.engine, azureOne.engine]).size).toBe(3);
    // The key is not part of the name (nor written into file names); the setup is.
    expect(azureTwo.engine).toBe(azureOne.engine);
  });
});
