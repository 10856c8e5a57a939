/**
 * The text of an element as a person sees it (decision "Product names from agreement"): without hidden labels
 * (eBay's "Details about" span), screen-reader-only text, icon fonts and buttons ("Log In needed" on a classifieds
 * heading), which `.text()` keeps.
 */
import type { Cheerio } from 'cheerio';
import type { AnyNode } from 'domhandler';
import { cleanText } from './text.js';

const UNSEEN = [
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'button',
  '[hidden]',
  '[aria-hidden="true"]',
  '[style*="display:none"]',
  '[style*="display: none"]',
  '[style*="visibility:hidden"]',
  '[style*="visibility: hidden"]',
  '.sr-only',
  '.visually-hidden',
  '.visuallyhidden',
  '.screen-reader-text',
  '.screen-reader-only',
  '.a11y-hidden',
  '.u-hidden',
  '.is-hidden',
  '.hidden',
  '.hide',
  '.g-hdn',
  '.clipped',
  // Icon fonts: a glyph in the private use area, read as a stray character.
  'i[class*="icon"]',
  'span[class*="icon"]',
  '[class^="fa-"]',
  '[class*=" fa-"]',
  '.material-icons',
  '[class*="glyphicon"]',
].join(', ');

export function visibleText(element: Cheerio<AnyNode>): string | undefined {
  const copy = element.first().clone();
  copy.find(UNSEEN).remove();
  // Private-use characters are icon-font glyphs whatever their element.
  return cleanText(copy.text().replace(/[\uE000-\uF8FF]/g, ' '));
}
