/**
 * Link analysis's reading of a page: the product's name, description, pictures, videos, price and brand, from every
 * source of product data a shop may write, the more precise first. Pure: the page is given, nothing is fetched.
 */
import { load } from 'cheerio';
import { decodePage } from './decode.js';
import { elementsOf } from './elements.js';
import { mergeFacts, pageLanguage } from './facts.js';
import { productImages } from './images.js';
import { isVideoFile, mediaIdentity, resolveUrl } from './mediaUrls.js';
import { chooseName, pageCandidates, siteNames } from './name.js';
import { brandName, chooseOffer } from './offer.js';
import { fromAmazon } from './sources/amazon.js';
import { fromJsonLd } from './sources/jsonLd.js';
import { fromMetaTags } from './sources/metaTags.js';
import { fromMicrodata } from './sources/microdata.js';
import { pageDescription, pageVideos } from './sources/page.js';
import { fromShopify } from './sources/shopify.js';
import { truncate } from './text.js';
import type { ExtractedProduct, Found, Page } from './types.js';

/** In order of trust: structured data the shop writes for machines, then the site's own JSON… */
const STRUCTURED = [fromJsonLd, fromShopify, fromAmazon, fromMicrodata];
/** …then link previews. */
const SOURCES = [...STRUCTURED, fromMetaTags];
/** What link-video accepts as productName and productDescription. */
const MAX_NAME = 500;
const MAX_DESCRIPTION = 10_000;

/**
 * The product on the page at `pageUrl` (whose host tells a marketplace's currency). `html` as bytes is decoded as a
 * browser would (decode.ts). A name taken only from the page's heading or
 * title needs a picture beside it to count: every page has a title, and a page without product data or pictures is
 * not a product. The page's body is not searched for prices: without product data, a figure beside a currency sign
 * may be a delivery fee or another product's (decision "Product offer").
 */
export function extractProduct(html: string | Buffer, pageUrl: string, contentType?: string): ExtractedProduct {
  // htmlparser2 rather than parse5: twice as fast on a 3 MB page, and a product page's tags need no tree repair.
  const $ = load(typeof html === 'string' ? html : decodePage(html, contentType), { xml: { xmlMode: false, decodeEntities: true } });
  const page: Page = {
    $,
    url: resolveUrl(elementsOf($, 'base').find((base) => base.attribs.href)?.attribs.href, pageUrl) ?? pageUrl,
    location: pageUrl,
  };
  const found = SOURCES.map((source) => source(page));
  const images = productImages(page, found, STRUCTURED.length);
  const structured = found.slice(0, STRUCTURED.length).map((f) => f.name);
  const { preview, heading, title } = pageCandidates($);
  // Every page has a heading and a title: without a picture beside them they name no product.
  const name = chooseName(images.length ? { structured, preview, heading, title } : { structured, preview }, siteNames($, pageUrl));
  const offer = chooseOffer(found.flatMap((f) => f.offer ?? []));
  const brand = found.map((f) => brandName(f.brand)).find((b) => b !== undefined);
  const rating = found.find((f) => f.rating)?.rating;
  const facts = mergeFacts(
    found.map((f) => f.facts),
    pageLanguage($),
  );
  return {
    name: truncate(name ?? '', MAX_NAME),
    description: truncate(firstOf(found, 'description') ?? pageDescription($) ?? '', MAX_DESCRIPTION),
    images,
    videos: distinct([...found.flatMap((f) => f.videos), ...pageVideos($)], page.url).filter(isVideoFile),
    ...(offer && { offer }),
    ...(brand && { brand }),
    ...(rating && { rating }),
    ...(facts && { facts }),
  };
}

/** No name and no picture: the page describes no product (a search, a category, an error page). */
export const hasProduct = (product: ExtractedProduct) => product.name !== '' || product.images.length > 0;

const firstOf = (found: Found[], field: 'name' | 'description') => found.find((f) => f[field])?.[field];

/** Absolute URLs in first-seen order, one per video however many sizes of it the page names. */
function distinct(urls: string[], base: string): string[] {
  const seen = new Map<string, string>();
  for (const url of urls) {
    const absolute = resolveUrl(url, base);
    if (absolute && !seen.has(mediaIdentity(absolute))) seen.set(mediaIdentity(absolute), absolute);
  }
  return [...seen.values()];
}
