import { detectLanguage, type Language } from './language.js';
import { speechSeconds } from './rate.js';
import { sentences } from './split.js';

/**
 * A fact line is said in one breath: a longer sentence is dropped rather than cut at a comma, since a cut
 * leaves a fragment that means nothing on its own ("On colder-than-comfortable mornings."). Chinese clauses
 * stand alone, so a long Chinese sentence is cut at its commas instead.
 */
const FACT_SECONDS = { min: 1.2, max: 6 };
/** Short bullets ("Ribbed hem.", "Standard fit.") are said together as one list, up to this long. */
const LIST_SECONDS = 4.5;
/** A part shorter than this is a bullet, said in a list with its neighbours. */
const BULLET_SECONDS = 1.6;

/** Lines that are shop furniture, not product facts. */
const NOT_A_FACT = /https?:|www\.|@|\b(?:sku|asin|item model|shipping|returns?|cart|checkout)\b|购物车|运费|退货|包邮/iu;

/**
 * Words that open a fragment, not a sentence: a preposition or a conjunction leaning on a sentence that is not
 * there ("On colder mornings.", "And it folds.", "Para o dia a dia.").
 */
const FRAGMENT: Record<Language, RegExp | undefined> = {
  en: /^(?:on|in|at|for|from|to|into|onto|of|by|when|while|whether|and|but|or|so|because|if|as|than|though|although|unlike|like|whereas|which|that|who|where)\b/iu,
  pt: /^(?:em|no|na|nos|nas|num|numa|para|pra|pro|por|pelo|pela|com|sem|quando|enquanto|e|mas|ou|porque|pois|se|como|do|da|dos|das|de|que|onde|qual)\b/iu,
  zh: undefined,
};

const bare = (text: string) => text.replace(/[\s,，、:：;；.。!！?？\-–—]+$/u, '').trim();

const asLine = (text: string, language: Language) => {
  const body = bare(text);
  return language === 'zh' ? `${body}。` : `${body.charAt(0).toUpperCase()}${body.slice(1)}.`;
};

/** Lower-cases a list item's first letter unless the word is an acronym or a name written in capitals ("USB", "4K"). */
const listItem = (text: string) => (/^\p{Lu}[\p{Lu}\d]/u.test(text) ? text : `${text.charAt(0).toLowerCase()}${text.slice(1)}`);

/** Short items said as one list: "Ribbed hem, standard fit and a drawcord hood." */
function joinList(items: string[], language: Language): string {
  if (language === 'zh') return `${items.map(bare).join('，')}。`;
  const parts = items.map((item, i) => (i === 0 ? bare(item) : listItem(bare(item))));
  const last = parts.pop() as string;
  return asLine(parts.length ? `${parts.join(', ')} ${language === 'pt' ? 'e' : 'and'} ${last}` : last, language);
}

/** A Chinese sentence too long for one breath, as clauses joined back up to one breath each. */
function chineseClauses(sentence: string): string[] {
  const lines: string[] = [];
  for (const clause of sentence.split(/(?<=[，；：])/u)) {
    const last = lines.at(-1);
    if (last !== undefined && speechSeconds(last + clause, 'zh') <= FACT_SECONDS.max) lines[lines.length - 1] = last + clause;
    else lines.push(clause);
  }
  return lines;
}

/** The parts of a sentence that can be said: itself, or (too long) its Chinese clauses or its parts around a colon or semicolon. */
function sayable(sentence: string, language: Language): string[] {
  if (speechSeconds(sentence, language) <= FACT_SECONDS.max) return [sentence];
  if (language === 'zh') return chineseClauses(sentence);
  // "Everything a desk needs in one box: a laptop, …": each side may stand alone; a lower-case start does not.
  return sentence
    .split(/[;:]\s+/u)
    .filter((part, i) => i === 0 || /^\p{Lu}|^\d/u.test(part))
    .filter((part) => speechSeconds(part, language) <= FACT_SECONDS.max);
}

/**
 * The product description's facts as lines a voice can say, best first: whole sentences (never a fragment cut
 * from one), short bullets said together as a list, facts with figures (sizes, hours, counts) before the rest
 * and otherwise in the seller's order. Empty when the description is in another language than the script,
 * because the local writer does not translate: `written` is its language when the page states it, else it is detected.
 */
export function productFacts(description: string, language: Language, written = detectLanguage(description)): string[] {
  if (!description.trim() || written !== language) return [];
  const fragment = FRAGMENT[language];
  const parts = sentences(description)
    .flatMap((sentence) => sayable(sentence, language))
    .map(bare)
    .filter((part) => part && !NOT_A_FACT.test(part) && !fragment?.test(part));
  const lines: string[] = [];
  let list: string[] = [];
  const endList = () => {
    if (list.length > 1 || (list.length === 1 && speechSeconds(list[0] as string, language) >= FACT_SECONDS.min * 0.6))
      lines.push(joinList(list, language));
    list = [];
  };
  for (const part of parts) {
    if (speechSeconds(part, language) < BULLET_SECONDS) {
      if (list.length > 0 && speechSeconds(joinList([...list, part], language), language) > LIST_SECONDS) endList();
      list.push(part);
      continue;
    }
    endList();
    lines.push(asLine(part, language));
  }
  endList();
  const seen = new Set<string>();
  return lines
    .filter((line) => {
      const key = line.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((fact, order) => ({ fact, order, figures: /\d/.test(fact) ? 1 : 0 }))
    .sort((a, b) => b.figures - a.figures || a.order - b.order)
    .map(({ fact }) => fact);
}

/**
 * A feature bullet without the heading shops put before it: Amazon's "SUPERIOR SOUND: …" in capitals, a Chinese
 * shop's "【超长续航】…"; a "Name: value" pair of schema.org's additionalProperty is kept whole.
 */
const BULLET_HEADING = /^(?:[\p{Lu}\d][\p{Lu}\d\s&'’/+-]{1,40}\s*[:：–—]|【[^】]{1,20}】)\s*(?=\S)/u;

/** The page's feature bullets as lines a voice can say, as `productFacts` says a description's. */
export function featureFacts(features: readonly string[], language: Language, written: Language): string[] {
  return productFacts(features.map((feature) => feature.replace(BULLET_HEADING, '')).join('\n'), language, written);
}
