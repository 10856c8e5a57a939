// The provider registry (design "Generation"): a remote provider for a capability when the settings configure one, else the
// local engine, which needs no keys and works offline.
import { LOCAL_VOICE_SOUND, synthesize, writeScripts } from '@reelsmith/media';
import type { Settings } from '../settings.js';
import { azureVoice } from './azure/speech.js';
import { elevenLabsVoice } from './elevenlabs/speech.js';
import { falProviders } from './fal/index.js';
import { localProviders } from './local/images.js';
import { openAiImagesProviders } from './openai/images.js';
import { openAiScriptWriter } from './openai/scripts.js';
import { openAiVoice } from './openai/speech.js';
import type { GenerationProviders, ScriptWriter, Voice } from './provider.js';
import { replicateProviders } from './replicate/index.js';
import { sandboxHolding, sandboxImageToImage, sandboxTalking, sandboxTextToImage, sandboxTryOn, sandboxVideo } from './sandbox/index.js';

const LOCAL_WRITER: ScriptWriter = { write: async (brief) => writeScripts(brief) };
// Named by how the local voices sound, so a change of eSpeak's settings or chain remakes the cached samples.
const LOCAL_VOICE: Voice = { engine: `local-${LOCAL_VOICE_SOUND}`, offline: true, synthesizer: () => synthesize };

export const scriptWriter = (settings: Pick<Settings, 'llm'>): ScriptWriter =>
  settings.llm ? openAiScriptWriter(settings.llm) : LOCAL_WRITER;

/** The voice that reads the scripts: the speech API the settings choose (TTS_PROVIDER), else the local voices. */
export function voice({ tts }: Pick<Settings, 'tts'>): Voice {
  if (!tts) return LOCAL_VOICE;
  switch (tts.vendor) {
    case 'elevenlabs':
      return elevenLabsVoice(tts);
    case 'azure':
      return azureVoice(tts);
    case 'openai':
      return openAiVoice(tts);
  }
}

/** The capabilities the settings give to a vendor (PROVIDER_<CAPABILITY>=vendor:model), or to the sandbox. */
function chosenProviders(settings: Settings): Partial<GenerationProviders> {
  const { generation } = settings;
  const video = sandboxVideo(settings);
  const sandbox: Partial<GenerationProviders> = {
    textToImage: sandboxTextToImage,
    imageToImage: sandboxImageToImage,
    textToVideo: video,
    imageToVideo: video,
    virtualTryOn: sandboxTryOn,
    talkingAvatar: sandboxTalking(settings),
    productHolding: sandboxHolding,
  };
  const chosen: Partial<GenerationProviders> = {
    ...(generation.fal && falProviders(settings, generation.fal)),
    ...(generation.replicate && replicateProviders(settings, generation.replicate)),
    ...(generation.openaiImages && openAiImagesProviders(settings, generation.openaiImages)),
  };
  for (const [capability, choice] of Object.entries(generation.choices)) {
    const key = capability as keyof GenerationProviders;
    // The settings refuse the sandbox in production and for capabilities it cannot stand in for.
    if (choice.vendor === 'sandbox') Object.assign(chosen, { [key]: sandbox[key] });
  }
  return chosen;
}

/**
 * The provider of each generation capability (design "Generation"): a remote API where the settings choose one, the sandbox
 * stand-ins outside production for what no local model can do, else the local engine (or none: production then
 * refuses the capability at submit).
 */
export function generationProviders(settings: Settings): GenerationProviders {
  const chosen = chosenProviders(settings);
  // The local engine does real work offline for these five; a configured vendor takes over where one is chosen.
  const local = localProviders(settings);
  return {
    textToImage: chosen.textToImage ?? null,
    imageToImage: chosen.imageToImage ?? null,
    textToVideo: chosen.textToVideo ?? null,
    imageToVideo: chosen.imageToVideo ?? local.imageToVideo,
    virtualTryOn: chosen.virtualTryOn ?? null,
    removeBackground: chosen.removeBackground ?? local.removeBackground,
    replaceBackground: local.replaceBackground,
    extendImage: chosen.extendImage ?? local.extendImage,
    upscale: chosen.upscale ?? local.upscale,
    talkingAvatar: chosen.talkingAvatar ?? null,
    productHolding: chosen.productHolding ?? null,
  };
}

/** Which provider does each capability, for /health: its name, or null where none does. */
export const providerNames = (providers: GenerationProviders): Record<string, string | null> =>
  Object.fromEntries(Object.entries(providers).map(([capability, provider]) => [capability, provider?.name ?? null]));
