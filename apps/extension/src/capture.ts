/**
 * The product page as the user sees it: the rendered DOM (after the shop's scripts drew it), with the pictures'
 * shown sources made absolute, and without what only styles or runs the page. Inline scripts stay: Amazon's
 * gallery (`colorImages`) and Shopify's `var meta` live in them, and link analysis reads them as data.
 */
import { extractProductMedia } from './media';

export interface CapturedPage {
  url: string;
  title: string;
  html: string;
  images: string[];
  mainImage: string | null;
}

/** The id of the floating button's host element, which is ours and not part of the shop's page. */
export const BUTTON_HOST_ID = 'reelsmith-make-video';

/** The analysis reads no larger page (the service's CAPTURED_PAGE_MAX_BYTES). */
export const CAPTURE_MAX_BYTES = 10 * 1024 * 1024;

/** Nothing a parser of product data reads: styles, external scripts (their text is not in the page), frames, drawings. */
const NOT_CONTENT = `style, link[rel~="stylesheet"], link[rel="preload"], link[rel="prefetch"], script[src], iframe, svg, canvas, #${BUTTON_HOST_ID}`;

/** Scripts that are data: JSON-LD and the JSON blobs themes embed. */
const DATA_SCRIPTS = 'script[type="application/ld+json"], script[type="application/json"]';

/**
 * The clone's pictures get the source the browser actually shows (a lazy gallery's `src` is often a placeholder)
 * as an absolute URL, and their natural size where the shop declared none, so the analysis can tell an icon from
 * a product shot.
 */
function pinImages(live: Document, clone: HTMLElement) {
  const shown = Array.from(live.querySelectorAll('img'));
  clone.querySelectorAll('img').forEach((img, i) => {
    const source = shown[i];
    if (!source) return;
    const src = source.currentSrc || source.src;
    if (/^https?:/.test(src)) img.setAttribute('src', src);
    if (source.naturalWidth > 0 && !img.hasAttribute('width') && !img.hasAttribute('height')) {
      img.setAttribute('width', String(source.naturalWidth));
      img.setAttribute('height', String(source.naturalHeight));
    }
  });
}

const serialise = (root: HTMLElement) => `<!doctype html>\n${root.outerHTML}`;
const bytesOf = (text: string) => new TextEncoder().encode(text).length;

/** The HTML to send: the cleaned clone, and, when that is over the cap, without its inline code (data kept). */
export function pageHtml(doc: Document, maxBytes = CAPTURE_MAX_BYTES): string {
  const root = doc.documentElement.cloneNode(true) as HTMLElement;
  pinImages(doc, root);
  for (const node of root.querySelectorAll(NOT_CONTENT)) node.remove();
  const html = serialise(root);
  if (bytesOf(html) <= maxBytes) return html;
  for (const script of root.querySelectorAll('script')) if (!script.matches(DATA_SCRIPTS)) script.remove();
  return serialise(root);
}

export function capturePage(doc: Document): CapturedPage {
  const media = extractProductMedia(doc);
  return { url: doc.location.href, title: doc.title, html: pageHtml(doc), ...media };
}
