import { load } from 'cheerio';
import { decodeHTML } from 'entities';

/** An entity left in text ("&amp;", "&#39;", "&iacute;"). */
const ENTITY = /&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]+);/i;

/**
 * HTML entities decoded, twice at most: shops whose JSON-LD is encoded twice give "Black &amp;amp; Silver", and
 * "Black &amp; Silver" or "Elo&iacute;sa" reached the name once decoded as the page's markup.
 */
export function decodeEntities(text: string): string {
  let decoded = text;
  for (let pass = 0; pass < 2 && ENTITY.test(decoded); pass++) decoded = decodeHTML(decoded);
  return decoded;
}

/** Entities decoded, whitespace collapsed and trimmed; undefined for text that is empty then. */
export function cleanText(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const cleaned = decodeEntities(text).replace(/\s+/g, ' ').trim();
  return cleaned || undefined;
}

// Block-level ends become line breaks so paragraphs and bullet points stay apart once the tags are gone.
const BLOCK_END = /<\s*(br\s*\/?|\/p|\/li|\/div|\/h[1-6]|\/tr)\s*>/gi;

/**
 * Text of an HTML fragment (Shopify and many JSON-LD descriptions carry markup, entities included), one line per
 * paragraph or list item, blank lines dropped.
 */
export function htmlToText(html: unknown): string | undefined {
  if (typeof html !== 'string') return undefined;
  if (!/[<&]/.test(html)) return cleanLines(html);
  const $ = load(`<body>${html.replace(BLOCK_END, '$&\n')}</body>`);
  $('script, style, noscript').remove();
  return cleanLines($('body').text());
}

export function cleanLines(text: string): string | undefined {
  const lines = text
    .split(/\n+/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  return lines.join('\n') || undefined;
}

/** At most `max` characters, cut at a word boundary when one is near. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.8 ? cut.slice(0, space) : cut).trimEnd();
}
