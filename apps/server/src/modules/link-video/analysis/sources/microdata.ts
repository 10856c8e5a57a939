/**
 * schema.org Product in microdata (itemscope/itemprop), as older shop platforms (Magento, PrestaShop, many
 * WooCommerce themes) write it.
 */
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { microdataItems } from '../elements.js';
import type { JsonObject } from '../json.js';
import { largestInSrcset } from '../mediaUrls.js';
import { placeOf } from '../money.js';
import { cleanLines, cleanText } from '../text.js';
import { type Found, nothingFound, type Page } from '../types.js';
import { visibleText } from '../visibleText.js';
import { productBrand, productFacts, productOffer, productRating, type Reading, VisibleText } from './schemaOrg.js';

/** Items nested deeper than this (product → offer → price specification → …) say nothing about the price. */
const MAX_DEPTH = 4;

export function fromMicrodata(page: Page): Found {
  const { $ } = page;
  const scope = $(
    microdataItems($)
      .filter((element) => /schema\.org\/(Product|ProductGroup|IndividualProduct)$/i.test(element.attribs.itemtype ?? ''))
      .slice(0, 1),
  );
  if (!scope.length) return nothingFound();
  const props = (name: string) => ownProps($, scope, name);
  return {
    // A name written as the heading's text is read as a person sees it (eBay's heading hides a "Details about" label).
    name: props('name').map((element) => cleanText(element.attribs.content) ?? visibleText($(element)))[0],
    description: props('description').map((element) => cleanLines(propValue($, element) ?? ''))[0],
    images: props('image').flatMap((element) => propValue($, element) ?? []),
    videos: props('video').flatMap((element) => {
      // A VideoObject's file is its own contentUrl property.
      const nested = ownProps($, $(element), 'contentUrl').map((e) => propValue($, e));
      return (nested.length ? nested : [propValue($, element)]).flatMap((url) => url ?? []);
    }),
    ...offerAndBrand(page, scope),
  };
}

/** Read as schema.org nodes, the same reading as JSON-LD's. */
function offerAndBrand(page: Page, scope: Cheerio<Element>): Pick<Found, 'offer' | 'brand' | 'rating' | 'facts'> {
  const product = itemNode(page.$, scope, 0);
  const reading: Reading = { place: placeOf(page), pageUrl: page.location, resolve: (value) => value };
  return {
    offer: productOffer(product, [], reading),
    brand: productBrand(product, [], reading),
    rating: productRating(product, [], reading),
    facts: productFacts(product, [], reading),
  };
}

/** An item as a node: its own properties, nested items as nodes, text content kept apart from machine-readable attributes. */
function itemNode($: CheerioAPI, scope: Cheerio<Element>, depth: number): JsonObject {
  const node: JsonObject = { '@type': scope.attr('itemtype') };
  for (const element of ownProps($, scope)) {
    const value = itemValue($, element, depth);
    for (const name of (element.attribs.itemprop ?? '').split(/\s+/).filter(Boolean)) {
      const before = node[name];
      node[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
    }
  }
  return node;
}

function itemValue($: CheerioAPI, element: Element, depth: number): unknown {
  if (element.attribs.itemscope !== undefined) return depth < MAX_DEPTH ? itemNode($, $(element), depth + 1) : undefined;
  const value = propValue($, element);
  const fromText = !ATTRIBUTE_TAGS.has(element.tagName) && element.attribs.content === undefined;
  return fromText && value !== undefined ? new VisibleText(value) : value;
}

/** The properties of this item (all, or those named), not of items nested in it (an Offer's or Brand's name is not the product's). */
function ownProps($: CheerioAPI, scope: Cheerio<Element>, name?: string): Element[] {
  const root = scope.get(0);
  return scope
    .find(name ? `[itemprop~="${name}"]` : '[itemprop]')
    .toArray()
    .filter((element) => $(element).parent().closest('[itemscope]').get(0) === root);
}

/** Elements whose property value is an attribute; any other's is its text, unless it has a `content` attribute. */
const ATTRIBUTE_TAGS = new Set(['meta', 'img', 'video', 'audio', 'source', 'embed', 'iframe', 'a', 'link', 'area']);

/** A property's value by the element that carries it (the microdata rules). */
function propValue($: CheerioAPI, element: Element): string | undefined {
  const attr = element.attribs;
  switch (element.tagName) {
    case 'meta':
      return attr.content;
    case 'img':
      return largestInSrcset(attr.srcset) ?? attr.src;
    case 'video':
    case 'audio':
    case 'source':
    case 'embed':
    case 'iframe':
      return attr.src;
    case 'a':
    case 'link':
    case 'area':
      return attr.href;
    default:
      return attr.content ?? $(element).text();
  }
}
