// Speech from Azure AI Speech's REST text to speech (POST {region}.tts.speech.microsoft.com/cognitiveservices/v1):
// SSML in, 24 kHz 16-bit mono WAV out, one request a line. The REST API gives no word boundaries (only the Speech
// SDK's WebSocket protocol and batch synthesis do): the line is aligned to its audio (decision "Voices and word
// timings"; providers/voice.ts).
import type { Settings } from '../../settings.js';
import { send } from '../http.js';
import type { Voice } from '../provider.js';
import { remoteVoice, vendorVoice, writeVoiceWav } from '../voice.js';

type AzureTts = Extract<NonNullable<Settings['tts']>, { vendor: 'azure' }>;

/** A neural voice of each catalogue voice's language, accent and gender (Azure's voices are bound to a locale). */
const AZURE_VOICES: Record<string, string> = {
  'en-ava': 'en-US-JennyNeural',
  'en-noah': 'en-US-GuyNeural',
  'en-grace': 'en-GB-SoniaNeural',
  'en-oliver': 'en-GB-RyanNeural',
  'zh-xiaomei': 'zh-CN-XiaoxiaoNeural',
  'zh-haoran': 'zh-CN-YunxiNeural',
  'zh-yating': 'zh-CN-XiaoyiNeural',
  'zh-zhiwei': 'zh-CN-YunjianNeural',
  'pt-ana': 'pt-BR-FranciscaNeural',
  'pt-lucas': 'pt-BR-AntonioNeural',
  'pt-beatriz': 'pt-PT-RaquelNeural',
  'pt-rafael': 'pt-PT-DuarteNeural',
};

export const azureVoiceOf = (voiceId: string, overrides: Record<string, string>): string =>
  vendorVoice(
    voiceId,
    overrides,
    (voice) => AZURE_VOICES[voice.voiceId] ?? (voice.gender === 'female' ? 'en-US-JennyNeural' : 'en-US-GuyNeural'),
  );

/** A 429 (too many requests) or 503 is tried again twice before the line fails. */
const RETRIES = 2;

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] as string);

/** The SSML of one line: the voice's locale is the first two parts of its name (zh-CN-XiaoxiaoNeural). */
export function ssmlOf(text: string, voice: string): string {
  const locale = /^[a-z]{2,3}-[A-Z]{2}/.exec(voice)?.[0] ?? 'en-US';
  return `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="${locale}"><voice name="${escapeXml(voice)}">${escapeXml(text)}</voice></speak>`;
}

/** The Azure voice. A failed line fails the task (decision "No provider fallback"). */
export function azureVoice(api: AzureTts): Voice {
  const endpoint = {
    baseUrl: api.baseUrl,
    headers: {
      'ocp-apim-subscription-key': api.apiKey,
      'x-microsoft-outputformat': 'riff-24khz-16bit-mono-pcm',
      'user-agent': 'reelsmith',
    },
    timeoutMs: api.timeoutMs,
    retries: RETRIES,
  };
  return remoteVoice(['azure', api.baseUrl, api.voices], async (line) => {
    const { bytes } = await send(endpoint, '/cognitiveservices/v1', {
      text: { type: 'application/ssml+xml', body: ssmlOf(line.text, azureVoiceOf(line.voiceId, api.voices)) },
      signal: line.signal,
    });
    await writeVoiceWav(bytes, line);
    return undefined;
  });
}
