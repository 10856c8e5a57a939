import { chineseWords } from './chineseWords.js';
import type { Language } from './language.js';

const NO_NAME: Record<Language, string> = { en: 'this product', zh: '这款产品', pt: 'este produto' };

/** Words that start a name's tail of details ("… with Funnel Neck", "… com Gola Funil", "… for Women"). */
const TAIL = /^(?:with|for|and|in|without|featuring|incl\.?|including|com|para|sem|e|em|ideal)$/iu;
/** A measure or a spec ("100%", "1L", "500ml", "256GB", "32 oz" starts with its figure): a model number ("15") is not. */
const MEASURE = /^\d+(?:[.,]\d+)?(?:%|[a-z"'″]+)$/iu;
/** Latin words kept: a voice says a name of more than this many words as a mouthful. */
const MAX_WORDS = 5;
/** Chinese characters kept: the end of a Chinese name is its noun (牛仔裤), the words before it describe it. */
const MAX_HAN = 8;

/** The last whole words of a Chinese name that fit MAX_HAN characters: "女士高腰破洞修身牛仔裤" → "破洞修身牛仔裤". */
function chineseShort(head: string): string {
  const words = chineseWords(head);
  let kept = '';
  let first = '';
  for (const word of words.reverse()) {
    if (kept && [...word, ...kept].length > MAX_HAN) break;
    kept = word + kept;
    first = word;
  }
  // A lone character left at the front is usually half of a word the dictionary split (高|腰 of 高腰).
  return [...first].length === 1 && kept.length > first.length && words.length > 1 ? kept.slice(first.length) : kept;
}

/**
 * The words before a name's tail of details, cut at a connector or a measure ("Moletom Feminino Cassia com
 * Gola Funil" → "Moletom Feminino Cassia", "Camiseta Básica Masculina 100% Algodão" → "Camiseta Básica
 * Masculina"). Still too long, English keeps its last words (its noun comes last: "… Skinny Jeans"), Portuguese its
 * first (its noun comes first: "Calça Jeans …").
 */
function latinShort(head: string, language: Language): string {
  const words = head.split(/\s+/u).filter(Boolean);
  let end = words.findIndex((word, i) => (i >= 2 && TAIL.test(word)) || (i >= 1 && MEASURE.test(word)));
  if (end < 0) end = words.length;
  const kept = words.slice(0, end);
  if (kept.length <= MAX_WORDS) return kept.join(' ');
  return (language === 'en' ? kept.slice(-(MAX_WORDS - 1)) : kept.slice(0, MAX_WORDS - 1)).join(' ');
}

/**
 * The name as a voice would say it: shop titles pile up specs after a dash, bar or bracket ("Acme Bottle -
 * 1L Stainless Steel, BPA free"), so the part before them, cut to whole words a voice says in one go.
 */
export function shortName(productName: string, language: Language): string {
  const head = productName.split(/\s[-–—|]\s|[|,，(（[【:：]/u)[0]?.trim() ?? '';
  if (!head) return NO_NAME[language];
  return /[\u3400-\u9fff]/u.test(head) && !/\s/u.test(head) ? chineseShort(head) : latinShort(head, language);
}
