// The scripts of a link-video task (spec "Screens and routes" screen 3): the user's own script (`diyScript`: the description as
// script is sent the same way, with the description as its content), or scripts written for the product, one
// distinct variant per preview, by the LLM when one is configured, else by the local writer.

import { adLanguage } from '@reelsmith/contract';
import {
  detectLanguage,
  type Language,
  MAX_VARIANTS,
  type ScriptBrief,
  type ScriptVariant,
  splitScript,
  type VideoLength,
} from '@reelsmith/media';
import { AppError } from '../../../errors.js';
import type { TaskJob } from '../../tasks/definition.js';
import type { LinkVideoInput, VideoSettings } from './source.js';

/**
 * The language spoken: the one chosen in the editor, else the page's own when it is one we speak (its `<html lang>`,
 * decision "Product facts"), else the one its text is written in.
 */
export const languageOf = (
  input: Pick<LinkVideoInput, 'productName' | 'productDescription' | 'productFacts'>,
  settings: Pick<VideoSettings, 'language'>,
): Language => adLanguage(settings.language, input.productFacts) ?? detectLanguage(`${input.productName}\n${input.productDescription}`);

/** What a script is written from: the product as link analysis read it. */
export type ScriptProduct = Pick<
  LinkVideoInput,
  'productName' | 'productDescription' | 'productBrand' | 'productOffer' | 'productRating' | 'productFacts'
>;

/** The brief a script writer gets for `count` scripts of a `videoLength` ad about `product`, spoken in `language`. */
export const scriptBrief = (product: ScriptProduct, language: Language, videoLength: VideoLength, count: number): ScriptBrief => ({
  productName: product.productName,
  productDescription: product.productDescription,
  productBrand: product.productBrand,
  offer: product.productOffer,
  rating: product.productRating,
  // The bullets and materials the page states, so the local writer says real things (decision "Product facts").
  features: product.productFacts?.features,
  materials: product.productFacts?.materials,
  pageLanguage: product.productFacts?.language,
  language,
  videoLength,
  count,
});

/** Script ids name the task and the preview, so an edit or export names exactly one script of one task. */
const scriptIdOf = (taskId: string, n: number) => `${taskId.slice(0, 8)}-s${n + 1}`;

export async function scriptsFor(
  input: LinkVideoInput,
  settings: VideoSettings,
  { taskId, ctx, signal }: Pick<TaskJob<unknown>, 'taskId' | 'ctx' | 'signal'>,
): Promise<ScriptVariant[]> {
  const count = settings.resultNum;
  if (input.diyScript) {
    const segments = splitScript(input.diyScriptContent ?? '');
    if (segments.length === 0) throw new AppError('emptyScript');
    // One script, several previews: they differ in pictures and pacing, each with its own id to edit or export.
    return Array.from({ length: count }, (_, n) => ({ scriptId: scriptIdOf(taskId, n), segments }));
  }
  const written = await ctx.scriptWriter.write(
    scriptBrief(input, languageOf(input, settings), settings.videoLength, Math.min(count, MAX_VARIANTS)),
    signal,
  );
  return Array.from({ length: count }, (_, n) => ({
    scriptId: scriptIdOf(taskId, n),
    segments: (written[n % written.length] as ScriptVariant).segments,
  }));
}
