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
      vendor: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-x',
      model: 'gpt-4o-mini-tts',
      timeoutMs: 10_000,
      voices: { 'en-ava': 'af_bella', male: 'am_adam' },
    });
  });

  it('reads ElevenLabs and Azure as the speech API, with their defaults', () => {
    expect(loadSettings({ TTS_PROVIDER: 'elevenlabs', ELEVENLABS_API_KEY: 'xi-key', TTS_VOICES: 'female:abc' }).tts).toEqual({
      vendor: 'elevenlabs',
      baseUrl: 'https://api.elevenlabs.io',
      apiKey: 'xi-key',
      model: 'eleven_multilingual_v2',
      timeoutMs: 30_000,
      voices: { female: 'abc' },
    });
    expect(loadSettings({ TTS_PROVIDER: 'azure', AZURE_SPEECH_KEY: 'az-key', AZURE_SPEECH_REGION: 'westeurope' }).tts).toEqual({
      vendor: 'azure',
      baseUrl: 'https://westeurope.tts.speech.microsoft.com',
      apiKey: 'az-key',
      timeoutMs: 30_000,
      voices: {},
    });
    expect(loadSettings({ TTS_PROVIDER: 'azure', AZURE_SPEECH_KEY: 'k', AZURE_SPEECH_ENDPOINT: 'http://127.0.0.1:9/' }).tts).toMatchObject({
      baseUrl: 'http://127.0.0.1:9',
    });
    // TTS_PROVIDER=openai is what TTS_BASE_URL alone means.
    expect(loadSettings({ TTS_PROVIDER: 'openai', TTS_BASE_URL: 'http://kokoro:8880/v1', TTS_MODEL: 'kokoro' }).tts).toMatchObject({
      vendor: 'openai',
      apiKey: undefined,
    });
  });

  it.each([
    [{ TTS_PROVIDER: 'polly' }, 'TTS_PROVIDER: must be one of openai, elevenlabs, azure'],
    [{ TTS_PROVIDER: 'openai' }, 'TTS_BASE_URL: required with TTS_PROVIDER=openai'],
    [{ TTS_PROVIDER: 'elevenlabs' }, 'ELEVENLABS_API_KEY: required with TTS_PROVIDER=elevenlabs'],
    [{ TTS_PROVIDER: 'azure', AZURE_SPEECH_REGION: 'westeurope' }, 'AZURE_SPEECH_KEY: required with TTS_PROVIDER=azure'],
    [{ TTS_PROVIDER: 'azure', AZURE_SPEECH_KEY: 'k' }, 'AZURE_SPEECH_REGION: required with TTS_PROVIDER=azure'],
    [{ TTS_PROVIDER: 'azure', AZURE_SPEECH_KEY: 'k', AZURE_SPEECH_REGION: 'evil.example/x' }, 'AZURE_SPEECH_REGION: must be a region'],
  ])('refuses the speech API %j', (env, message) => {
    expect(() => loadSettings(env)).toThrow(message);
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
