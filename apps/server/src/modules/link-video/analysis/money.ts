/**
 * Prices as shops write them, read into the contract's Amount ("1749.00") and an ISO 4217 code (decision "Product
 * offer"). Whatever could be read two ways reads as nothing: a wrong price on an ad is worse than none.
 */

import { elementsOf } from './elements.js';
import type { Page } from './types.js';

/**
 * How a value was written: for machines (schema.org's rule: "." is the decimal point, no grouping), or for people,
 * in the page's locale ("R$ 1.749,00", "1,749.00 USD", "1 749,00 €").
 */
export type AmountStyle = 'machine' | 'text';

/** Where a page is from, for the symbols several currencies share ("$", "¥", "kr"). */
export interface Place {
  /** ISO 3166 code, upper case: the host's country-code domain, else the region of the page's language. */
  country?: string | undefined;
  /** The page's language subtag, lower case ("pt", "zh"). */
  language?: string | undefined;
}

const MAX_INTEGER_DIGITS = 9;
/** Digits with the separators people put between them; a range or a second figure makes a second run. */
const NUMBER_RUN = /\d(?:[\d.,' ’]*\d)?/g;
/** A "from" price is the cheapest of several: the ad would show it as the price of them all. */
const FROM = /(?<!\p{L})(from|starting at|as low as|ab|a partir de|desde|à partir de|dès|vanaf)(?!\p{L})|起/iu;
/** A minus sign just before the figure, or before its currency ("-R$ 5", "- CHF 5"). */
const NEGATIVE = /[-−]\s*(?:[A-Z]{0,3}\p{Sc}|[A-Z]{3})?\s*$/u;

/** The amount `value` states, or undefined when it states none, several, a range, or one that could be read two ways. */
export function parseAmount(value: unknown, style: AmountStyle = 'machine'): string | undefined {
  if (typeof value === 'number') return fromNumber(value);
  if (typeof value !== 'string') return undefined;
  // Full-width digits and yen signs, no-break and thin spaces (French grouping) become their plain forms.
  const text = value.normalize('NFKC');
  const runs = [...text.matchAll(NUMBER_RUN)];
  const run = runs[0];
  if (runs.length !== 1 || !run || FROM.test(text)) return undefined;
  // "-5", and ".99" whose point the run left out.
  const before = text.slice(0, run.index);
  if (NEGATIVE.test(before) || /[.,]$/.test(before)) return undefined;
  return fromDigits(run[0], style);
}

/** Shopify's `/products/<handle>.js` states prices in cents: 12900 is "129.00". */
export const amountFromCents = (cents: unknown) =>
  typeof cents === 'number' && Number.isSafeInteger(cents) && cents > 0
    ? checked(String(Math.floor(cents / 100)), String(cents % 100).padStart(2, '0'))
    : undefined;

function fromNumber(value: number): string | undefined {
  const cents = Math.round(value * 100);
  if (!(value > 0 && value < 10 ** MAX_INTEGER_DIGITS) || Math.abs(value * 100 - cents) > 1e-6) return undefined;
  return checked(String(Math.floor(cents / 100)), cents % 100 ? String(cents % 100).padStart(2, '0') : '');
}

function fromDigits(run: string, style: AmountStyle): string | undefined {
  const decimalAt = decimalPoint(run, style);
  if (decimalAt === null) return undefined;
  const integer = groupedDigits(decimalAt < 0 ? run : run.slice(0, decimalAt));
  const fraction = decimalAt < 0 ? '' : run.slice(decimalAt + 1);
  if (integer === undefined || !/^\d*$/.test(fraction)) return undefined;
  // Cents at most: "19.9900" is 19.99, "19.995" no price the contract can hold.
  if (/[^0]/.test(fraction.slice(2))) return undefined;
  return checked(integer, fraction.slice(0, 2).padEnd(fraction ? 2 : 0, '0'));
}

/**
 * Where the decimal point is: -1 for none, null when it cannot be told. With both marks the last one is; a single
 * mark before 1–2 or 4+ digits is; "1,749" groups thousands; "1.749" does in text (3-decimal prices are not shown
 * to people) but is 1.749 to schema.org and 1749 to the Brazilian or German shop that wrote it there, so nothing.
 */
function decimalPoint(run: string, style: AmountStyle): number | null {
  const dot = run.lastIndexOf('.');
  const comma = run.lastIndexOf(',');
  if (dot >= 0 && comma >= 0) return Math.max(dot, comma);
  const at = Math.max(dot, comma);
  if (at < 0 || run.indexOf(run.charAt(at)) !== at) return -1;
  if (run.length - at - 1 !== 3 || groupedDigits(run) === undefined) return at;
  return style === 'machine' && run.charAt(at) === '.' ? null : -1;
}

/** The digits of an integer part whose groups are well formed (1,749,000 or India's 1,49,999), else undefined. */
function groupedDigits(integer: string): string | undefined {
  if (/^\d+$/.test(integer)) return integer;
  const marks = new Set(integer.replace(/\d/g, '').replace(/’/g, "'"));
  const [first = '', ...rest] = integer.split(/[.,' ’]/);
  if (marks.size !== 1 || !/^[1-9]/.test(first)) return undefined;
  const last = rest.at(-1) ?? '';
  const western = first.length <= 3 && rest.every((group) => group.length === 3);
  const indian = marks.has(',') && first.length <= 2 && last.length === 3 && rest.slice(0, -1).every((group) => group.length === 2);
  return western || indian ? first + rest.join('') : undefined;
}

/** Zero, and anything from a billion up, is no price: a placeholder or a misread. */
function checked(integer: string, fraction: string): string | undefined {
  const digits = integer.replace(/^0+(?=\d)/, '');
  if (digits.length > MAX_INTEGER_DIGITS || !/[1-9]/.test(digits + fraction)) return undefined;
  return fraction ? `${digits}.${fraction}` : digits;
}

const ISO_CODES = new Set(Intl.supportedValuesOf('currency'));

type Resolve = (place: Place) => string | undefined;

const byCountry =
  (currencies: Record<string, string>, languages: Record<string, string> = {}): Resolve =>
  ({ country, language }) =>
    country ? currencies[country] : languages[language ?? ''];

/** The country is needed for "$": a language alone does not say which dollar. */
const dollar = byCountry({ US: 'USD', CA: 'CAD', AU: 'AUD', NZ: 'NZD', SG: 'SGD', HK: 'HKD', MX: 'MXN', AR: 'ARS', CL: 'CLP', TW: 'TWD' });
const yen = byCountry({ JP: 'JPY', CN: 'CNY' }, { ja: 'JPY', zh: 'CNY' });
const krona = byCountry(
  { SE: 'SEK', NO: 'NOK', DK: 'DKK', IS: 'ISK' },
  { sv: 'SEK', nb: 'NOK', nn: 'NOK', no: 'NOK', da: 'DKK', is: 'ISK' },
);

/** Longest first, so "R$" is not read as "$". Letters count only as a word of their own ("kr", not "Kraft"). */
const SYMBOLS: [string, string | Resolve][] = [
  ['人民币', 'CNY'],
  ['R$', 'BRL'],
  ['US$', 'USD'],
  ['CA$', 'CAD'],
  ['AU$', 'AUD'],
  ['NZ$', 'NZD'],
  ['HK$', 'HKD'],
  ['MX$', 'MXN'],
  ['NT$', 'TWD'],
  ['A$', 'AUD'],
  ['S$', 'SGD'],
  ['RMB', 'CNY'],
  ['zł', 'PLN'],
  ['Kč', 'CZK'],
  ['kr', krona],
  ['€', 'EUR'],
  ['£', 'GBP'],
  ['₹', 'INR'],
  ['₩', 'KRW'],
  ['₺', 'TRY'],
  ['₽', 'RUB'],
  ['₱', 'PHP'],
  ['₫', 'VND'],
  ['₪', 'ILS'],
  ['₴', 'UAH'],
  ['฿', 'THB'],
  ['円', 'JPY'],
  ['元', 'CNY'],
  ['$', dollar],
  ['¥', yen],
];

const literal = (text: string) => text.replace(/[$]/g, '\\$');
const SYMBOL_PATTERNS = SYMBOLS.map(([symbol, currency]) => ({
  pattern: new RegExp(/\p{L}/u.test(symbol.charAt(0)) ? `(?<!\\p{L})${literal(symbol)}(?!\\p{L})` : literal(symbol), 'gu'),
  currency,
}));

/**
 * The ISO 4217 code `value` names: a code ("usd", "BRL"), or the one currency the symbols and codes in a price's text
 * ("R$ 59,90", "59,90 €", "EUR 24") stand for. A shared symbol counts only where `place` tells which currency it is.
 */
export function currencyOf(value: unknown, place: Place): string | undefined {
  if (typeof value !== 'string') return undefined;
  let text = value.normalize('NFKC').trim();
  if (/^[a-z]{3}$/i.test(text)) return ISO_CODES.has(text.toUpperCase()) ? text.toUpperCase() : undefined;
  const named = new Set<string>();
  const shared = new Set<Resolve>();
  for (const { pattern, currency } of SYMBOL_PATTERNS) {
    text = text.replace(pattern, () => {
      if (typeof currency === 'string') named.add(currency);
      else shared.add(currency);
      return ' ';
    });
  }
  for (const [code] of text.matchAll(/(?<!\p{L})[A-Z]{3}(?!\p{L})/gu)) if (ISO_CODES.has(code)) named.add(code);
  if (named.size) return named.size === 1 ? [...named][0] : undefined;
  const guessed = new Set([...shared].map((resolve) => resolve(place)));
  return guessed.size === 1 ? [...guessed][0] : undefined;
}

/** Country-code domains that are sold as generic names (.co, .io…) say nothing about where a shop is. */
const GENERIC_COUNTRY_DOMAINS = new Set(['co', 'io', 'me', 'tv', 'ai', 'fm', 'ly', 'gg', 'to', 'so', 'sh', 'cc', 'ws', 'eu', 'su']);

/** The page's place: its host's country-code domain, else its language's region (`<html lang>`, og:locale). */
export function placeOf({ $, location }: Page): Place {
  const ogLocale = elementsOf($, 'meta').find((meta) => meta.attribs.property === 'og:locale')?.attribs.content;
  const tag = (elementsOf($, 'html')[0]?.attribs.lang || ogLocale || '').trim().replace(/_/g, '-');
  const locale = localeOf(tag);
  return { country: countryOfHost(location) ?? locale?.region, language: locale?.language.toLowerCase() };
}

export function countryOfHost(url: string): string | undefined {
  const tld = hostOf(url).split('.').at(-1) ?? '';
  if (!/^[a-z]{2}$/.test(tld) || GENERIC_COUNTRY_DOMAINS.has(tld)) return undefined;
  return tld === 'uk' ? 'GB' : tld.toUpperCase();
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

function localeOf(tag: string): Intl.Locale | undefined {
  try {
    return tag ? new Intl.Locale(tag) : undefined;
  } catch {
    return undefined;
  }
}
