/**
 * The price and brand of a schema.org Product, read alike from JSON-LD and from microdata (whose items microdata.ts
 * turns into the same nodes): `offers` as one Offer or many, an AggregateOffer, a `priceSpecification` whose
 * StrikethroughPrice or ListPrice is the price before the sale, a ProductGroup's offers on its variants.
 */

import type { ProductRating } from '@reelsmith/contract';
import { availabilityOf, bestAvailability, distinctTexts, MAX_FEATURES, MAX_MATERIALS, MAX_VARIANTS } from '../facts.js';
import { asArray, isObject as isNode, type JsonObject as Node } from '../json.js';
import { currencyOf, type Place, parseAmount } from '../money.js';
import type { FoundFacts, FoundOffer } from '../types.js';

/** A value microdata took from an element's text: written for people, in the page's locale, maybe with its symbol. */
export class VisibleText {
  constructor(readonly text: string) {}
}

export interface Reading {
  place: Place;
  /** The page's own URL: of several offers at different prices, the one for this URL is the page's. */
  pageUrl: string;
  /** A node itself for an `{"@id"}` reference to it. */
  resolve: (value: unknown) => unknown;
}

interface Stated extends FoundOffer {
  url?: string | undefined;
}

/**
 * The product's one offer, or its variants' when it prices none itself (a ProductGroup's, or one whose AggregateOffer
 * is a range); undefined for several at different prices.
 */
export function productOffer(product: Node, variants: Node[], reading: Reading): FoundOffer | undefined {
  const own = offersOf(product, reading).filter((s) => s.price);
  const stated = own.length ? own : variants.flatMap((variant) => offersOf(variant, reading)).filter((s) => s.price);
  const [first] = stated;
  if (!first) return undefined;
  const same = stated.every((s) => Number(s.price) === Number(first.price) && s.currency === first.currency);
  // Offers per variant or per seller: the page's price is the one of the variant its URL names, if any.
  const pageUrl = withoutHash(reading.pageUrl, reading.pageUrl);
  const chosen = same ? first : stated.find((s) => s.url !== undefined && s.url === pageUrl);
  if (!chosen) return undefined;
  const listPrice = (same ? stated : [chosen]).find((s) => s.listPrice)?.listPrice;
  return { price: chosen.price, currency: chosen.currency, listPrice };
}

/** The brand's name: a string, a Brand or Organization, or a reference to one. */
export function productBrand(product: Node, variants: Node[], { resolve }: Reading): string | undefined {
  for (const brand of [product, ...variants].flatMap((node) => asArray(node.brand).map(resolve))) {
    const name = brand instanceof VisibleText || !isNode(brand) ? textOf(brand) : textOf(brand.name);
    if (name?.trim()) return name;
  }
  return undefined;
}

/**
 * The product's AggregateRating as stars out of 5: its ratingValue scaled by bestRating (10 and 100 point scales
 * exist), and reviewCount or ratingCount. A rating without a count says nothing a script may repeat.
 */
export function productRating(product: Node, variants: Node[], { resolve }: Reading): ProductRating | undefined {
  for (const aggregate of [product, ...variants].flatMap((node) => asArray(node.aggregateRating).map(resolve))) {
    if (!isNode(aggregate)) continue;
    const value = numberOf(aggregate.ratingValue);
    const best = numberOf(aggregate.bestRating) ?? 5;
    const count = numberOf(aggregate.reviewCount, true) ?? numberOf(aggregate.ratingCount, true);
    if (value === undefined || count === undefined || !(best > 0) || value < 0 || value > best || !Number.isInteger(count) || count < 1)
      continue;
    return { value: Math.round((value / best) * 5 * 10) / 10, count };
  }
  return undefined;
}

/**
 * Availability from the offers (in stock if any offer or variant is), the materials, the sizes and colours of the
 * product and its variants, and `additionalProperty` name–value pairs as features ("Capacity: 1 L").
 */
export function productFacts(product: Node, variants: Node[], { resolve }: Reading): FoundFacts {
  const nodes = [product, ...variants];
  const offers = nodes
    .flatMap((node) => asArray(node.offers).map(resolve).filter(isNode))
    .flatMap((offer) => [offer, ...asArray(offer.offers).map(resolve).filter(isNode)]);
  const named = (value: unknown) => (isNode(value) ? textOf(value.name) : textOf(value));
  const properties = asArray(product.additionalProperty).map(resolve).filter(isNode);
  return {
    availability: bestAvailability(offers.map((offer) => availabilityOf(textOf(offer.availability)))),
    materials: distinctTexts(asArray(product.material).map(named), MAX_MATERIALS),
    variants: distinctTexts(
      nodes.flatMap((node) => [...asArray(node.size), ...asArray(node.color)].map(named)),
      MAX_VARIANTS,
    ),
    features: distinctTexts(
      properties.map((property) => {
        const [name, value] = [textOf(property.name), textOf(property.value)];
        return name && value ? `${name}: ${value}` : undefined;
      }),
      MAX_FEATURES,
    ),
  };
}

/**
 * A number as schema.org writes one: a JSON number or text. A count is whole, so its separators group thousands
 * ("1,234", "1.234"); a rating's one separator is its decimal point ("4.6", "4,6").
 */
function numberOf(value: unknown, whole = false): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  const text = textOf(value)?.trim();
  if (!text) return undefined;
  const number = Number(whole ? text.replace(/[,.\s\u00a0]/gu, '') : text.replace(',', '.'));
  return text && Number.isFinite(number) ? number : undefined;
}

function offersOf(product: Node, reading: Reading): Stated[] {
  const url = textOf(product.url);
  return asArray(product.offers)
    .map(reading.resolve)
    .filter(isNode)
    .flatMap((offer) => {
      const nested = asArray(offer.offers).map(reading.resolve).filter(isNode);
      const stated = offerOf(offer, reading, url);
      // An AggregateOffer that gives a range may still list its offers.
      return stated.price || !nested.length ? [stated] : nested.map((n) => offerOf(n, reading, url));
    });
}

/** priceType values that name the price before a sale (schema.org's URLs, bare names, the older MSRP). */
const LIST_PRICE = /(^|[/:])(StrikethroughPrice|ListPrice|MSRP|SRP)$/i;
const SALE_PRICE = /(^|[/:])SalePrice$/i;

function offerOf(offer: Node, reading: Reading, productUrl: string | undefined): Stated {
  const specs = asArray(offer.priceSpecification)
    .map(reading.resolve)
    .filter(isNode)
    // A price per kilogram or per 100 ml is not the product's price.
    .filter((spec) => spec.referenceQuantity === undefined);
  const typeOf = (spec: Node) => textOf(spec.priceType) ?? '';
  const listSpec = specs.find((spec) => LIST_PRICE.test(typeOf(spec)));
  const priceSpec = specs.find((spec) => !typeOf(spec) || SALE_PRICE.test(typeOf(spec)));
  // Microdata's price may be text with its symbol ("R$ 59,90") where no priceCurrency is given.
  const currency = (node: Node | undefined) => {
    const price = asArray(node?.price)[0];
    return (
      currencyOf(textOf(node?.priceCurrency), reading.place) ??
      (price instanceof VisibleText ? currencyOf(price.text, reading.place) : undefined)
    );
  };
  const price = singlePrice(offer) ?? amountOf(priceSpec?.price);
  const offerCurrency = currency(offer) ?? currency(priceSpec);
  const listCurrency = currency(listSpec) ?? offerCurrency;
  const url = textOf(offer.url) ?? productUrl;
  return {
    price,
    currency: offerCurrency,
    listPrice: listCurrency === offerCurrency ? amountOf(listSpec?.price) : undefined,
    url: url === undefined ? undefined : withoutHash(url, reading.pageUrl),
  };
}

/**
 * An Offer's price; an AggregateOffer's only when it is one price (its `price`, or a lowest price that is also the
 * highest or the only offer's). A range, or a lowest price alone, is a "from" price: nothing (decision "Product offer").
 */
function singlePrice(offer: Node): string | undefined {
  const low = amountOf(offer.lowPrice);
  const high = amountOf(offer.highPrice);
  if (low && high && Number(low) !== Number(high)) return undefined;
  return amountOf(offer.price) ?? (low && (high || Number(textOf(offer.offerCount) ?? offer.offerCount) === 1) ? low : undefined);
}

const amountOf = (value: unknown) => {
  const first = asArray(value)[0];
  return first instanceof VisibleText ? parseAmount(first.text, 'text') : parseAmount(isNode(first) ? first['@value'] : first);
};

function withoutHash(url: string, base: string): string | undefined {
  try {
    const parsed = new URL(url, base);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return undefined;
  }
}

/** A string, or the @value of a language-tagged one, or the first of a list, or the text microdata read. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof VisibleText) return value.text;
  if (Array.isArray(value)) return textOf(value[0]);
  if (isNode(value)) return textOf(value['@value']);
  return undefined;
}
