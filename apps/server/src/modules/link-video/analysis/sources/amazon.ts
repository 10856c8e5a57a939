/**
 * Amazon product pages (every marketplace, hence recognised by their elements, not the host name): the title, the
 * feature bullets as the description, and the high-resolution picture of each image block, which the page only
 * names in a script (`colorImages`) and in the main picture's `data-a-dynamic-image` map of size variants.
 */
import type { CheerioAPI } from 'cheerio';
import { asArray, isObject, literalAfter, parseLenient, stringOf } from '../json.js';
import { cleanLines, cleanText } from '../text.js';
import { type Found, nothingFound, type Page } from '../types.js';

const COLOR_IMAGES = /["']colorImages["']\s*:\s*\{\s*["']initial["']\s*:/;

export function fromAmazon({ $ }: Page): Found {
  if (!$('#productTitle, #landingImage, #imgBlkFront').length) return nothingFound();
  return {
    name: cleanText($('#productTitle').first().text()),
    description: description($),
    images: [...imageBlocks($), ...mainImage($)],
    videos: [],
  };
}

function description($: CheerioAPI): string | undefined {
  // The fitment bullet ("Make sure this fits…") is the page's, not the product's.
  const bullets = $('#feature-bullets li:not(#replacementPartsFitmentBullet) .a-list-item')
    .toArray()
    .flatMap((item) => cleanText($(item).text()) ?? []);
  const text = $('#productDescription').text();
  return cleanLines([...bullets, text].join('\n'));
}

/** Each block's hiRes picture, or its large one where the seller gave no high resolution. */
function imageBlocks($: CheerioAPI): string[] {
  for (const script of $('script:not([src])').toArray()) {
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
