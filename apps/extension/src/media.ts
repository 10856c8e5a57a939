/**
 * The product's pictures as the page shows them: JSON-LD Product images first (the shop's own list, in its
 * order), then the OpenGraph/Twitter picture, then the largest pictures on screen. The first is the main image
 * (`resUrl`). Runs in the page, on the live DOM, so lazy-loaded pictures count with the source actually shown.
 */

export interface ProductMedia {
  images: string[];
  mainImage: string | null;
}

/** Smaller than this on either side, a picture is an icon, a swatch or a thumbnail strip. */
const MIN_SIDE = 200;
/** Enough for a gallery; the analysis imports at most 30 assets anyway. */
const MAX_IMAGES = 30;
/** Site furniture, not the product. */
const FRAME = 'header, nav, footer';

type Json = unknown;

const isObject = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: Json): Json[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);

function isProduct(node: Record<string, Json>): boolean {
  return asArray(node['@type']).some((type) => typeof type === 'string' && /(^|\/)(Product|ProductGroup|IndividualProduct)$/.test(type));
}

/** An `image` value: a URL, an ImageObject, or a list of either. */
function imageUrls(value: Json): string[] {
  return asArray(value).flatMap((item) => {
    if (typeof item === 'string') return [item];
    if (isObject(item)) return [item.contentUrl, item.url].filter((url): url is string => typeof url === 'string').slice(0, 1);
    return [];
  });
}

/** Products anywhere in a JSON-LD document: at the top, in lists, in `@graph`, or variants of a ProductGroup. */
function productsIn(value: Json, found: Record<string, Json>[] = [], depth = 0): Record<string, Json>[] {
  if (depth > 6) return found;
  for (const node of asArray(value)) {
    if (!isObject(node)) continue;
    if (isProduct(node)) found.push(node);
    for (const key of ['@graph', 'hasVariant', 'mainEntity', 'itemListElement', 'item']) productsIn(node[key], found, depth + 1);
  }
  return found;
}

function jsonLdImages(doc: Document): string[] {
  return Array.from(doc.querySelectorAll('script[type="application/ld+json"]')).flatMap((script) => {
    try {
      return productsIn(JSON.parse(script.textContent ?? '')).flatMap((product) => imageUrls(product.image));
    } catch {
      // A broken JSON-LD block is the shop's bug; the other sources still count.
      return [];
    }
  });
}

function metaImages(doc: Document): string[] {
  const selectors = ['meta[property="og:image:secure_url"]', 'meta[property="og:image"]', 'meta[name="twitter:image"]'];
  return selectors.flatMap((selector) => Array.from(doc.querySelectorAll(selector)).flatMap((meta) => meta.getAttribute('content') ?? []));
}

/** Natural size when loaded, else the declared one (lazy pictures not yet loaded). */
function sidesOf(img: HTMLImageElement): [number, number] {
  if (img.naturalWidth > 0 && img.naturalHeight > 0) return [img.naturalWidth, img.naturalHeight];
  return [Number.parseInt(img.getAttribute('width') ?? '', 10) || 0, Number.parseInt(img.getAttribute('height') ?? '', 10) || 0];
}

function largestImages(doc: Document): string[] {
  return Array.from(doc.images)
    .filter((img) => !img.closest(FRAME))
    .map((img) => ({ img, sides: sidesOf(img) }))
    .filter(({ sides: [w, h] }) => w >= MIN_SIDE && h >= MIN_SIDE)
    .sort((a, b) => b.sides[0] * b.sides[1] - a.sides[0] * a.sides[1])
    .flatMap(({ img }) => img.currentSrc || img.getAttribute('src') || []);
}

/** Absolute http(s) URLs only (no data: or blob:, which are no address the app could fetch), each once. */
function absolute(urls: string[], base: string): string[] {
  const seen = new Set<string>();
  for (const raw of urls) {
    try {
      const url = new URL(raw.trim(), base);
      if (url.protocol === 'http:' || url.protocol === 'https:') seen.add(url.href);
    } catch {
      // Not a URL at all.
    }
  }
  return [...seen];
}

export function extractProductMedia(doc: Document): ProductMedia {
  const images = absolute([...jsonLdImages(doc), ...metaImages(doc), ...largestImages(doc)], doc.baseURI).slice(0, MAX_IMAGES);
  return { images, mainImage: images[0] ?? null };
}
