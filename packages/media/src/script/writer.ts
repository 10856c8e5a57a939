import { productFacts } from './facts.js';
import type { Language, ScriptLength } from './language.js';
import { SEGMENT_PAUSE, speechSeconds } from './rate.js';
import { numberSegments, type ScriptVariant } from './split.js';
import { type Angle, TEMPLATES } from './templates.js';

export interface ScriptBrief {
  productName: string;
  productDescription: string;
  language: Language;
  videoLength: ScriptLength;
  /** How many distinct variants to write (link-video's resultNum), 1 to MAX_VARIANTS. */
  count: number;
}

/** One variant per angle: more would repeat an angle and no longer be distinct. */
export const MAX_VARIANTS = TEMPLATES.en.angles.length;

/**
 * Fill the ad to this share of its length: speech that runs a little long must not lose the call to action. The
 * same for every writer: an LLM's scripts are trimmed to it too.
 */
export const FILL = 0.95;

const NO_NAME: Record<Language, string> = { en: 'this product', zh: '这款产品', pt: 'este produto' };

/**
 * The name as a voice would say it: shop titles pile up specs after a dash, bar or bracket ("Acme Bottle -
 * 1L Stainless Steel, BPA free"), so the part before them, at most 4 words or 10 characters in Chinese.
 */
export function shortName(productName: string, language: Language): string {
  const head = productName.split(/\s[-–—|]\s|[|,，(（[【:：]/u)[0]?.trim() ?? '';
  if (!head) return NO_NAME[language];
  return /[\u3400-\u9fff]/u.test(head) ? [...head].slice(0, 10).join('') : head.split(/\s+/).slice(0, 4).join(' ');
}

const rotate = <T>(items: T[], by: number): T[] =>
  items.length ? [...items.slice(by % items.length), ...items.slice(0, by % items.length)] : [];

/** Hook, then benefits while they fit, then proof and call to action: the order of a classic short ad. */
function compose(angle: Angle, pool: string[], name: string, brief: ScriptBrief): string[] {
  const fill = (line: string) => line.replace('{name}', name);
  const fixed = [angle.hook, angle.proof, angle.callToAction].map(fill);
  const seconds = (line: string) => speechSeconds(line, brief.language) + SEGMENT_PAUSE;
  let used = fixed.reduce((sum, line) => sum + seconds(line), 0);
  const benefits: string[] = [];
  for (const line of pool) {
    if (benefits.includes(line) || used + seconds(line) > brief.videoLength * FILL) continue;
    benefits.push(line);
    used += seconds(line);
  }
  return [fixed[0] as string, ...benefits, fixed[1] as string, fixed[2] as string];
}

/**
 * The local script writer (issue 5, used when no LLM provider is configured): `count` variants, each from a
 * different angle, with benefits taken first from the description's facts (each variant starting from a
 * different one) and then from general lines, sized to the video length at a natural speaking rate.
 */
export function writeScripts(brief: ScriptBrief): ScriptVariant[] {
  if (!Number.isInteger(brief.count) || brief.count < 1 || brief.count > MAX_VARIANTS) {
    throw new RangeError(`count must be 1 to ${MAX_VARIANTS}, not ${brief.count}`);
  }
  const templates = TEMPLATES[brief.language];
  const facts = productFacts(brief.productDescription, brief.language);
  const name = shortName(brief.productName, brief.language);
  return templates.angles.slice(0, brief.count).map((angle, index) => ({
    scriptId: `local-${brief.language}-${angle.angle}`,
    segments: numberSegments(compose(angle, [...rotate(facts, index), ...rotate(templates.benefits, index)], name, brief)),
  }));
}
