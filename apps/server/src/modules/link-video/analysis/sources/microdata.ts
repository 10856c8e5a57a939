/**
 * schema.org Product in microdata (itemscope/itemprop), as older shop platforms (Magento, PrestaShop, many
 * WooCommerce themes) write it.
 */
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { largestInSrcset } from '../mediaUrls.js';
import { cleanLines, cleanText } from '../text.js';
import { type Found, nothingFound, type Page } from '../types.js';

export function fromMicrodata({ $ }: Page): Found {
  const scope = $('[itemscope][itemtype]')
    .filter((_, element) => /schema\.org\/(Product|ProductGroup|IndividualProduct)$/i.test(element.attribs.itemtype ?? ''))
    .first();
  if (!scope.length) return nothingFound();
  const props = (name: string) => ownProps($, scope, name);
  return {
    name: props('name').map((element) => cleanText(propValue($, element)))[0],
    description: props('description').map((element) => cleanLines(propValue($, element) ?? ''))[0],
    images: props('image').flatMap((element) => propValue($, element) ?? []),
    videos: props('video').flatMap((element) => {
      // A VideoObject's file is its own contentUrl property.
      const nested = ownProps($, $(element), 'contentUrl').map((e) => propValue($, e));
      return (nested.length ? nested : [propValue($, element)]).flatMap((url) => url ?? []);
    }),
  };
}

/** The properties of this item, not of items nested in it (an Offer's or Brand's name is not the product's). */
function ownProps($: CheerioAPI, scope: Cheerio<Element>, name: string): Element[] {
  const root = scope.get(0);
  return scope
    .find(`[itemprop~="${name}"]`)
    .toArray()
    .filter((element) => $(element).parent().closest('[itemscope]').get(0) === root);
}

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
