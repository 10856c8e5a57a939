/**
 * Prices as an ad in each language writes them: the currency's own symbol and the language's digits and
 * separators ("$54.00", "¥259.00", "R$ 59,90"), and a sale's discount as a whole percentage.
 */
import type { Language } from './language.js';

const LOCALE: Record<Language, string> = { en: 'en-US', zh: 'zh-CN', pt: 'pt-BR' };

/** Refuses what is not a price, naming it: a card must never show "NaN" or a negative amount. */
function amount(value: string): number {
  const number = Number(value);
  if (!value.trim() || !Number.isFinite(number) || number < 0)
    throw new RangeError(`price must be an amount such as 54.90, not ${JSON.stringify(value)}`);
  return number;
}

/** `value` (an amount such as "59.90") in ISO 4217 `currency`, formatted for `language`. */
export function formatPrice(value: string, currency: string, language: Language, options: Intl.NumberFormatOptions = {}): string {
  if (!/^[A-Z]{3}$/.test(currency)) throw new RangeError(`currency must be a code such as USD, not ${JSON.stringify(currency)}`);
  return new Intl.NumberFormat(LOCALE[language], { style: 'currency', currency, ...options }).format(amount(value));
}

/** The discount from `listPrice` to `price` in whole percent (20 for 80 instead of 100); 0 when there is none. */
export function discountPercent(price: string, listPrice: string | undefined): number {
  if (listPrice === undefined) return 0;
  const list = amount(listPrice);
  if (list <= 0) return 0;
  return Math.max(0, Math.round((1 - amount(price) / list) * 100));
}

/** A price as a voice says it and a caption shows it: whole amounts without their ".00" ("$54", "R$ 59,90"). */
export const spokenPrice = (value: string, currency: string, language: Language): string =>
  formatPrice(value, currency, language, Number.isInteger(amount(value)) ? { maximumFractionDigits: 0 } : {});
