import type { Language } from '../script/language.js';
import type { MediaTools } from '../tools.js';
import { type Speech, type Synthesizer, synthesize } from './synthesize.js';
import { localVoice } from './voices.js';

const SAMPLE: Record<Language, string> = {
  en: 'Hi, I am {name}. Let me tell your customers what makes your product special.',
  zh: '你好，我是{name}。让我来告诉大家，你的产品有多特别。',
  pt: 'Olá, eu sou {name}. Vou contar aos seus clientes o que torna o seu produto especial.',
};

/**
 * The short introduction a voice gives in the quick editor's catalogue (its sample URL), spoken by the engine
 * that will read the scripts: the local one unless the server has a speech provider.
 */
export function voiceSample(voiceId: string, outFile: string, tools?: MediaTools, say: Synthesizer = synthesize): Promise<Speech> {
  const voice = localVoice(voiceId);
  const name = voice.name.replace(/\s*\(.*\)$/, '');
  return say(SAMPLE[voice.language].replace('{name}', name), { voiceId, outFile, tools });
}
