/**
 * The product's facts beside its name, price and pictures (issue "Link analysis on real shops"): availability,
 * feature bullets, materials, sizes and colours, and the page's language. Each source states what it can
 * (types.ts `FoundFacts`); the most trusted source that states a fact gives it.
 */
import type { ProductAvailability, ProductFacts } from '@reelsmith/contract';
import type { CheerioAPI } from 'cheerio';
import { elementsOf } from './elements.js';
import { cleanText } from './text.js';
import type { FoundFacts } from './types.js';

/** What the contract takes of each list (ProductFacts). */
export const MAX_FEATURES = 12;
export const MAX_MATERIALS = 6;
export const MAX_VARIANTS = 24;

/**
 * schema.org ItemAvailability (a URL, a bare name) and the words shops write in meta tags and buy boxes, folded into
 * four: can be bought now, a few left, to be ordered ahead, cannot be bought.
 */
export function availabilityOf(value: unknown): ProductAvailability | undefined {
  if (typeof value === 'boolean') return value ? 'inStock' : 'outOfStock';
  if (typeof value !== 'string') return undefined;
  const name = value
    .replace(/^.*[/:#]/, '')
    .replace(/[\s_-]/g, '')
    .toLowerCase();
  if (/^(instock|onlineonly|instoreonly|available|instocknow|emestoque|有货|现货)$/.test(name)) return 'inStock';
  if (/^(limitedavailability|lowstock|fewleft)$/.test(name)) return 'limited';
  if (/^(preorder|presale|backorder)$/.test(name)) return 'preOrder';
  if (/^(outofstock|soldout|discontinued|unavailable|esgotado|indisponível|缺货|售罄)$/.test(name)) return 'outOfStock';
  return undefined;
}

/** Of several offers or variants: in stock if any is, else the first stated. */
export function bestAvailability(values: (ProductAvailability | undefined)[]): ProductAvailability | undefined {
  const stated = values.filter((value): value is ProductAvailability => value !== undefined);
  return stated.includes('inStock') ? 'inStock' : stated[0];
}

/** Distinct cleaned texts, in order, at most `max`. */
export function distinctTexts(values: unknown[], max: number): string[] | undefined {
  const seen = new Map<string, string>();
  for (const value of values) {
    const text = cleanText(typeof value === 'number' ? String(value) : value);
    if (text && !seen.has(text.toLowerCase())) seen.set(text.toLowerCase(), text);
  }
  const texts = [...seen.values()].slice(0, max);
  return texts.length ? texts : undefined;
}

/** The page's language: `<html lang>`, the Content-Language meta, og:locale ("pt-BR" → "pt"). */
export function pageLanguage($: CheerioAPI): string | undefined {
  const declared = [
    elementsOf($, 'html')[0]?.attribs.lang,
    ...elementsOf($, 'meta')
      .filter((meta) => {
        const name = (meta.attribs.property ?? meta.attribs.name ?? meta.attribs['http-equiv'] ?? '').toLowerCase();
        return name === 'content-language' || name === 'og:locale' || name === 'language';
      })
      .map((meta) => meta.attribs.content),
  ];
  for (const tag of declared) {
    const primary = /^\s*([a-z]{2,3})(?:[-_]|$)/i.exec(tag ?? '')?.[1]?.toLowerCase();
    if (primary) return primary;
  }
  return undefined;
}

/** Each fact from the first source that states it, in the sources' order of trust. */
export function mergeFacts(found: (FoundFacts | undefined)[], language: string | undefined): ProductFacts | undefined {
  const first = <K extends keyof FoundFacts>(key: K) => found.find((facts) => facts?.[key] !== undefined)?.[key];
  const facts: ProductFacts = {
    ...optional('availability', first('availability')),
    ...optional('features', first('features')),
    ...optional('materials', first('materials')),
    ...optional('variants', first('variants')),
    ...optional('language', language),
  };
  return Object.keys(facts).length ? facts : undefined;
}

const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));
