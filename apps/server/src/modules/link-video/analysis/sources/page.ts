/**
 * What any page has when it carries no product data: its meta description, and the large pictures and the videos
 * in its body (its heading and title are name.ts's). Weaker than the other sources, so extract.ts falls back to it,
 * and reads the body's pictures only when the product data named too few.
 */
import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { elementsOf } from '../elements.js';
import { largestInSrcset } from '../mediaUrls.js';
import { metaValues } from './metaTags.js';

/** Declared pictures smaller than this (both sides given) are thumbnails, swatches and icons. */
const MIN_SIDE = 200;
/** One declared side alone under this is an icon; a larger one may be a photo drawn small by the page. */
const MIN_LONE_SIDE = 100;
/** Wider or taller than this (declared) is a banner or a ticker, not a product photo. */
const MAX_ASPECT = 4;
// Logos, payment badges and menu pictures live in the page's frame, not with the product; other products'
// thumbnails live in the "related", "recommended" and "recently viewed" rails.
const FRAME = [
  'header',
  'footer',
  'nav',
  'aside',
  '[role="banner"]',
  '[role="navigation"]',
  '[role="contentinfo"]',
  '[class*="related" i]',
  '[id*="related" i]',
  '[class*="recommend" i]',
  '[id*="recommend" i]',
  '[class*="similar" i]',
  '[class*="upsell" i]',
  '[class*="cross-sell" i]',
  '[class*="crosssell" i]',
  '[class*="recently" i]',
  '[class*="also-bought" i]',
  '[class*="also-viewed" i]',
].join(', ');
/** Animated GIFs in a page's body are banners and badges; a shop's product data may still name a GIF. */
const GIF = /\.gif(?:$|\?)/i;

/** The large pictures of the page's body, outside its frame and other products' rails; GIFs left out. */
export function pagePictures($: CheerioAPI): string[] {
  // The pictures inside the frame and the rails, found once: asking each picture for its ancestors was most of the
  // time spent on a page of thousands of pictures.
  const framed = new Set($(FRAME).find('img').toArray());
  return elementsOf($, 'img')
    .filter((img) => !framed.has(img) && !declaredSmallOrBanner(img))
    .flatMap((img) => largestSource(img) ?? [])
    .filter((src) => !GIF.test(src));
}

/** The video files the page's body plays. */
export function pageVideos($: CheerioAPI): string[] {
  return elementsOf($, 'video').flatMap((video) =>
    [
      video.attribs.src,
      ...$(video)
        .find('source')
        .map((_, source) => source.attribs.src),
    ].flatMap((src) => src ?? []),
  );
}

/** The page's meta description. */
export const pageDescription = ($: CheerioAPI) => metaValues($, 'description')[0];

function declaredSmallOrBanner(img: Element): boolean {
  const [width, height] = [img.attribs.width, img.attribs.height].map((side) => Number.parseInt(side ?? '', 10));
  if (width !== undefined && height !== undefined && Number.isFinite(width) && Number.isFinite(height)) {
    return (width < MIN_SIDE && height < MIN_SIDE) || Math.max(width, height) / Math.max(1, Math.min(width, height)) > MAX_ASPECT;
  }
  const lone = [width, height].find((side) => side !== undefined && Number.isFinite(side));
  return lone !== undefined && lone < MIN_LONE_SIDE;
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
