/** The script languages of the product (spec "What the product does": English, Simplified Chinese, Portuguese). */
export type Language = 'en' | 'zh' | 'pt';

/** The lengths a link-to-video ad is made in (design "Contract details" `editorConfig.videoLength`). */
export type ScriptLength = 15 | 30 | 45;

/** Han ideographs, CJK punctuation and full-width forms: read one by one, never split on spaces. */
const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/u;
const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/gu;

export function isCjk(char: string): boolean {
  return CJK.test(char);
}

export function hanCount(text: string): number {
  return text.match(HAN)?.length ?? 0;
}

/** Latin-script words (numbers included): what is left once the Han characters are taken out. */
export function wordCount(text: string): number {
  return text.replace(HAN, ' ').match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

const PT_WORDS = new Set(['de', 'que', 'para', 'com', 'não', 'uma', 'um', 'os', 'as', 'é', 'em', 'do', 'da', 'seu', 'sua', 'mais', 'você']);
const EN_WORDS = new Set(['the', 'and', 'with', 'for', 'your', 'is', 'to', 'of', 'this', 'it', 'you', 'in', 'on', 'that', 'are']);

/**
 * The language a product description is written in, as far as the local writer needs to know: a fact may only
 * go into a script of the same language, since the writer cannot translate.
 */
export function detectLanguage(text: string): Language {
  const han = hanCount(text);
  const words = text
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
  if (han > 0 && han >= words.length) return 'zh';
  const pt = words.filter((w) => PT_WORDS.has(w)).length;
  const en = words.filter((w) => EN_WORDS.has(w)).length;
  return pt > en ? 'pt' : 'en';
}
