// The OpenAI-compatible API that writes the AI scripts and the speech API that reads them aloud (OpenAI-compatible,
// ElevenLabs or Azure); unset, the local writer and voices do.
import { z } from 'zod';
import { baseUrl, commaList, httpUrl, optional, positiveInt, refuse, setting } from './fields.js';

/** The speech APIs a server can read its scripts with. */
export const TTS_VENDORS = ['openai', 'elevenlabs', 'azure'] as const;

/** `key:value` pairs (TTS_VOICES) as a record. */
const pairs = commaList
  .pipe(z.array(z.string().regex(/^[^\s:,]+:[^\s:,]+$/, 'must be a comma-separated list of id:voice')))
  .transform((items) => Object.fromEntries(items.map((item) => item.split(':') as [string, string])));

export const ProvidersEnv = z.object({
  LLM_BASE_URL: setting(
    httpUrl,
    "an OpenAI-compatible chat API that writes the AI scripts: `https://api.openai.com/v1`, Ollama's `http://127.0.0.1:11434/v1`, vLLM's `http://host:8000/v1`",
    'unset: the local script writer',
  ),
  LLM_API_KEY: setting(optional, 'its bearer key (Ollama and vLLM need none)', 'none'),
  LLM_MODEL: setting(optional, 'the model, e.g. `gpt-4o-mini`, `llama3.1`', 'required with `LLM_BASE_URL`'),
  LLM_TIMEOUT_SECONDS: setting(
    positiveInt(90),
    'how long one chat request may take; a failure fails the task (no fallback, see docs/decisions/098-no-provider-fallback.md)',
  ),
  TTS_PROVIDER: setting(
    optional.pipe(z.enum(TTS_VENDORS, { error: `must be one of ${TTS_VENDORS.join(', ')}` }).optional()),
    'the speech API that reads the scripts for the voice-over: `openai` (any OpenAI-compatible server, Kokoro too), `elevenlabs` or `azure`',
    '`openai` when `TTS_BASE_URL` is set, else the local voices',
  ),
  TTS_BASE_URL: setting(
    httpUrl,
    "an OpenAI-compatible speech API (`POST …/audio/speech`): `https://api.openai.com/v1`, Kokoro's `http://kokoro:8880/v1`",
    'unset',
  ),
  TTS_API_KEY: setting(optional, 'its bearer key (Kokoro needs none)', 'none'),
  TTS_MODEL: setting(optional, 'the model, e.g. `gpt-4o-mini-tts`, `tts-1`, `kokoro`', 'required with `TTS_BASE_URL`'),
  ELEVENLABS_API_KEY: setting(optional, "ElevenLabs' API key (`xi-api-key`)", 'required with `TTS_PROVIDER=elevenlabs`'),
  ELEVENLABS_MODEL: setting(optional.pipe(z.string().default('eleven_multilingual_v2')), "ElevenLabs' model"),
  ELEVENLABS_BASE_URL: setting(baseUrl('https://api.elevenlabs.io'), "ElevenLabs' API"),
  AZURE_SPEECH_KEY: setting(optional, "the Azure Speech resource's key", 'required with `TTS_PROVIDER=azure`'),
  AZURE_SPEECH_REGION: setting(optional, 'its region, e.g. `westeurope`', 'required with `TTS_PROVIDER=azure`'),
  AZURE_SPEECH_ENDPOINT: setting(
    httpUrl,
    'its text to speech endpoint, for a sovereign cloud or a proxy',
    '`https://{region}.tts.speech.microsoft.com`',
  ),
  TTS_VOICES: setting(
    pairs,
    'the provider voice for a catalogue voice id or a gender, e.g. `en-ava:af_heart,male:am_michael`',
    "OpenAI: recommended female `nova`, other `shimmer`, recommended male `onyx`, other `echo`; ElevenLabs: Rachel, Sarah, Adam, Brian; Azure: a neural voice of the voice's language and accent",
  ),
  TTS_TIMEOUT_SECONDS: setting(positiveInt(30), "how long one line's speech request may take"),
});

/** An OpenAI-compatible API: where it is, its key (none for Ollama or vLLM), the model, and a time limit per request. */
export interface ProviderSettings {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

function provider(baseUrl: string, apiKey: string | undefined, model: string, timeoutSeconds: number): ProviderSettings {
  return { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, model, timeoutMs: timeoutSeconds * 1000 };
}

/** A speech API: which vendor, where, its key, the model (Azure's voices name their own), the voice mapping, a time limit per line. */
export type TtsSettings =
  | (ProviderSettings & { vendor: 'openai'; voices: Record<string, string> })
  | (ProviderSettings & { vendor: 'elevenlabs'; voices: Record<string, string> })
  | { vendor: 'azure'; baseUrl: string; apiKey: string; timeoutMs: number; voices: Record<string, string> };

function ttsSettings(e: z.output<typeof ProvidersEnv>): TtsSettings | undefined {
  const vendor = e.TTS_PROVIDER ?? (e.TTS_BASE_URL ? 'openai' : undefined);
  const timeoutMs = e.TTS_TIMEOUT_SECONDS * 1000;
  const voices = e.TTS_VOICES;
  switch (vendor) {
    case undefined:
      return undefined;
    case 'openai':
      if (!e.TTS_BASE_URL) refuse('TTS_BASE_URL: required with TTS_PROVIDER=openai');
      if (!e.TTS_MODEL) refuse('TTS_MODEL: required with TTS_BASE_URL');
      return { vendor, ...provider(e.TTS_BASE_URL, e.TTS_API_KEY, e.TTS_MODEL, e.TTS_TIMEOUT_SECONDS), voices };
    case 'elevenlabs':
      if (!e.ELEVENLABS_API_KEY) refuse('ELEVENLABS_API_KEY: required with TTS_PROVIDER=elevenlabs');
      return { vendor, baseUrl: e.ELEVENLABS_BASE_URL, apiKey: e.ELEVENLABS_API_KEY, model: e.ELEVENLABS_MODEL, timeoutMs, voices };
    case 'azure': {
      if (!e.AZURE_SPEECH_KEY) refuse('AZURE_SPEECH_KEY: required with TTS_PROVIDER=azure');
      const region = e.AZURE_SPEECH_REGION;
      if (!region && !e.AZURE_SPEECH_ENDPOINT) refuse('AZURE_SPEECH_REGION: required with TTS_PROVIDER=azure');
      if (region && !/^[a-z0-9]+$/.test(region)) refuse('AZURE_SPEECH_REGION: must be a region name like westeurope');
      const endpoint = (e.AZURE_SPEECH_ENDPOINT ?? `https://${region}.tts.speech.microsoft.com`).replace(/\/+$/, '');
      return { vendor, baseUrl: endpoint, apiKey: e.AZURE_SPEECH_KEY, timeoutMs, voices };
    }
  }
}

export function providerSettings(e: z.output<typeof ProvidersEnv>) {
  if (e.LLM_BASE_URL && !e.LLM_MODEL) refuse('LLM_MODEL: required with LLM_BASE_URL');
  const llm: ProviderSettings | undefined = e.LLM_BASE_URL
    ? provider(e.LLM_BASE_URL, e.LLM_API_KEY, e.LLM_MODEL as string, e.LLM_TIMEOUT_SECONDS)
    : undefined;
  return {
    /** The LLM that writes AI scripts; undefined: the local writer. */
    llm,
    /** The speech API that reads scripts; undefined: the local voices. */
    tts: ttsSettings(e),
  };
}
