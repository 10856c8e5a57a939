import { type CaptionStyle, LOCALES, type Locale, type MusicTrack, type Voice } from '@reelsmith/contract';
import type { Project } from '../project/types';

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff]/gu;
/** Words only Portuguese writes among the three languages: enough to tell a Portuguese product page from an English one. */
const PORTUGUESE = /\b(você|não|para|com|uma|seu|sua|mais|de|da|do)\b|[ãõç]/giu;
const ENGLISH = /\b(the|and|with|for|your|this|you|that|are|of)\b/giu;

/**
 * The language the video is spoken in, as the service decides it: the editor's choice, else the page's language when
 * it is one we speak (decision "Product facts"), else the product's own (its name and description: Chinese when Han
 * characters outnumber words, else Portuguese or English by their common words), so the editor shows the voices and
 * the default the service uses.
 */
export function videoLanguage(project: Project): Locale {
  if (project.editorConfig.language) return project.editorConfig.language;
  const page = LOCALES.find((locale) => locale === project.product?.productFacts?.language);
  if (page) return page;
  const text = `${project.product?.productName ?? ''}\n${project.product?.productDescription ?? ''}`;
  const han = text.match(HAN)?.length ?? 0;
  const words = text.split(/[^\p{L}]+/u).filter(Boolean).length;
  if (han > 0 && han >= words) return 'zh';
  return (text.match(PORTUGUESE)?.length ?? 0) > (text.match(ENGLISH)?.length ?? 0) ? 'pt' : 'en';
}

/** The voice a video gets before the user picks one: the first recommended voice of its language (the service's rule). */
export const defaultVoiceId = (voices: readonly Voice[], language: Locale): string | undefined =>
  (voices.find((v) => v.language === language && v.recommended) ?? voices.find((v) => v.language === language))?.voiceId;

/** The music a video gets before the user picks: the first recommended track. */
export const defaultMusicId = (tracks: readonly MusicTrack[]): string | undefined =>
  (tracks.find((m) => m.recommended) ?? tracks[0])?.musicId;

/** The subtitle style a video gets before the user picks: the first of the catalogue. */
export const defaultCaptionId = (captions: readonly CaptionStyle[]): string | undefined => captions[0]?.captionId;
