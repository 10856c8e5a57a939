import type { Voice } from '@reelsmith/contract';

export type VoiceGroup = 'recommended' | 'other';
export type GenderFilter = 'all' | Voice['gender'];

/** The voices of a tab of the quick editor (spec "Screens and routes" screen 3): recommended or other, by gender or all. */
export const filterVoices = (voices: readonly Voice[], group: VoiceGroup, gender: GenderFilter): Voice[] =>
  voices.filter((voice) => voice.recommended === (group === 'recommended') && (gender === 'all' || voice.gender === gender));
