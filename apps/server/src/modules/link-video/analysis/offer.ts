/**
 * The page's one price out of what its sources state (decision "Product offer"). Sources disagree where a theme
 * writes a stale regular price beside a sale, or a plugin the price of another variant; a price shown with a wrong
 * currency or a wrong sale on an ad is worse than none, so anything unsure gives no offer.
 */
import { ProductOffer } from '@reelsmith/contract';
import { cleanText, htmlToText } from './text.js';
import type { FoundOffer } from './types.js';

interface Priced extends FoundOffer {
  price: string;
}

/**
 * `stated` is in order of trust. The price most sources state wins, the most trusted breaking a tie; a price that
 * another source names as the price before its sale is that source's regular price, not the price. The currency is
 * the one the winning sources state (several: none), else the page's only one. The list price must be above the price.
 */
export function chooseOffer(stated: FoundOffer[]): ProductOffer | undefined {
  const priced = stated.filter((s): s is Priced => s.price !== undefined);
  const beforeSale = new Set(priced.flatMap((s) => (isAbove(s.listPrice, s.price) ? [Number(s.listPrice)] : [])));
  const current = priced.filter((s) => !beforeSale.has(Number(s.price)));
  const candidates = current.length ? current : priced;
  const votes = (s: Priced) => candidates.filter((other) => Number(other.price) === Number(s.price)).length;
  const winner = candidates.reduce<Priced | undefined>((best, s) => (best && votes(best) >= votes(s) ? best : s), undefined);
  if (!winner) return undefined;
  const agreeing = candidates.filter((s) => Number(s.price) === Number(winner.price));
  const currency = onlyOne(agreeing.flatMap((s) => s.currency ?? [])) ?? onlyOne(stated.flatMap((s) => s.currency ?? []));
  if (!currency) return undefined;
  const listPrice = agreeing.find((s) => (s.currency ?? currency) === currency && isAbove(s.listPrice, winner.price))?.listPrice;
  const offer = ProductOffer.safeParse({ price: winner.price, currency, ...(listPrice && { listPrice }) });
  return offer.success ? offer.data : undefined;
}

const isAbove = (listPrice: string | undefined, price: string) => listPrice !== undefined && Number(listPrice) > Number(price);

/** The value when all are the same, undefined when there are none or they differ. */
function onlyOne(values: string[]): string | undefined {
  const distinct = new Set(values);
  return distinct.size === 1 ? values[0] : undefined;
}

/** What link-video accepts as productBrand. */
const MAX_BRAND = 200;
/** What marketplaces write where a product has no brand. */
const NO_BRAND = new Set([
  'generic',
  'unbranded',
  'no brand',
  'none',
  'n/a',
  'na',
  'unknown',
  'does not apply',
  'sem marca',
  'genérico',
  'sin marca',
  'ohne marke',
  'sans marque',
  '无品牌',
  'ノーブランド品',
]);

/**
 * A brand as the end card can show it: entities decoded (JSON-LD often carries "&amp;"), whitespace collapsed.
 * Nothing for a placeholder, a link, or text too long to be a name (a description in the wrong field).
 */
export function brandName(raw: string | undefined): string | undefined {
  const brand = cleanText(htmlToText(raw));
  if (!brand || brand.length > MAX_BRAND || NO_BRAND.has(brand.toLowerCase()) || /^(https?:|www\.)/i.test(brand)) return undefined;
  return /[\p{L}\p{N}]/u.test(brand) ? brand : undefined;
}
