/**
 * OpenGraph and Twitter card tags: nearly every shop has them for link previews, so they name the product and
 * its main picture even where nothing richer exists; product pages add the price (`product:price:*`, `og:price:*`,
 * Facebook's catalogue tags `product:sale_price:*` and `product:original_price:*`) and the brand.
 */
import type { CheerioAPI } from 'cheerio';
import { elementsOf } from '../elements.js';
import { availabilityOf } from '../facts.js';
import { currencyOf, parseAmount, placeOf } from '../money.js';
import { cleanText } from '../text.js';
import type { Found, FoundOffer, Page } from '../types.js';

interface MetaTag {
  name: string;
  content: string | undefined;
}

/** A page's meta tags, read once per parsed page: a source asks for a dozen names, and each walk of a 3 MB page costs. */
const tagsOf = new WeakMap<CheerioAPI, MetaTag[]>();

function metaTags($: CheerioAPI): MetaTag[] {
  let tags = tagsOf.get($);
  if (!tags) {
    tags = elementsOf($, 'meta').map((meta) => ({
      name: (meta.attribs.property ?? meta.attribs.name ?? meta.attribs.itemprop ?? '').toLowerCase(),
      content: meta.attribs.content,
    }));
    tagsOf.set($, tags);
  }
  return tags;
}

/** Every value of the meta tags named, in the order of the names (property= for OpenGraph, name= for Twitter; pages mix them up). */
export function metaValues($: CheerioAPI, ...names: string[]): string[] {
  const tags = metaTags($);
  return names.flatMap((name) => tags.filter((tag) => tag.name === name).flatMap((tag) => cleanText(tag.content) ?? []));
}

export function fromMetaTags(page: Page): Found {
  const { $ } = page;
  const videoType = metaValues($, 'og:video:type')[0];
  // og:video is often a player page (text/html); only a video file can be imported, and isVideoFile checks the rest.
  const videos = videoType && !videoType.startsWith('video/') ? [] : metaValues($, 'og:video:secure_url', 'og:video:url', 'og:video');
  return {
    name: metaValues($, 'og:title', 'twitter:title')[0],
    description: metaValues($, 'og:description', 'twitter:description')[0],
    images: metaValues($, 'og:image:secure_url', 'og:image:url', 'og:image', 'twitter:image', 'twitter:image:src'),
    videos: [...videos, ...metaValues($, 'twitter:player:stream')],
    offer: offer(page),
    brand: metaValues($, 'product:brand', 'og:brand')[0],
    facts: { availability: availabilityOf(metaValues($, 'product:availability', 'og:availability')[0]) },
  };
}

/**
 * With a sale price, the sale price is the price and the regular one the price before it, unless an original
 * price is named. A tag given twice with different amounts (one per variant) gives nothing.
 */
function offer(page: Page): FoundOffer {
  const place = placeOf(page);
  const stated = (...prefixes: string[]) => {
    const amounts = new Set(metaValues(page.$, ...prefixes.map((p) => `${p}:amount`)).map((a) => parseAmount(a)));
    const currencies = new Set(metaValues(page.$, ...prefixes.map((p) => `${p}:currency`)).map((c) => currencyOf(c, place)));
    return { amount: amounts.size === 1 ? [...amounts][0] : undefined, currency: currencies.size === 1 ? [...currencies][0] : undefined };
  };
  const sale = stated('product:sale_price');
  const regular = stated('product:price', 'og:price');
  const original = stated('product:original_price');
  const price = sale.amount ? sale : regular;
  const before = original.amount ? original : sale.amount ? regular : undefined;
  const currency = price.currency ?? stated('product:sale_price', 'product:price', 'og:price', 'product:original_price').currency;
  return {
    price: price.amount,
    currency,
    listPrice: before && (before.currency ?? currency) === currency ? before.amount : undefined,
  };
}
