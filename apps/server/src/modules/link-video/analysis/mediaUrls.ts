/**
 * Media URLs as shops write them, turned into what link analysis imports: absolute, the largest variant the CDN
 * serves, not an icon, logo, sprite or tracking pixel, and named so that one picture at several sizes counts once.
 */

/** The absolute http(s) URL of `src` on a page at `base`, or undefined (data:, blob:, javascript:, malformed). */
export function resolveUrl(src: string | undefined, base: string): string | undefined {
  const trimmed = src?.trim();
  if (!trimmed) return undefined;
  try {
    const url = new URL(trimmed, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The widest candidate of a srcset ("a.jpg 400w, b.jpg 800w" or "a.jpg 1x, b.jpg 2x"); undefined when empty.
 * URLs may hold commas (CDN transforms), so a candidate ends at a comma followed by whitespace.
 */
export function largestInSrcset(srcset: string | undefined): string | undefined {
  if (!srcset) return undefined;
  let best: { url: string; size: number } | undefined;
  for (const candidate of srcset.trim().split(/,\s+/)) {
    const [url, descriptor = '1x'] = candidate.trim().split(/\s+/);
    if (!url) continue;
    const size = Number.parseFloat(descriptor) * (descriptor.endsWith('x') ? 10_000 : 1) || 0;
    if (!best || size > best.size) best = { url, size };
  }
  return best?.url;
}

const IMAGE_EXT = '\\.(?:jpe?g|png|gif|webp|avif)';
// Shopify's resized copies: name_800x.jpg, name_800x600_crop_center@2x.jpg, the old named sizes (name_grande.jpg).
const SHOPIFY_SIZE = new RegExp(
  `_(?:pico|icon|thumb|small|compact|medium|large|grande|original|master|\\d*x\\d*)(?:_crop_[a-z]+)?(?:@\\dx)?(?=${IMAGE_EXT}$)`,
  'i',
);
// Amazon's transform tokens between the image id and the extension: 71abc._AC_SX300_SY300_QL70_.jpg is 71abc.jpg.
const AMAZON_TOKENS = new RegExp(`\\._[^/]*_(?=${IMAGE_EXT}$)`, 'i');
// WordPress/WooCommerce's resized copies: photo-300x300.jpg beside photo.jpg.
const WORDPRESS_SIZE = new RegExp(`-\\d{2,4}x\\d{2,4}(?=${IMAGE_EXT}$)`, 'i');
/** Query parameters that pick a size, crop, quality or cache version of the same picture. */
const VARIANT_PARAMS = ['width', 'height', 'w', 'h', 'crop', 'fit', 'quality', 'q', 'dpr', 'format', 'fm', 'auto', 'size', 'v'];

const isShopify = (url: URL) => url.hostname === 'cdn.shopify.com' || url.pathname.includes('/cdn/shop/');
const isAmazon = (url: URL) => /(^|\.)(media-amazon|images-amazon|ssl-images-amazon)\.com$/.test(url.hostname);

/** The URL of the largest variant of the same picture, where the CDN's naming tells how to ask for it. */
export function largestVariant(href: string): string {
  const url = new URL(href);
  if (isShopify(url)) {
    url.pathname = url.pathname.replace(SHOPIFY_SIZE, '');
    for (const param of ['width', 'height', 'crop']) url.searchParams.delete(param);
  } else if (isAmazon(url)) {
    url.pathname = url.pathname.replace(AMAZON_TOKENS, '');
  } else if (url.pathname.includes('/wp-content/uploads/')) {
    url.pathname = url.pathname.replace(WORDPRESS_SIZE, '');
  }
  return url.href;
}

// A Shopify file is served both from cdn.shopify.com/s/files/1/<shop ids>/ and from the store's own /cdn/shop/.
const SHOPIFY_ROOT = /^.*?\/(?:s\/files\/(?:\d+\/)+|cdn\/shop\/)/;

/** What makes two URLs the same picture: host, path and the query without size and version parameters. */
export function mediaIdentity(href: string): string {
  const url = new URL(largestVariant(href));
  for (const param of VARIANT_PARAMS) url.searchParams.delete(param);
  url.searchParams.sort();
  const place = isShopify(url)
    ? `shopify:${decodedPath(url).replace(SHOPIFY_ROOT, '')}`
    : `${url.hostname.toLowerCase()}${decodedPath(url)}`;
  return `${place}${url.search}`;
}

// A whole path segment or file-name word, so "iconic-bag.jpg", "slogan-tee.jpg" or "heads.jpg" are kept.
const JUNK_WORDS =
  /(?:^|[/_.-])(?:icons?|logos?|sprites?|favicon|pixel|spacer|placeholder|loading|loader|spinner|avatars?|payments?|ratings?|1x1|tracking|captcha)(?=$|[/_.-])/i;
// Folders of page furniture: only as a whole folder, since a basket, a flag or a star can be the product in a file name.
const JUNK_FOLDERS =
  /\/(?:ads?|adverts?|advertising|banners?|flyouts?|popups?|promos?|cart|basket|badges?|flags?|emojis?|social|share|arrows?|btns?|buttons?|stars?)\//i;
// In the query: a picture served by a script names what it is ("img.php?type=captcha", "?slot=ad_banner").
const JUNK_QUERY = /(?:[?&=_.-])(?:captcha|ads?|adverts?|banners?|tracking|pixel|logos?|icons?|sprites?)(?=$|[&=_.-])/i;
const JUNK_EXT = /\.(?:svg|ico|cur)$/i;
const TRACKERS = /(^|\.)(facebook\.com|doubleclick\.net|google-analytics\.com|googletagmanager\.com|bat\.bing\.com|analytics\.)/i;
// Map tiles: a tile server's host, or the zoom/x/y of a tile in the path.
const MAP_HOSTS =
  /(^|\.)(tile\.openstreetmap\.org|tiles?\.[\w-]+\.\w+|maps\.googleapis\.com|maps\.gstatic\.com|api\.mapbox\.com|basemaps\.cartocdn\.com)$/i;
const MAP_TILE = /\/\d{1,2}\/\d+\/\d+(?:@\dx)?\.(?:png|jpe?g|webp)$/i;
// …or its x, y and zoom as parameters, in the query or (Google's /vt/lyrs=m&x=…&y=…&z=…) the path.
const TILE_PARAMS = [/[/?&;]x=\d+(?:&|$)/, /[/?&;]y=\d+(?:&|$)/, /[/?&;]z=\d+(?:&|$)/];
// Amazon's UI pictures live under /images/G/ (sprites, badges) rather than /images/I/ (product images).
const AMAZON_UI = /\/images\/G\//;

/**
 * Icons, logos, sprites, tracking pixels, vector art, ads and banners, captchas, cart and social buttons, map tiles:
 * pictures of the page, not of the product. The words are looked for in the query too ("img.php?type=captcha").
 */
export function isJunkImage(href: string): boolean {
  const url = new URL(href);
  const path = decodedPath(url);
  return (
    JUNK_EXT.test(path) ||
    JUNK_WORDS.test(path) ||
    JUNK_FOLDERS.test(path) ||
    JUNK_QUERY.test(decodedQuery(url)) ||
    TRACKERS.test(url.hostname) ||
    MAP_HOSTS.test(url.hostname) ||
    MAP_TILE.test(path) ||
    TILE_PARAMS.every((param) => param.test(`${path}${url.search}`)) ||
    (isAmazon(url) && AMAZON_UI.test(path))
  );
}

// Only files the library can hold: a player page (YouTube, Vimeo) or a stream playlist is not a video file.
const VIDEO_FILE = /\.(?:mp4|m4v|mov|webm)$/i;

export const isVideoFile = (href: string) => VIDEO_FILE.test(new URL(href).pathname);

function decodedQuery(url: URL): string {
  try {
    return decodeURIComponent(url.search);
  } catch {
    return url.search;
  }
}

function decodedPath(url: URL): string {
  try {
    return decodeURIComponent(url.pathname);
  } catch {
    return url.pathname;
  }
}
