import { detectLanguage, type Language } from './language.js';
import { speechSeconds } from './rate.js';
import { clauses, sentences } from './split.js';

/** A benefit line should be said in one breath: longer facts are cut at commas, shorter ones say nothing. */
const FACT_SECONDS = { min: 1.2, max: 5 };

/** Lines that are shop furniture, not product facts. */
const NOT_A_FACT = /https?:|www\.|@|\b(?:sku|asin|item model|shipping|returns?|cart|checkout)\b|购物车|运费|退货/iu;

const asLine = (text: string, language: Language) => {
  const bare = text.replace(/[\s,，、:：;；.。!！?？-]+$/u, '');
  return language === 'zh' ? `${bare}。` : `${bare.charAt(0).toUpperCase()}${bare.slice(1)}.`;
};

/**
 * The product description's facts that can become benefit lines, best first: facts with figures (sizes,
 * hours, counts) sell better, then in the order the seller wrote them. Empty when the description is in
 * another language than the script, because the local writer does not translate.
 */
export function productFacts(description: string, language: Language): string[] {
  if (!description.trim() || detectLanguage(description) !== language) return [];
  const seen = new Set<string>();
  return sentences(description)
    .flatMap((sentence) => clauses(sentence, language, FACT_SECONDS.max))
    .filter((fact) => !NOT_A_FACT.test(fact))
    .map((fact) => asLine(fact, language))
    .filter((fact) => {
      const seconds = speechSeconds(fact, language);
      const key = fact.toLowerCase();
      if (seconds < FACT_SECONDS.min || seconds > FACT_SECONDS.max || seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((fact, order) => ({ fact, order, figures: /\d/.test(fact) ? 1 : 0 }))
    .sort((a, b) => b.figures - a.figures || a.order - b.order)
    .map(({ fact }) => fact);
}
