/**
 * The type of the cards: which face libass sets them in, how wide a line will be before it is drawn, and how a
 * title, a feature or a question is fitted into its lines (smaller type first, then fewer words).
 */
import { type BrandFontFileId, brandFont } from '../brand/fonts.js';
import { breakLines, textWidth } from '../captions/lines.js';
import { chineseWords } from '../script/chineseWords.js';
import { isCjk, type Language } from '../script/language.js';
import { faceMetrics } from './fontMetrics.js';

/**
 * The face's name as libass looks it up. The black weight declares a family of its own, "Noto Sans SC Black":
 * asked for as "Noto Sans SC" at weight 900, libass picks the bold file and leaves the black one unused.
 */
export const CARD_FACES: Record<BrandFontFileId, { family: string }> = {
  'noto-sans': { family: 'Noto Sans SC' },
  'noto-sans-black': { family: 'Noto Sans SC Black' },
  'noto-serif': { family: 'Noto Serif SC' },
};

export interface Type {
  face: BrandFontFileId;
  /** Extra letter spacing, in pixels per 100 px of type. */
  spacing: number;
}

/** The face's ems per unit of libass font size (its line height). */
export const emPerSize = (type: Type) => faceMetrics(brandFont(type.face).path).emPerSize;

/** Letter spacing in pixels at `em`: the template's (per 100 px of libass size) plus `track` ems. */
export const letterSpacing = (em: number, type: Type, track = 0) => (type.spacing / 100) * (em / emPerSize(type)) + track * em;

/** The width `text` takes at `em` px in `type` (plus `track` ems between letters), as libass sets it less kerning. */
export function measure(text: string, em: number, type: Type, track = 0): number {
  const face = faceMetrics(brandFont(type.face).path);
  const chars = [...text];
  const ems = chars.reduce((sum, char) => sum + face.advance(char), 0);
  return ems * em + Math.max(0, chars.length - 1) * letterSpacing(em, type, track);
}

const LOCALE: Record<Language, string> = { en: 'en-US', zh: 'zh-CN', pt: 'pt-BR' };
export const upper = (text: string, language: Language) => text.toLocaleUpperCase(LOCALE[language]);

/**
 * What a cut title may not end on: a joining word ("Camiseta Básica com") or a bare figure that qualified the
 * word cut after it ("Camiseta Básica Masculina 100%" of "… 100% Algodão").
 */
const DANGLING =
  /[\s,，、:：;；\-–—&/+]+$|\s+(?:with|for|and|the|of|in|a|an|to|de|da|do|das|dos|com|para|e|em|o|a|os|as|sem)$|\s+[\d.,]+\s*%?$/iu;

/** The name without the specs shops pile up after a dash, bar, comma or bracket ("Acme Bottle - 1L, BPA free"). */
export function titleOf(name: string): string {
  const head = name.split(/\s[-–—|]\s|[|,，(（[【:：]/u)[0]?.trim();
  return (head || name).replace(/\s+/g, ' ').trim();
}

/**
 * Words of `text` (Chinese ones by the dictionary: 连衣裙, 一字肩), keeping the spaces with the word before them: a
 * title is cut between words only, so a Chinese name never loses half a word (decision "Chinese words").
 */
const units = (text: string) =>
  (
    text.match(
      /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+\s*|[^\s\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+\s*/gu,
    ) ?? []
  ).flatMap((run) => (isCjk(run[0] as string) ? chineseWords(run) : [run]));

export interface Fitted {
  lines: string[];
  /** The size the lines fit at, in ems. */
  em: number;
}

/**
 * `text` in at most `maxLines` lines no wider than `maxWidth`, at `em` when it fits. Otherwise smaller down to
 * `minScale` of it, then with words cut from the end (with an ellipsis when `ellipsis`); with `cutFirst`, words
 * go before the type shrinks. Lines are broken as the captions' are: evenly, between words (Chinese ones too).
 */
export function fitText(
  text: string,
  options: {
    em: number;
    maxWidth: number;
    maxLines: number;
    type: Type;
    track?: number;
    minScale?: number;
    ellipsis?: boolean;
    cutFirst?: boolean;
  },
): Fitted {
  const { em, maxWidth, maxLines, type, track = 0, minScale = 0.8, ellipsis = false, cutFirst = false } = options;
  const clean = text.replace(/\s+/g, ' ').trim();
  if (!clean) return { lines: [], em };
  const fits = (candidate: string, size: number): string[] | undefined => {
    // breakLines counts in its own estimate of ems (a Chinese character is one): the measure is converted by
    // the candidate's own ratio of real width to that estimate, then every line is checked for real.
    const perEm = measure(candidate, size, type, track) / Math.max(1e-6, textWidth(candidate));
    const lines = breakLines(candidate, maxWidth / perEm);
    return lines.length <= maxLines && lines.every((l) => measure(l, size, type, track) <= maxWidth) ? lines : undefined;
  };
  const parts = units(clean);
  /** The longest start of the text (at least `least` words) that fits at `size`. */
  const cut = (size: number, least: number): Fitted | undefined => {
    for (let keep = parts.length - 1; keep >= least; keep--) {
      const head = parts.slice(0, keep).join('').replace(DANGLING, '').replace(DANGLING, '');
      const lines = head ? fits(ellipsis ? `${head}…` : head, size) : undefined;
      if (lines) return { lines, em: size };
    }
    return undefined;
  };
  const whole = fits(clean, em);
  if (whole) return { lines: whole, em };
  // A cut keeps at least two words: one word alone rarely names the product.
  const fewest = Math.min(parts.length - 1, 2);
  const first = cutFirst ? cut(em, fewest) : undefined;
  if (first) return first;
  for (let scale = 0.95; scale >= minScale - 1e-9; scale -= 0.05) {
    const lines = fits(clean, em * scale);
    if (lines) return { lines, em: em * scale };
  }
  const small = em * minScale;
  const shortened = cut(small, 1);
  if (shortened) return shortened;
  // Not even one word fits: a single long word (a model number) is squeezed onto one line.
  const word = parts[0]?.trim() ?? clean;
  return { lines: [word], em: Math.min(small, maxWidth / Math.max(1e-6, measure(word, 1, type, track))) };
}

/** Whether a line is set in Chinese: its lines need a little more leading than Latin capitals. */
export const cjkLine = (text: string) => [...text].some(isCjk);
