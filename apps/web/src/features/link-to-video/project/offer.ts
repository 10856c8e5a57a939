import { type Locale, ProductOffer } from '@reelsmith/contract';
import type { Product } from './types';

/** The currencies offered first: where most of our sellers sell. The analysed one joins them when it is another. */
export const COMMON_CURRENCIES = ['USD', 'EUR', 'GBP', 'BRL', 'CNY', 'JPY', 'CAD', 'AUD', 'MXN', 'INR', 'HKD', 'KRW', 'SGD', 'CHF'];

/** The currency a product starts with when its page named none: the one of the seller's language. */
export const LOCALE_CURRENCY: Record<Locale, string> = { en: 'USD', zh: 'CNY', pt: 'BRL' };

/** The currency of a reader's language (i18n's), that of English for one we do not translate into. */
export const currencyOfLanguage = (language: string): string => LOCALE_CURRENCY[language as Locale] ?? LOCALE_CURRENCY.en;

export const currencyChoices = (current: string): string[] =>
  current && !COMMON_CURRENCIES.includes(current) ? [current, ...COMMON_CURRENCIES] : COMMON_CURRENCIES;

/**
 * An amount as typed, in the contract's form: spaces dropped, and a lone decimal comma ("54,90", as Brazil and
 * most of Europe write it) read as a point. Anything else is left as typed for the contract to judge.
 */
export function normalAmount(typed: string): string {
  const amount = typed.replace(/\s/g, '');
  return /^\d+,\d{1,2}$/.test(amount) ? amount.replace(',', '.') : amount;
}

/** The offer fields of the edit-product page. */
export type OfferField = 'productPrice' | 'productListPrice' | 'productCurrency';

/** What is wrong with one offer field, as a `link-to-video` message key. */
export type OfferProblems = Partial<Record<OfferField, string>>;

const FIELD_OF: Record<string, OfferField> = { price: 'productPrice', listPrice: 'productListPrice', currency: 'productCurrency' };
const MESSAGE_OF: Record<OfferField, string> = {
  productPrice: 'offer.priceInvalid',
  productListPrice: 'offer.listPriceInvalid',
  productCurrency: 'offer.currencyInvalid',
};

/**
 * The product's offer as link-video takes it, by the contract's own rules (ProductOffer), or what is wrong with
 * it field by field. No price is no offer (the video has no offer card), and then a price before the sale alone
 * is a mistake, not something to drop silently.
 */
export function offerOf(product: Pick<Product, OfferField>): { offer?: ProductOffer; problems: OfferProblems } {
  const price = normalAmount(product.productPrice ?? '');
  const listPrice = normalAmount(product.productListPrice ?? '');
  if (!price) return { problems: listPrice ? { productPrice: 'offer.priceMissing' } : {} };
  const parsed = ProductOffer.safeParse({ price, currency: product.productCurrency, ...(listPrice && { listPrice }) });
  if (parsed.success) return { offer: parsed.data, problems: {} };
  const problems: OfferProblems = {};
  for (const issue of parsed.error.issues) {
    const field = FIELD_OF[String(issue.path[0])];
    if (!field || problems[field]) continue;
    // The refinement (a custom issue) is the one rule between two fields: the sale must lower the price.
    problems[field] = issue.code === 'custom' ? 'offer.listPriceNotHigher' : MESSAGE_OF[field];
  }
  return { problems };
}

/** The first offer problem, for the message shown when generating; null when the offer is fine or absent. */
export const offerProblem = (product: Pick<Product, OfferField>): string | null => Object.values(offerOf(product).problems)[0] ?? null;
