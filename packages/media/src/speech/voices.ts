import type { Language } from '../script/language.js';
import type { EspeakVoice } from './espeak.js';

/** A voice of the catalogue (spec "Screens and routes" screen 3: recommended or other, filtered male/female). */
export interface VoiceInfo {
  voiceId: string;
  name: string;
  gender: 'male' | 'female';
  language: Language;
  recommended: boolean;
}

interface LocalVoice extends VoiceInfo {
  espeak: EspeakVoice;
}

/**
 * eSpeak speeds that land on the writer's estimate of a natural read (2.5 words a second in en/pt, 4
 * characters in zh): measured over the writer's scripts, so a script sized to 30 s speaks in about 30 s.
 */
const SPEED: Record<Language, number> = { en: 162, pt: 159, zh: 205 };

const voice = (
  voiceId: string,
  name: string,
  gender: VoiceInfo['gender'],
  language: Language,
  recommended: boolean,
  espeakVoice: string,
  pitch: number,
): LocalVoice => ({
  voiceId,
  name,
  gender,
  language,
  recommended,
  espeak: { voice: espeakVoice, pitch, range: RANGE[language][gender], speed: SPEED[language] },
});

/**
 * Pitch range: eSpeak's default 50 reads flat, like a list; a little wider sounds like someone telling. Mandarin's
 * tones already move the pitch, so its range widens less.
 */
const RANGE: Record<Language, Record<VoiceInfo['gender'], number>> = {
  en: { female: 64, male: 58 },
  pt: { female: 64, male: 58 },
  zh: { female: 56, male: 54 },
};

/** Two accents in English and Portuguese; female variants with a higher base pitch, male ones lower. */
const LOCAL_VOICES: LocalVoice[] = [
  voice('en-ava', 'Ava', 'female', 'en', true, 'en-us+f3', 60),
  voice('en-noah', 'Noah', 'male', 'en', true, 'en-us+m3', 42),
  voice('en-grace', 'Grace (British)', 'female', 'en', false, 'en-gb-x-rp+f4', 58),
  voice('en-oliver', 'Oliver (British)', 'male', 'en', false, 'en-gb-x-rp+m1', 38),
  voice('zh-xiaomei', '小美', 'female', 'zh', true, 'cmn+f3', 62),
  voice('zh-haoran', '浩然', 'male', 'zh', true, 'cmn+m3', 42),
  voice('zh-yating', '雅婷', 'female', 'zh', false, 'cmn+f4', 55),
  voice('zh-zhiwei', '志伟', 'male', 'zh', false, 'cmn+m1', 36),
  voice('pt-ana', 'Ana', 'female', 'pt', true, 'pt-br+f3', 60),
  voice('pt-lucas', 'Lucas', 'male', 'pt', true, 'pt-br+m3', 42),
  voice('pt-beatriz', 'Beatriz (Portugal)', 'female', 'pt', false, 'pt+f4', 58),
  voice('pt-rafael', 'Rafael (Portugal)', 'male', 'pt', false, 'pt+m1', 38),
];

/** The catalogue without engine settings, as the voices call lists it. */
export const VOICES: readonly VoiceInfo[] = LOCAL_VOICES.map(({ espeak: _, ...info }) => info);

export function localVoice(voiceId: string): LocalVoice {
  const found = LOCAL_VOICES.find((v) => v.voiceId === voiceId);
  if (!found) throw new RangeError(`unknown voice ${voiceId}`);
  return found;
}

/** The voice a project gets before the user picks one: the first recommended voice of its language. */
export function defaultVoice(language: Language): VoiceInfo {
  return VOICES.find((v) => v.language === language && v.recommended) as VoiceInfo;
}
