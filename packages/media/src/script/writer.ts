import { type Angle, type AngleId, COPY } from './angles.js';
import { ptArticle } from './article.js';
import { featureFacts, productFacts } from './facts.js';
import { detectLanguage, type Language, type ScriptLength } from './language.js';
import { shortName } from './name.js';
import { discountPercent, spokenPrice } from './price.js';
import { SEGMENT_PAUSE, speechSeconds } from './rate.js';
import { numberSegments, type ScriptVariant } from './split.js';

/** The page's facts a script may use (decision "Scripts from page facts"): nothing else is claimed. */
export interface ScriptBrief {
  productName: string;
  productDescription: string;
  productBrand?: string | undefined;
  /** The price the page states; `listPrice` is the price before a sale. */
  offer?: { price: string; currency: string; listPrice?: string | undefined } | undefined;
  /** The page's review summary: stars out of 5 and how many reviews give them. */
  rating?: { value: number; count: number } | undefined;
  /** The page's feature bullets and the materials it states (link analysis's ProductFacts), in the page's words. */
  features?: readonly string[] | undefined;
  materials?: readonly string[] | undefined;
  /** The language the page declares (`<html lang>`, a primary tag), which its bullets and materials are written in. */
  pageLanguage?: string | undefined;
  language: Language;
  videoLength: ScriptLength;
  /** How many distinct variants to write (link-video's resultNum), 1 to MAX_VARIANTS. */
  count: number;
}

/** One variant per angle: more would repeat an angle and no longer be distinct. */
export const MAX_VARIANTS = COPY.en.angles.length;

/**
 * Fill the ad to this share of its length: speech that runs a little long must not lose the call to action. The
 * same for every writer: an LLM's scripts are trimmed to it too.
 */
export const FILL = 0.95;

/** Where a line's claim comes from: a field of the page, or nowhere because it claims nothing. */
export type LineSource = 'name' | 'brand' | 'offer' | 'rating' | 'description' | 'features' | 'materials' | 'none';

export interface ScriptLine {
  text: string;
  sources: LineSource[];
}

/** A discount below this is not worth a line of its own. */
const MIN_DISCOUNT = 5;

const PLACEHOLDER_SOURCE: Record<string, LineSource> = {
  name: 'name',
  theName: 'name',
  brand: 'brand',
  price: 'offer',
  listPrice: 'offer',
  discount: 'offer',
  rating: 'rating',
  reviews: 'rating',
  materials: 'materials',
};

const LANGUAGES: readonly string[] = ['en', 'zh', 'pt'] satisfies Language[];

/**
 * The language the page's bullets and materials are in: the one the page declares, else the one they read as. A
 * page in a language the writer does not speak gives none, since the writer does not translate.
 */
function factsLanguage(brief: ScriptBrief): Language | undefined {
  const declared = brief.pageLanguage?.toLowerCase();
  if (declared) return LANGUAGES.includes(declared) ? (declared as Language) : undefined;
  const text = [...(brief.features ?? []), ...(brief.materials ?? [])].join('\n');
  return text ? detectLanguage(text) : undefined;
}

/** "cotton, linen and elastane", "棉、亚麻": the materials as one spoken list, a name in capitals kept as written. */
function materialsList(materials: readonly string[], language: Language): string {
  const items = materials.map((m) => m.trim()).filter(Boolean);
  if (language === 'zh') return items.join('、');
  const said = items.map((m) => (/^\p{Lu}[\p{Lu}\d]/u.test(m) ? m : `${m.charAt(0).toLowerCase()}${m.slice(1)}`));
  const last = said.pop() as string;
  return said.length ? `${said.join(', ')} ${language === 'pt' ? 'e' : 'and'} ${last}` : last;
}

const NUMBER_LOCALE: Record<Language, string> = { en: 'en-US', zh: 'zh-CN', pt: 'pt-BR' };

/** The placeholders this brief can fill, formatted for its language. */
function valuesOf(brief: ScriptBrief): Record<string, string> {
  const { language, offer, rating } = brief;
  const name = shortName(brief.productName, language);
  // Portuguese says "a Camiseta", "o Vestido" where the name tells which (decision "Portuguese articles").
  const article = language === 'pt' ? ptArticle(name) : undefined;
  const values: Record<string, string> = { name, theName: article ? `${article} ${name}` : name };
  const brand = brief.productBrand?.trim();
  // A brand that is the name's own first word ("Acme" of "Acme Bottle") would be said twice.
  if (brand && !values.name?.toLowerCase().includes(brand.toLowerCase())) values.brand = brand;
  if (offer) {
    values.price = spokenPrice(offer.price, offer.currency, language);
    if (offer.listPrice) {
      values.listPrice = spokenPrice(offer.listPrice, offer.currency, language);
      const discount = discountPercent(offer.price, offer.listPrice);
      if (discount >= MIN_DISCOUNT) values.discount = String(discount);
    }
  }
  if (rating && rating.count > 0 && rating.value > 0 && rating.value <= 5) {
    const locale = NUMBER_LOCALE[language];
    values.rating = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(rating.value);
    values.reviews = new Intl.NumberFormat(locale).format(rating.count);
  }
  if (brief.materials?.length && factsLanguage(brief) === language) values.materials = materialsList(brief.materials, language);
  return values;
}

/** A copy line with its placeholders filled, or undefined when the page lacks one of its facts. */
function fill(template: string, values: Record<string, string>): ScriptLine | undefined {
  const names = [...template.matchAll(/\{(\w+)\}/gu)].map((m) => m[1] as string);
  if (names.some((name) => values[name] === undefined)) return undefined;
  const sources = [...new Set(names.map((name) => PLACEHOLDER_SOURCE[name] as LineSource))];
  return {
    text: template.replace(/\{(\w+)\}/gu, (_, name: string) => values[name] as string),
    sources: sources.length ? sources : ['none'],
  };
}

/** The angles this brief can open, in the order previews take them: a sale opens with its price, as the Sale template does. */
function anglesFor(brief: ScriptBrief, values: Record<string, string>): Angle[] {
  const order: AngleId[] = brief.offer?.listPrice
    ? ['offer', 'problem', 'reviews', 'features', 'brand', 'spotlight', 'invite']
    : ['problem', 'reviews', 'features', 'offer', 'brand', 'spotlight', 'invite'];
  const copy = COPY[brief.language];
  return order
    .map((id) => copy.angles.find((angle) => angle.angle === id) as Angle)
    .filter((angle) => angle.hooks.some((hook) => fill(hook, values)) && fill(angle.callToAction, values));
}

/**
 * What the page says about the product, as lines: its feature bullets first (the seller's own summary), then the
 * description's facts that the bullets do not already say (Amazon's description repeats its bullets).
 */
function factLines(brief: ScriptBrief): ScriptLine[] {
  const written = factsLanguage(brief);
  const features = written && brief.features?.length ? featureFacts(brief.features, brief.language, written) : [];
  const known = new Set(features.map((f) => f.toLowerCase()));
  return [
    ...features.map((text): ScriptLine => ({ text, sources: ['features'] })),
    ...productFacts(brief.productDescription, brief.language)
      .filter((text) => !known.has(text.toLowerCase()))
      .map((text): ScriptLine => ({ text, sources: ['description'] })),
  ];
}

const rotate = <T>(items: T[], by: number): T[] =>
  items.length ? [...items.slice(by % items.length), ...items.slice(0, by % items.length)] : [];

/**
 * One script from one angle: the hook, the angle's own follow-up, the feature bullets and the description's facts,
 * what the product is made of, then the review
 * summary, brand and price the angle did not open with, and the call to action. Lines are taken by importance
 * while the ad has room (the hook and call to action always, then the offer, the rating, the facts, the brand; a
 * feature tour takes its facts before the rating)
 * and said in the order of a classic short ad. Lines that claim nothing fill a slot the facts leave empty.
 */
function planScript(brief: ScriptBrief, angle: Angle, values: Record<string, string>, variant: number): ScriptLine[] {
  const copy = COPY[brief.language];
  const line = (template: string) => fill(template, values);
  const hook = angle.hooks.map(line).find(Boolean) as ScriptLine;
  const callToAction = line(angle.callToAction) as ScriptLine;
  const follow = angle.angle === 'offer' && hook.text.includes(values.listPrice ?? '\0') ? [line(copy.discount)] : [];
  const rating = angle.angle === 'reviews' ? undefined : line(copy.rating);
  const brand = angle.angle === 'brand' ? undefined : line(copy.brand);
  const price = angle.angle === 'offer' ? undefined : (line(copy.sale) ?? line(copy.price));
  const facts = rotate(factLines(brief), variant);
  // Materials a fact already names ("Made of 18/8 stainless steel") are not said twice.
  const said = facts.map((f) => f.text.toLowerCase()).join('\n');
  const materials = brief.materials?.every((m) => said.includes(m.toLowerCase())) ? undefined : line(copy.materials);
  const fillers = rotate(copy.fillers, variant)
    .map(line)
    .filter((l): l is ScriptLine => l !== undefined);

  const seconds = (l: ScriptLine) => speechSeconds(l.text, brief.language) + SEGMENT_PAUSE;
  const budget = brief.videoLength * FILL;
  const chosen = new Set<ScriptLine>([hook, callToAction]);
  let used = seconds(hook) + seconds(callToAction);
  // A feature tour promises the facts in its hook: they come before the rating there (the price is in every script).
  const important = angle.angle === 'features' ? [price, ...facts, rating] : [price, rating, ...facts];
  const candidates = [...follow, ...important, materials, brand, ...fillers].filter((l): l is ScriptLine => l !== undefined);
  for (const candidate of candidates) {
    if (used + seconds(candidate) > budget) continue;
    chosen.add(candidate);
    used += seconds(candidate);
  }
  const order = [hook, ...follow, ...facts, materials, ...fillers, rating, brand, price, callToAction];
  return order.filter((l): l is ScriptLine => l !== undefined && chosen.has(l));
}

/**
 * The local script writer's scripts with the source of every line: `count` variants, each from a different
 * angle, sized to the video length at a natural speaking rate.
 */
export function planScripts(brief: ScriptBrief): { angle: AngleId; lines: ScriptLine[] }[] {
  if (!Number.isInteger(brief.count) || brief.count < 1 || brief.count > MAX_VARIANTS) {
    throw new RangeError(`count must be 1 to ${MAX_VARIANTS}, not ${brief.count}`);
  }
  const values = valuesOf(brief);
  return anglesFor(brief, values)
    .slice(0, brief.count)
    .map((angle, variant) => ({ angle: angle.angle, lines: planScript(brief, angle, values, variant) }));
}

/**
 * The local script writer (used when no LLM provider is configured): built only from the page's facts
 * (decision "Scripts from page facts"). Fewer than `count` scripts when the page supports fewer angles.
 */
export function writeScripts(brief: ScriptBrief): ScriptVariant[] {
  return planScripts(brief).map(({ angle, lines }) => ({
    scriptId: `local-${brief.language}-${angle}`,
    segments: numberSegments(lines.map((l) => l.text)),
  }));
}
