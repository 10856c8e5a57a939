// The provider registry (design §6): a remote provider for a capability when the settings configure one, else the
// local engine, which needs no keys and works offline.
import { synthesize, writeScripts } from '@reelsmith/media';
import type { Settings } from '../settings.js';
import { localProviders } from './local/images.js';
import { openAiScriptWriter } from './openai/scripts.js';
import { openAiVoice } from './openai/speech.js';
import type { GenerationProviders, ScriptWriter, Voice } from './provider.js';

const LOCAL_WRITER: ScriptWriter = { write: async (brief) => writeScripts(brief) };
const LOCAL_VOICE: Voice = { engine: 'local', synthesizer: () => synthesize };

export const scriptWriter = (settings: Pick<Settings, 'llm'>): ScriptWriter =>
  settings.llm ? openAiScriptWriter(settings.llm) : LOCAL_WRITER;

export const voice = (settings: Pick<Settings, 'tts'>): Voice => (settings.tts ? openAiVoice(settings.tts) : LOCAL_VOICE);

/**
 * The provider of each generation capability (design §6). Filled in by the generation issue: the local engine
 * where it does real work, a remote API where one is configured, the sandbox stand-ins outside production.
 */
export const generationProviders = (settings: Settings): GenerationProviders => ({
  textToImage: null,
  imageToImage: null,
  textToVideo: null,
  imageToVideo: localProviders(settings).imageToVideo,
  virtualTryOn: null,
  removeBackground: localProviders(settings).removeBackground,
  replaceBackground: localProviders(settings).replaceBackground,
  extendImage: localProviders(settings).extendImage,
  upscale: localProviders(settings).upscale,
});
