/**
 * The product's name, chosen among what the page says (decision "Product names from agreement"): the shop's
 * structured data first, then the link preview's title, the visible heading and the document's title, each cleaned of
 * the site's name, marketing tails and trailing empty labels. Without structured data, the candidates that agree
 * win: a heading that the link preview's title or the document's title also carries is the product's name, and the
 * rest of those titles is the shop talking ("Trailblazer 28L Daypack | Summit Supply").
 */
import type { CheerioAPI } from 'cheerio';
import { elementsOf } from './elements.js';
import { isSectionHeading } from './sections.js';
import { metaValues } from './sources/metaTags.js';
import { cleanText } from './text.js';
import { visibleText } from './visibleText.js';

export interface NameCandidates {
  /** From the shop's product data (JSON-LD, Shopify, Amazon, microdata), in order of trust. */
  structured: (string | undefined)[];
  /** og:title or twitter:title. */
  preview?: string | undefined;
  /** The first heading, as a person sees it. */
  heading?: string | undefined;
  /** The document's <title>. */
  title?: string | undefined;
}

/** Separators between a product's name and the rest of a title. */
const SEPARATOR = /\s+[|–—:·»•-]+\s+|\s*[|｜]\s*/u;
/** A segment of a title that is the shop talking, not the product: buying, delivery, price, official store. */
const MARKETING =
  /\b(?:buy|shop|order|online|free (?:shipping|delivery)|best price|lowest price|official(?: store| site)?|sale|deals?|compre|comprar|loja|frete grátis|melhor preço|oferta|envío gratis|tienda|kaufen|acheter|livraison)\b|在线|购买|官方|旗舰店|价格|包邮|限时/iu;
/** "… on Alibaba.com", "… at Currys": a tail naming a site by its address. */
const ON_SITE = /\s+(?:product\s+)?(?:on|at|from|em|no|na|en|bei|auf)\s+[\w-]+(?:\.[\w-]+)+\s*$/iu;
/** A label left without its value at the end ("Model:", "דגם:", "型号："). */
const TRAILING_LABEL = /\s+[^\s:：]{1,20}\s*[:：]\s*$/u;
/**
 * The page's furniture, not a name: a label a heading starts with ("Details about", eBay's hidden prefix), or a whole
 * label of the page's controls ("Home", "Cart", "Search"). A name that merely starts with such a word ("Home Office
 * Essentials Bundle", "Cart Organizer") is a product's.
 */
const UI_PREFIX = /^(?:details about|detalles acerca de|dettagli su|détails sur)\b/i;
const UI_LABEL = /^(?:log ?in|sign in|menu|home|cart|search|my cart|shopping cart)[\s.:…›»>|-]*$/i;
const isFurniture = (text: string) => UI_PREFIX.test(text) || UI_LABEL.test(text);

/** The names the site goes by: og:site_name, application-name, and its host's main label ("alibaba" of www.alibaba.com). */
export function siteNames($: CheerioAPI, location: string): string[] {
  const names = metaValues($, 'og:site_name', 'application-name', 'apple-mobile-web-app-title');
  const host = safeHost(location);
  const labels = host?.split('.').filter((label) => label.length > 2 && !/^(?:www\d?|shop|store|com|net|org|co|m)$/i.test(label));
  return [...names, ...(labels?.slice(0, 1) ?? [])].map((name) => name.toLowerCase()).filter((name) => name.length > 1);
}

const safeHost = (location: string) => {
  try {
    return new URL(location).hostname.toLowerCase();
  } catch {
    return undefined;
  }
};

/** A candidate cleaned: entities decoded, the site's name and marketing segments cut off, a trailing empty label dropped. */
export function cleanName(raw: string | undefined, sites: readonly string[]): string | undefined {
  let name = cleanText(raw);
  if (!name) return undefined;
  const segments = name.split(SEPARATOR).filter(Boolean);
  if (segments.length > 1) {
    const kept = segments.filter((segment) => !isSiteOrMarketing(segment, sites));
    // The longest of what is left is the name ("Red Dress | Size M" keeps both only when neither is the shop's).
    name = kept.length ? kept.join(' - ') : (segments[0] ?? name);
  }
  name = name.replace(ON_SITE, '');
  const unlabelled = name.replace(TRAILING_LABEL, '');
  if (unlabelled.length >= 3) name = unlabelled;
  return cleanText(name);
}

function isSiteOrMarketing(segment: string, sites: readonly string[]): boolean {
  const text = segment.toLowerCase();
  const bare = text.replace(/\.(?:com|net|org|co|cn|br|pt|de|fr|es|it|uk|jp|kr|tw|cl|il)(?:\.\w{2})?$/, '');
  return (
    sites.some((site) => bare === site || text === site || (text.includes(site) && text.length <= site.length + 12)) ||
    // "Salón Luna" on salonluna.example: the host writes the name without spaces or accents.
    sites.includes(squashed(bare)) ||
    MARKETING.test(text) ||
    isSectionHeading(text)
  );
}

/**
 * The product's name from the candidates, or undefined when the page has none. A section's heading ("Our services",
 * "联系我们", "Avaliações") is the name only when no candidate is better (class 6 of "Link analysis on real shops").
 */
export function chooseName(candidates: NameCandidates, sites: readonly string[]): string | undefined {
  return chooseAmong(candidates, sites, (name) => !isSectionHeading(name)) ?? chooseAmong(candidates, sites, () => true);
}

/** The name the candidates agree on, of those `acceptable` takes. */
function chooseAmong(candidates: NameCandidates, sites: readonly string[], acceptable: (name: string) => boolean): string | undefined {
  const clean = (raw: string | undefined) => {
    const name = cleanName(raw, sites);
    return name && acceptable(name) ? name : undefined;
  };
  // What the shop's own data names is kept unless it is a bare label of the page.
  const structured = candidates.structured.map(clean).find((name) => name && !UI_LABEL.test(name));
  if (structured) return structured;
  const preview = clean(candidates.preview);
  const heading = usableHeading(clean(candidates.heading));
  const title = clean(candidates.title);
  // The heading, when a title carries it too: the page's own words for the product, without the title's extras.
  const raw = [candidates.preview, candidates.title].map((text) => cleanText(text)?.toLowerCase() ?? '');
  if (heading && raw.some((text) => text.includes(heading.toLowerCase()))) return heading;
  // A preview title that the heading or the document's title agrees with, then whichever there is.
  if (preview && title && agree(preview, title)) return shorter(preview, title);
  return preview ?? heading ?? title;
}

/** A heading that is the page's furniture ("Details about", a lone "Menu") or a sentence is no name. */
function usableHeading(heading: string | undefined): string | undefined {
  if (!heading || isFurniture(heading) || heading.length > 300) return undefined;
  return heading;
}

const squashed = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toLowerCase();
const agree = (a: string, b: string) => a.toLowerCase().includes(b.toLowerCase()) || b.toLowerCase().includes(a.toLowerCase());
const shorter = (a: string, b: string) => (b.length < a.length ? b : a);

/** The page's own candidates beside the structured ones: its preview title, its first visible heading and its title. */
export function pageCandidates($: CheerioAPI): Omit<NameCandidates, 'structured'> {
  return {
    preview: metaValues($, 'og:title', 'twitter:title')[0],
    heading: visibleText($(elementsOf($, 'h1').slice(0, 1))),
    title: cleanText($(elementsOf($, 'title').slice(0, 1)).text()),
  };
}
