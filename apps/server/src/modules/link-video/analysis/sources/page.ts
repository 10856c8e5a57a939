/**
 * What any page has when it carries no product data: its heading or title, its meta description, and the large
 * pictures and the videos in its body. Weaker than the other sources, so extract.ts only falls back to it.
 */
import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { largestInSrcset } from '../mediaUrls.js';
import { cleanText } from '../text.js';
import type { Found, Page } from '../types.js';
import { metaValues } from './metaTags.js';

/** Declared sides under this are thumbnails, swatches and icons. */
const MIN_SIDE = 200;
// Logos, payment badges and menu pictures live in the page's frame, not with the product.
const FRAME = 'header, footer, nav, [role="banner"], [role="navigation"], [role="contentinfo"]';

export function fromPage({ $ }: Page): Found {
  return {
    name: cleanText($('h1').first().text()) ?? titleName($),
    description: metaValues($, 'description')[0],
    images: $('body img')
      .toArray()
      .filter((img) => !$(img).closest(FRAME).length && !declaredSmall(img))
      .flatMap((img) => largestSource(img) ?? []),
    videos: $('body video')
      .toArray()
      .flatMap((video) =>
        [
          video.attribs.src,
          ...$(video)
            .find('source')
            .map((_, source) => source.attribs.src),
        ].flatMap((src) => src ?? []),
      ),
  };
}

/** "Product | Shop" or "Product – Shop": the part before the shop's name. */
const titleName = ($: CheerioAPI) =>
  cleanText(
    $('title')
      .first()
      .text()
      .split(/\s+[|–—-]\s+/)[0],
  );

function declaredSmall(img: Element): boolean {
  const sides = [img.attribs.width, img.attribs.height].map((side) => Number.parseInt(side ?? '', 10)).filter(Number.isFinite);
  return sides.some((side) => side < MIN_SIDE);
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
