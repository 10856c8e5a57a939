// The OpenAI-compatible APIs that write the AI scripts and read them aloud; unset, the local writer and voices do.
import { z } from 'zod';
import { commaList, httpUrl, optional, positiveInt, refuse, setting } from './fields.js';

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
  TTS_BASE_URL: setting(
    httpUrl,
    'an OpenAI-compatible speech API (`POST …/audio/speech`) that reads the scripts for the voice-over',
    'unset: the local voices',
  ),
  TTS_API_KEY: setting(optional, 'its bearer key', 'none'),
  TTS_MODEL: setting(optional, 'the model, e.g. `gpt-4o-mini-tts`, `tts-1`', 'required with `TTS_BASE_URL`'),
  TTS_VOICES: setting(
    pairs,
    'the provider voice for a catalogue voice id or a gender, e.g. `en-ava:af_bella,male:am_adam`',
    'recommended female `nova`, other female `shimmer`, recommended male `onyx`, other male `echo`',
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

export function providerSettings(e: z.output<typeof ProvidersEnv>) {
  if (e.LLM_BASE_URL && !e.LLM_MODEL) refuse('LLM_MODEL: required with LLM_BASE_URL');
  if (e.TTS_BASE_URL && !e.TTS_MODEL) refuse('TTS_MODEL: required with TTS_BASE_URL');
  const llm: ProviderSettings | undefined = e.LLM_BASE_URL
    ? provider(e.LLM_BASE_URL, e.LLM_API_KEY, e.LLM_MODEL as string, e.LLM_TIMEOUT_SECONDS)
    : undefined;
  const tts: (ProviderSettings & { voices: Record<string, string> }) | undefined = e.TTS_BASE_URL
    ? { ...provider(e.TTS_BASE_URL, e.TTS_API_KEY, e.TTS_MODEL as string, e.TTS_TIMEOUT_SECONDS), voices: e.TTS_VOICES }
    : undefined;
  return {
    /** The LLM that writes AI scripts; undefined: the local writer. */
    llm,
    /** The speech provider that reads scripts; undefined: the local voices. */
    tts,
  };
}
