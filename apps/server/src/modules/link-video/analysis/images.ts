/**
 * The product's pictures ranked by evidence (decision "Product names from agreement", Pictures): the pictures the
 * product's own data names first, then its link preview picture and its gallery, then the body's other large
 * pictures, those near its name before those far from it; the pictures the site's frame shows (a logo, stars,
 * payment badges) are not the product's whatever names them. Junk by its address (mediaUrls.ts `isJunkImage`) is dropped first. Order is
 * otherwise the page's. The import stops at the spec's 30 assets ("Validation rules", importMedia.ts), a picture that
 * cannot be imported giving its place to the next: twice that many are named, so a page of 244 pictures hands over
 * its best 60 and no more.
 */
import { MAX_ASSETS_PER_PROJECT } from '@reelsmith/contract';
import type { Element } from 'domhandler';
import { FRAME, frameImages, GALLERY, linkOf, MAP, type PlacedImage, placedImages, RAIL } from './elements.js';
import { isJunkImage, largestInSrcset, largestVariant, mediaIdentity, resolveUrl } from './mediaUrls.js';
import type { Found, Page } from './types.js';

/** The most pictures named: the 30 assets an import keeps, and as many behind them for those that fail. */
const MAX_PICTURES = 2 * MAX_ASSETS_PER_PROJECT;
/** With fewer pictures than this from the product's data and link preview, the pictures in the page's body are added. */
const FEW_IMAGES = 2;
/** A declared side under this is an icon, a swatch or a tracking pixel. */
const ICON_SIDE = 64;
/** Declared smaller than this on every side given, a thumbnail: kept only when the page has no larger picture (class 6). */
const SMALL_SIDE = 200;
/** A lone declared side under this is a thumbnail; above it, a photo the page draws small. */
const SMALL_LONE_SIDE = 100;
/** Wider or taller than this (declared) is a banner or a ticker, not a product photo. */
const MAX_ASPECT = 4;
/** The same picture this many times outside the gallery is page furniture (rating stars, badges, spacers). */
const REPEATED = 4;
/** Pictures at most this many pictures away from the name's heading are near it. */
const NEAR_NAME = 8;
/** Animated GIFs in a page's body are banners and badges; a shop's product data may still name a GIF. */
const GIF = /\.gif(?:$|\?)/i;

/** Ranks, best first. */
const Rank = {
  /** Named by the product's data (JSON-LD, Shopify, Amazon, microdata). */
  ProductData: 0,
  /** The link preview's picture, or a picture of the product's gallery. */
  PreviewOrGallery: 1,
  /** A large picture of the body near the name. */
  NearName: 2,
  /** A large picture of the body further away. */
  Body: 3,
  /** Named by the product's data, but the site's frame shows it too. */
  AlsoFrame: 4,
  /** Declared thumbnail-sized: only when nothing above is left. */
  Small: 5,
} as const;
type Rank = (typeof Rank)[keyof typeof Rank];

interface Candidate {
  url: string;
  rank: Rank;
  order: number;
}

/**
 * The product's picture URLs, best first: `found` is every source's reading, the first `productData` of them the
 * product's own data and the rest link previews.
 */
export function productImages(page: Page, found: Found[], productData: number): string[] {
  const frame = frameMarks(page);
  const candidates = new Map<string, Candidate>();
  const add = (url: string, rank: Rank) => {
    const identity = mediaIdentity(url);
    const known = candidates.get(identity);
    if (!known) candidates.set(identity, { url, rank, order: candidates.size });
    else if (rank < known.rank) known.rank = rank;
  };
  found.forEach((source, i) => {
    for (const src of source.images) {
      const url = pictureUrl(src, page.url);
      if (!url) continue;
      const framed = frame.has(mediaIdentity(url)) || frame.has(stemOf(url));
      if (i < productData) add(url, framed ? Rank.AlsoFrame : Rank.ProductData);
      // A link preview picture that the frame shows is the site's logo or banner, not the product.
      else if (!framed) add(url, Rank.PreviewOrGallery);
    }
  });
  if ([...candidates.values()].filter((c) => c.rank <= Rank.PreviewOrGallery).length < FEW_IMAGES) {
    for (const [url, rank] of bodyPictures(page, frame)) add(url, rank);
  }
  const ranked = [...candidates.values()].sort((a, b) => a.rank - b.rank || a.order - b.order);
  const larger = ranked.filter((c) => c.rank < Rank.Small);
  return (larger.length ? larger : ranked).slice(0, MAX_PICTURES).map((c) => c.url);
}

/** An absolute URL of the largest variant of a picture the page names, or undefined for junk. */
function pictureUrl(src: string, base: string): string | undefined {
  const absolute = resolveUrl(src, base);
  return absolute && !isJunkImage(absolute) ? largestVariant(absolute) : undefined;
}

/**
 * What marks a picture as the site's frame: the identity and stem of every picture in the header, footer, navigation
 * or an aside. The product's data and preview may name such a picture (a logo), so it is checked against them too.
 */
function frameMarks(page: Page): Set<string> {
  const marks = new Set<string>();
  for (const image of frameImages(page.$)) {
    const src = largestSource(image);
    const url = src && resolveUrl(src, page.url);
    if (url) marks.add(mediaIdentity(url)).add(stemOf(largestVariant(url)));
  }
  return marks;
}

/** Pictures written four times or more outside the gallery and the rails: rating stars, badges, spacers. */
function repeatedPictures(images: PlacedImage[], base: string): Set<string> {
  const counts = new Map<string, number>();
  for (const image of images) {
    const src = image.place & (GALLERY | RAIL) ? undefined : largestSource(image.element);
    if (src) counts.set(src, (counts.get(src) ?? 0) + 1);
  }
  const repeated = new Set<string>();
  for (const [src, count] of counts) {
    const url = count >= REPEATED ? resolveUrl(src, base) : undefined;
    if (url) repeated.add(mediaIdentity(url));
  }
  return repeated;
}

/**
 * A picture's stem: its host and path without the extension and the size or density suffix, so the header's
 * logo.png, logo@2x.png and logo-300x80.webp are one.
 */
export function stemOf(url: string): string {
  const { hostname, pathname } = new URL(url);
  const stem = pathname.replace(/\.[a-z\d]{2,5}$/i, '').replace(/(?:@\dx|[-_]\d+x\d*|[-_]\d*x\d+)$/i, '');
  return `stem:${hostname.toLowerCase()}${stem.toLowerCase()}`;
}

/** The body's pictures that may be the product's, with their rank; other products', the frame's, maps, icons and banners left out. */
function bodyPictures(page: Page, frame: Set<string>): [string, Rank][] {
  const { images, imagesBeforeName } = placedImages(page.$);
  const repeated = repeatedPictures(images, page.url);
  const here = pathOf(page.location);
  const base = pathOf(page.url);
  const pictures: [string, Rank][] = [];
  for (const image of images) {
    if (image.place & (FRAME | RAIL | MAP) || linksElsewhere(image, page.url, [here, base])) continue;
    const size = declaredSize(image.element);
    if (size === 'icon' || size === 'banner') continue;
    const src = largestSource(image.element);
    const url = src && !GIF.test(src) ? pictureUrl(src, page.url) : undefined;
    if (!url || repeated.has(mediaIdentity(url)) || frame.has(mediaIdentity(url)) || frame.has(stemOf(url))) continue;
    pictures.push([url, rankInBody(image, size, imagesBeforeName)]);
  }
  return pictures;
}

function rankInBody(image: PlacedImage, size: 'small' | 'large' | undefined, imagesBeforeName: number | undefined): Rank {
  if (image.place & GALLERY) return Rank.PreviewOrGallery;
  if (size === 'small') return Rank.Small;
  if (imagesBeforeName === undefined) return Rank.NearName;
  const distance = image.order >= imagesBeforeName ? image.order - imagesBeforeName : imagesBeforeName - 1 - image.order;
  return distance < NEAR_NAME ? Rank.NearName : Rank.Body;
}

/** A picture inside a link to another page (not this one, another size of the picture or an anchor) is another product's or an ad. */
function linksElsewhere(image: PlacedImage, base: string, pages: (string | undefined)[]): boolean {
  const href = resolveUrl(linkOf(image.element), base);
  if (!href) return false;
  const path = pathOf(href);
  return !pages.includes(path) && !/\.(?:jpe?g|png|webp|avif|gif|mp4|webm)$/i.test(path ?? '');
}

const pathOf = (href: string): string | undefined => {
  try {
    const url = new URL(href);
    return `${url.hostname.toLowerCase()}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
};

const STYLE_WIDTH = /(?:^|[;\s])width\s*:\s*([^;]+)/i;
const STYLE_HEIGHT = /(?:^|[;\s])height\s*:\s*([^;]+)/i;

/** A side as the page draws it: its inline style's pixels, else its attribute unless the style sizes it otherwise ("auto", "100%"). */
function declaredSide(attribute: string | undefined, style: string | undefined, pattern: RegExp): number | undefined {
  const styled = style ? pattern.exec(style)?.[1]?.trim() : undefined;
  if (styled) {
    const px = /^(\d+(?:\.\d+)?)px$/i.exec(styled);
    return px ? Number(px[1]) : undefined;
  }
  const side = Number.parseInt(attribute ?? '', 10);
  return Number.isFinite(side) && side > 0 ? side : undefined;
}

/** What the declared size says: an icon, a banner, a thumbnail, a photo, or nothing. */
function declaredSize(img: Element): 'icon' | 'banner' | 'small' | 'large' | undefined {
  const { width: w, height: h, style } = img.attribs;
  const width = declaredSide(w, style, STYLE_WIDTH);
  const height = declaredSide(h, style, STYLE_HEIGHT);
  if (width !== undefined && height !== undefined) {
    if (Math.max(width, height) < ICON_SIDE) return 'icon';
    if (Math.max(width, height) / Math.min(width, height) > MAX_ASPECT) return 'banner';
    return width < SMALL_SIDE && height < SMALL_SIDE ? 'small' : 'large';
  }
  const lone = width ?? height;
  if (lone === undefined) return undefined;
  return lone < ICON_SIDE ? 'icon' : lone < SMALL_LONE_SIDE ? 'small' : undefined;
}

/** Galleries keep the full picture in a zoom or lazy-loading attribute and a small one in src. */
function largestSource(img: Element): string | undefined {
  const a = img.attribs;
  return (
    a['data-zoom-image'] ??
    a['data-large_image'] ??
    a['data-large-image'] ??
    largestInSrcset(a.srcset ?? a['data-srcset']) ??
    a['data-src'] ??
    a['data-original'] ??
    a.src
  );
}
