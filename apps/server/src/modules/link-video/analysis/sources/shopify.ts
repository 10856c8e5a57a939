/**
 * Shopify stores: the product JSON themes embed (the shape of `/products/<handle>.js`, in
 * `<script type="application/json" data-product-json>` or `id="ProductJson-…"`), which lists every picture and
 * video of the product in order; and `var meta` / `ShopifyAnalytics.meta`, which at least names it. Both give the
 * price of each variant and the vendor (the brand); the store's currency is in another script.
 */
import type { CheerioAPI } from 'cheerio';
import { inlineScripts } from '../elements.js';
import { availabilityOf, distinctTexts, MAX_VARIANTS } from '../facts.js';
import { asArray, isObject, type JsonObject, literalAfter, parseLenient, stringOf } from '../json.js';
import { amountFromCents, currencyOf, parseAmount } from '../money.js';
import { cleanText, htmlToText } from '../text.js';
import { type Found, type FoundFacts, type FoundOffer, nothingFound, type Page } from '../types.js';

export function fromShopify(page: Page): Found {
  const { $ } = page;
  const product = $(inlineScripts($, 'application/json'))
    .toArray()
    .map((script) => asProduct(parseLenient($(script).text())))
    .find((candidate) => candidate !== undefined);
  if (product) return { ...fromProductJson(product), offer: offerOf(product, page), brand: stringOf(product.vendor) };
  const scripts = $(inlineScripts($))
    .toArray()
    .map((script) => $(script).text())
    .filter((text) => text.includes('var meta') || text.includes('ShopifyAnalytics.meta'));
  for (const script of scripts) {
    const meta = literalAfter(script, 'var meta =') ?? literalAfter(script, 'ShopifyAnalytics.meta =');
    const metaProduct = isObject(meta) && isObject(meta.product) ? meta.product : undefined;
    const name = nameOfVariants(metaProduct?.variants);
    if (metaProduct && name) return { ...nothingFound(), name, offer: metaOffer(metaProduct, $), brand: stringOf(metaProduct.vendor) };
  }
  return nothingFound();
}

/** The product of a parsed script: `/products/<handle>.js` itself, or `/products/<handle>.json`'s `{product}`. */
function asProduct(json: unknown): JsonObject | undefined {
  const product = isObject(json) && isObject(json.product) ? json.product : json;
  const looksLikeProduct =
    isObject(product) && typeof product.title === 'string' && Array.isArray(product.variants) && (product.images || product.media);
  return looksLikeProduct ? product : undefined;
}

function fromProductJson(product: JsonObject): Found {
  const media = asArray(product.media).filter(isObject);
  const mediaImages = media.filter((m) => m.media_type === 'image').flatMap((m) => stringOf(m.src) ?? []);
  return {
    name: cleanText(product.title),
    description: htmlToText(product.description ?? product.body_html),
    images: mediaImages.length ? mediaImages : asArray(product.images).flatMap((image) => srcOf(image) ?? []),
    videos: media.filter((m) => m.media_type === 'video').flatMap((m) => largestMp4(m.sources) ?? []),
    facts: factsOf(product),
  };
}

/** Availability (any variant `available`) and the option values the product comes in ("S", "M", "Sage"). */
function factsOf(product: JsonObject): FoundFacts {
  const variants = asArray(product.variants).filter(isObject);
  const options = asArray(product.options).flatMap((option) => (isObject(option) ? asArray(option.values) : []));
  const available = typeof product.available === 'boolean' ? product.available : variants.some((v) => v.available === true);
  const stated = typeof product.available === 'boolean' || variants.some((v) => typeof v.available === 'boolean');
  return {
    availability: stated ? availabilityOf(available) : undefined,
    variants: distinctTexts(options.length ? options : variants.map((v) => v.title).filter((t) => t !== 'Default Title'), MAX_VARIANTS),
  };
}

/**
 * The price of the variant the page shows: the one its URL names (`?variant=`), else the first available, as
 * themes select it. `compare_at_price` above the price is the price before the sale.
 */
function offerOf(product: JsonObject, page: Page): FoundOffer {
  const variants = asArray(product.variants).filter(isObject);
  const named = URL.canParse(page.location) ? new URL(page.location).searchParams.get('variant') : null;
  const variant =
    variants.find((v) => named !== null && String(v.id) === named) ?? variants.find((v) => v.available !== false) ?? variants[0];
  return {
    price: shopifyAmount(variant?.price ?? product.price),
    currency: storeCurrency(page.$),
    listPrice: shopifyAmount(variant ? variant.compare_at_price : product.compare_at_price),
  };
}

/** `var meta` says nothing of availability: its price counts only when every variant has it. */
function metaOffer(product: JsonObject, $: CheerioAPI): FoundOffer {
  const prices = new Set(asArray(product.variants).map((v) => (isObject(v) ? shopifyAmount(v.price) : undefined)));
  return { price: prices.size === 1 ? [...prices][0] : undefined, currency: storeCurrency($) };
}

/** Cents as a number in `/products/<handle>.js` (and what themes embed), "54.00" as a string in `.json`. */
const shopifyAmount = (value: unknown) => (typeof value === 'number' ? amountFromCents(value) : parseAmount(value));

/** The currency the store shows prices in: `Shopify.currency.active`, else the analytics' `meta.currency`. */
function storeCurrency($: CheerioAPI): string | undefined {
  for (const script of inlineScripts($)) {
    const text = $(script).text();
    const code =
      /Shopify\.currency\s*=\s*\{[^}]*["']active["']\s*:\s*["']([A-Z]{3})["']/.exec(text)?.[1] ??
      /ShopifyAnalytics\.meta\.currency\s*=\s*["']([A-Z]{3})["']/.exec(text)?.[1];
    if (code) return currencyOf(code, {});
  }
  return undefined;
}

/** `images` holds URL strings in the .js shape and `{src}` objects in the .json one. */
const srcOf = (image: unknown) => stringOf(image) ?? (isObject(image) ? stringOf(image.src) : undefined);

/** Shopify transcodes each video to several MP4 heights and an HLS playlist; the tallest MP4 is the one to keep. */
function largestMp4(sources: unknown): string | undefined {
  const mp4s = asArray(sources).filter((s): s is JsonObject => isObject(s) && (s.format === 'mp4' || s.mime_type === 'video/mp4'));
  mp4s.sort((a, b) => Number(b.height ?? 0) - Number(a.height ?? 0));
  return stringOf(mp4s[0]?.url);
}

/** A variant's name is "<product> - <variant>"; the product's name is what is left without the variant's part. */
function nameOfVariants(variants: unknown): string | undefined {
  const first = asArray(variants).find(isObject);
  const name = stringOf(first?.name);
  const variantTitle = stringOf(first?.public_title);
  return cleanText(variantTitle && name?.endsWith(` - ${variantTitle}`) ? name.slice(0, -(variantTitle.length + 3)) : name);
}
