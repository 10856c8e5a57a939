/**
 * schema.org Product in JSON-LD, the richest source on most shops: found at the top, in arrays, in @graph, or
 * nested (an Offer's itemOffered, a page's mainEntity), with images as strings, ImageObjects or @id references.
 */

import { inlineScripts } from '../elements.js';
import { asArray, isObject as isNode, type JsonObject as Node, parseLenient } from '../json.js';
import { placeOf } from '../money.js';
import { cleanText, htmlToText } from '../text.js';
import { type Found, nothingFound, type Page } from '../types.js';
import { productBrand, productFacts, productOffer, productRating, type Reading, textOf } from './schemaOrg.js';

const MAX_DEPTH = 8;

export function fromJsonLd(page: Page): Found {
  const { $ } = page;
  const roots = $(inlineScripts($, 'application/ld+json'))
    .toArray()
    .map((script) => parseLenient($(script).text()));
  const byId = new Map<string, Node>();
  const products: Node[] = [];
  for (const root of roots) collect(root, byId, products, 0);
  const product = products.find((p) => cleanText(textOf(p.name))) ?? products[0];
  if (!product) return nothingFound();
  const resolve = (value: unknown) => (isNode(value) && typeof value['@id'] === 'string' && byId.get(value['@id'])) || value;
  // A ProductGroup's pictures may be on its variants only.
  const variants = asArray(product.hasVariant).map(resolve).filter(isNode);
  const reading: Reading = { place: placeOf(page), pageUrl: page.location, resolve };
  return {
    name: cleanText(textOf(product.name)),
    description: htmlToText(textOf(product.description)),
    images: [product, ...variants].flatMap((p) => asArray(p.image).flatMap((image) => imageUrls(resolve(image)))),
    videos: [...asArray(product.video), ...asArray(product.subjectOf)].flatMap((video) => videoUrls(resolve(video))),
    offer: productOffer(product, variants, reading),
    brand: productBrand(product, variants, reading),
    rating: productRating(product, variants, reading),
    facts: productFacts(product, variants, reading),
  };
}

function collect(value: unknown, byId: Map<string, Node>, products: Node[], depth: number) {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, byId, products, depth + 1);
    return;
  }
  if (!isNode(value)) return;
  if (typeof value['@id'] === 'string' && Object.keys(value).length > 1) byId.set(value['@id'], value);
  if (isProduct(value)) products.push(value);
  for (const [key, child] of Object.entries(value)) {
    // A product's variants are read with it, not as products of their own.
    if (!(isProduct(value) && key === 'hasVariant')) collect(child, byId, products, depth + 1);
  }
}

const PRODUCT_TYPES = new Set(['product', 'productgroup', 'individualproduct', 'productmodel', 'vehicle', 'car']);

function isProduct(node: Node): boolean {
  // "Product", "schema:Product" or "http://schema.org/Product".
  return asArray(node['@type']).some((type) => typeof type === 'string' && PRODUCT_TYPES.has(type.replace(/^.*[/:]/, '').toLowerCase()));
}

function imageUrls(image: unknown): string[] {
  if (typeof image === 'string') return [image];
  if (!isNode(image)) return [];
  const url = textOf(image.contentUrl) ?? textOf(image.url);
  return url ? [url] : [];
}

function videoUrls(video: unknown): string[] {
  if (!isNode(video)) return [];
  const url = textOf(video.contentUrl);
  return url ? [url] : [];
}
