/**
 * Shopify stores: the product JSON themes embed (the shape of `/products/<handle>.js`, in
 * `<script type="application/json" data-product-json>` or `id="ProductJson-…"`), which lists every picture and
 * video of the product in order; and `var meta` / `ShopifyAnalytics.meta`, which at least names it.
 */
import { asArray, isObject, type JsonObject, literalAfter, parseLenient, stringOf } from '../json.js';
import { cleanText, htmlToText } from '../text.js';
import { type Found, nothingFound, type Page } from '../types.js';

export function fromShopify({ $ }: Page): Found {
  const product = $('script[type="application/json"]')
    .toArray()
    .map((script) => asProduct(parseLenient($(script).text())))
    .find((candidate) => candidate !== undefined);
  if (product) return fromProductJson(product);
  const scripts = $('script:not([src])')
    .toArray()
    .map((script) => $(script).text())
    .filter((text) => text.includes('var meta') || text.includes('ShopifyAnalytics.meta'));
  for (const script of scripts) {
    const meta = literalAfter(script, 'var meta =') ?? literalAfter(script, 'ShopifyAnalytics.meta =');
    const name = isObject(meta) && isObject(meta.product) ? nameOfVariants(meta.product.variants) : undefined;
    if (name) return { ...nothingFound(), name };
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
  };
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
