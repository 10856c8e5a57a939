import type { Language, ScriptLength } from './language.js';
import { SEGMENT_PAUSE, speechSeconds } from './rate.js';
import { clauses, numberSegments, type ScriptSegment, sentences } from './split.js';

export interface DescriptionProduct {
  productName: string;
  productDescription: string;
}

export interface DescriptionOptions {
  language: Language;
  videoLength: ScriptLength;
}

/** A segment is one scene and one caption: longer sentences are cut at their commas. */
const SEGMENT_SECONDS = 6;

/**
 * "Product description as script" (spec "Screens and routes" screen 3): the description read as written, one sentence (or
 * clause) a segment, up to the sentence that would no longer fit the video length. A product without a
 * description is introduced by its name.
 */
export function descriptionScript(product: DescriptionProduct, { language, videoLength }: DescriptionOptions): ScriptSegment[] {
  const parts = sentences(product.productDescription).flatMap((sentence) => clauses(sentence, language, SEGMENT_SECONDS));
  const kept: string[] = [];
  let used = 0;
  for (const part of parts) {
    used += speechSeconds(part, language) + SEGMENT_PAUSE;
    // The first part stays even when it alone is too long: the renderer cuts speech at the video's end.
    if (kept.length > 0 && used > videoLength) break;
    kept.push(part);
  }
  return numberSegments(kept.length ? kept : [product.productName.trim()].filter(Boolean));
}
