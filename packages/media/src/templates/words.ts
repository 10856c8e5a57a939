/**
 * The few words the cards say themselves, in every script language; everything else a card shows comes from
 * the product page or the user's brand kit.
 */
import type { Language } from '../script/language.js';

export const CARD_WORDS = {
  /** The label disclosing generated content (decision "AI-generated label"). */
  aiGenerated: { en: 'AI-generated', zh: 'AI 生成', pt: 'Gerado por IA' },
  /**
   * The sale template's ticker and label: a sale, never a deadline ("限时", "limited time") the page did not state.
   */
  sale: { en: 'SALE', zh: '特惠', pt: 'PROMOÇÃO' },
} as const satisfies Record<string, Record<Language, string>>;

export type CardWord = keyof typeof CARD_WORDS;

export const cardWord = (word: CardWord, language: Language): string => CARD_WORDS[word][language];
