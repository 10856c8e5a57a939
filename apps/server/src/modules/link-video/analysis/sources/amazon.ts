/**
 * Amazon product pages (every marketplace, hence recognised by their elements, not the host name): the title, the
 * feature bullets as the description, and the high-resolution picture of each image block, which the page only
 * names in a script (`colorImages`) and in the main picture's `data-a-dynamic-image` map of size variants; the
 * price to pay and the struck price before it in the buy box, and the brand from the byline.
 */
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { elementById, inlineScripts } from '../elements.js';
import { availabilityOf, distinctTexts, MAX_FEATURES } from '../facts.js';
import { asArray, isObject, literalAfter, parseLenient, stringOf } from '../json.js';
import { currencyOf, hostOf, type Place, parseAmount, placeOf } from '../money.js';
import { cleanLines, cleanText } from '../text.js';
import { type Found, type FoundOffer, nothingFound, type Page } from '../types.js';

const COLOR_IMAGES = /["']colorImages["']\s*:\s*\{\s*["']initial["']\s*:/;

export function fromAmazon(page: Page): Found {
  const { $ } = page;
  if (!['productTitle', 'landingImage', 'imgBlkFront'].some((id) => elementById($, id))) return nothingFound();
  return {
    name: cleanText($('#productTitle').first().text()),
    description: description($),
    images: [...imageBlocks($), ...mainImage($)],
    videos: [],
    offer: offer(page),
    brand: brand($),
    facts: {
      features: distinctTexts(bullets($), MAX_FEATURES),
      availability: availabilityOf(cleanText($('#availability').first().text())),
    },
  };
}

/** The buy box's price blocks, newest layouts first; prices elsewhere on the page are other products'. */
const PRICE_BLOCKS = [
  '#corePriceDisplay_desktop_feature_div',
  '#corePrice_desktop',
  '#corePrice_feature_div',
  '#corePriceDisplay_mobile_feature_div',
  '#corePrice_mobile_feature_div',
  '#apex_desktop',
];
/** Older layouts' price elements, the deal's before the regular one. */
const OLD_PRICES = '#priceblock_dealprice, #priceblock_saleprice, #priceblock_ourprice, #price_inside_buybox, #newBuyBoxPrice';

function offer(page: Page): FoundOffer | undefined {
  const { $ } = page;
  const block = $(PRICE_BLOCKS.find((selector) => $(selector).length) ?? []).first();
  // "$10.99 - $29.99": the price depends on the variant still to be chosen.
  if (block.find('.a-price-range').length) return undefined;
  const toPay = block.find('.priceToPay, .apexPriceToPay').first();
  const shown = block.find('.a-price:not([data-a-strike])').filter((_, element) => !$(element).closest('.pricePerUnit').length);
  const price = toPay.length ? toPay : shown.first();
  const text = price.length ? priceText(price) : cleanText($(OLD_PRICES).first().text());
  // "List Price:", "Typical price:", "UVP:", "Preço original:": the words differ by marketplace, the struck price does not.
  const struck = block.find('.a-price[data-a-strike="true"]').first();
  const place = marketplace(page);
  const currency = currencyOf(text, place);
  const listText = struck.length ? priceText(struck) : undefined;
  return {
    price: parseAmount(text, 'text'),
    currency,
    listPrice: listText && currencyOf(listText, place) === currency ? parseAmount(listText, 'text') : undefined,
  };
}

/** The price for screen readers ("$29.99"), or the one drawn in pieces (symbol, whole, fraction) when that is empty. */
function priceText(price: Cheerio<Element>): string | undefined {
  return cleanText(price.find('.a-offscreen').first().text()) ?? cleanText(price.find('[aria-hidden="true"]').first().text());
}

/** amazon.com is the United States' marketplace; the others have their country's domain (amazon.com.br, amazon.co.jp). */
function marketplace(page: Page): Place {
  const place = placeOf(page);
  return /(^|\.)amazon\.com$/.test(hostOf(page.location)) ? { ...place, country: 'US' } : place;
}

/** "Brand: X" and "Visit the X Store" in the marketplaces' languages; a book's byline names its authors, which match none. */
const BYLINES = [
  /^(?:brand|marke|marque|marca|merk|marka|varumärke|ブランド|品牌)\s*[:：]\s*(.+)$/iu,
  /^visit the (.+) store$/i,
  /^besuchen? (?:sie )?den (.+)-store$/i,
  /^visite[rz]? la boutique (?:de )?(.+)$/i,
  /^visita la tienda de (.+)$/i,
  /^visita lo store di (.+)$/i,
  /^visite a loja (?:d[aeo]s? )?(.+)$/i,
  /^bezoek de (.+)-winkel$/i,
  /^odwiedź sklep (.+)$/iu,
  /^besök (.+)-butiken$/iu,
  /^(.+) mağazasını ziyaret edin$/iu,
  /^(.+?)\s*のストアを表示$/u,
];

/** The product overview's brand row (marked by its class in every language), else the byline under the title. */
function brand($: CheerioAPI): string | undefined {
  const overview = cleanText($('#productOverview_feature_div tr.po-brand td').last().text());
  if (overview) return overview;
  const byline = cleanText($('#bylineInfo').first().text()) ?? '';
  for (const pattern of BYLINES) {
    const name = pattern.exec(byline)?.[1];
    if (name) return name;
  }
  return undefined;
}

/** The feature bullets; the fitment bullet ("Make sure this fits…") is the page's, not the product's. */
const bullets = ($: CheerioAPI) =>
  $('#feature-bullets li:not(#replacementPartsFitmentBullet) .a-list-item')
    .toArray()
    .flatMap((item) => cleanText($(item).text()) ?? []);

function description($: CheerioAPI): string | undefined {
  return cleanLines([...bullets($), $('#productDescription').text()].join('\n'));
}

/** Each block's hiRes picture, or its large one where the seller gave no high resolution. */
function imageBlocks($: CheerioAPI): string[] {
  for (const script of inlineScripts($)) {
    const blocks = literalAfter($(script).text(), COLOR_IMAGES);
    if (Array.isArray(blocks)) return asArray(blocks).flatMap((b) => (isObject(b) && (stringOf(b.hiRes) ?? stringOf(b.large))) || []);
  }
  return [];
}

/** The main picture: its hi-res attribute, else the largest entry of its variant map ({url: [width, height]}), else its src. */
function mainImage($: CheerioAPI): string[] {
  const image = $('#landingImage, #imgBlkFront').first();
  const variants = parseLenient(image.attr('data-a-dynamic-image') ?? '');
  const largest = isObject(variants) ? Object.entries(variants).sort(([, a], [, b]) => area(b) - area(a))[0]?.[0] : undefined;
  const best = image.attr('data-old-hires') || largest || image.attr('src');
  return best ? [best] : [];
}

const area = (size: unknown) => (Array.isArray(size) ? Number(size[0]) * Number(size[1]) || 0 : 0);
