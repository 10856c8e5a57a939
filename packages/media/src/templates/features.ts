/**
 * The short lines the Feature list template shows, one per scene beside an icon: the description's own facts,
 * cut to what reads at a glance (about two seconds of speech), in the order the seller wrote them. Only what the
 * page says: decision "Ad templates".
 */
import { detectLanguage, type Language } from '../script/language.js';
import { speechSeconds } from '../script/rate.js';
import { sentences } from '../script/split.js';

/** A line read at a glance: longer facts are cut at commas, longer clauses dropped, shorter ones say nothing. */
const GLANCE = { min: 0.5, max: 2.4 };
/** Where a clause ends; a Chinese enumeration comma (、) lists, it does not end one. */
const CLAUSE = /[,，:：;；]/u;
/** Shop furniture, not product facts. */
const NOT_A_FEATURE = /https?:|www\.|@|\b(?:sku|asin|item model|shipping|returns?|cart|checkout)\b|购物车|运费|退货/iu;

/** Up to `max` feature lines from the description, in its language (none when it is in another). */
export function featureLines(description: string, language: Language, max = 8): string[] {
  if (!description.trim() || detectLanguage(description) !== language) return [];
  const seen = new Set<string>();
  const lines: string[] = [];
  // A whole sentence, or when it is too long its first clause: in English and Portuguese a later clause leans on
  // the words before it ("…keeps you warm on the bus, campus or cold mean streets"); Chinese clauses stand alone
  // ("久坐不紧绷，洗后不变形").
  const candidates = sentences(description).flatMap((s) => {
    if (speechSeconds(s, language) <= GLANCE.max) return [s];
    const parts = s.split(CLAUSE);
    return language === 'zh' ? parts : parts.slice(0, 1);
  });
  for (const candidate of candidates) {
    const line = candidate.replace(/[\s,，、:：;；.。!！?？-]+$/u, '');
    const seconds = speechSeconds(line, language);
    const key = line.toLowerCase();
    if (NOT_A_FEATURE.test(line) || seconds < GLANCE.min || seconds > GLANCE.max || seen.has(key)) continue;
    seen.add(key);
    lines.push(language === 'zh' ? line : `${line.charAt(0).toUpperCase()}${line.slice(1)}`);
    if (lines.length === max) break;
  }
  return lines;
}
