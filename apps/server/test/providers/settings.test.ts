import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/settings.js';

describe('provider settings', () => {
  it('leaves both capabilities local by default', () => {
    expect(loadSettings({})).toMatchObject({ llm: undefined, tts: undefined });
  });

  it('reads an OpenAI-compatible LLM and TTS', () => {
    const s = loadSettings({
      LLM_BASE_URL: 'http://127.0.0.1:11434/v1/',
      LLM_MODEL: 'llama3.1',
      TTS_BASE_URL: 'https://api.openai.com/v1',
      TTS_API_KEY: 'sk-x',
      TTS_MODEL: 'gpt-4o-mini-tts',
      TTS_VOICES: 'en-ava:af_bella, male:am_adam',
      TTS_TIMEOUT_SECONDS: '10',
    });
    expect(s.llm).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', apiKey: undefined, model: 'llama3.1', timeoutMs: 90_000 });
    expect(s.tts).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-x',
      model: 'gpt-4o-mini-tts',
      timeoutMs: 10_000,
      voices: { 'en-ava': 'af_bella', male: 'am_adam' },
    });
  });

  it.each([
    [{ LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }, 'LLM_MODEL: required with LLM_BASE_URL'],
    [{ TTS_BASE_URL: 'http://127.0.0.1:8880/v1' }, 'TTS_MODEL: required with TTS_BASE_URL'],
    [{ LLM_BASE_URL: 'ollama' }, 'LLM_BASE_URL: must be an http(s) URL'],
    [{ TTS_VOICES: 'nova' }, 'TTS_VOICES'],
  ])('refuses %j', (env, message) => {
    expect(() => loadSettings(env)).toThrow(message);
  });
});
