/**
 * The Avatar tool's script written from a product link (decision "The Avatar tool"): the page is read as link
 * analysis reads it, through the one SSRF-safe fetcher, but nothing is imported and nothing charged; the script is
 * written as link to video writes one (the LLM when one is set up, else the local writer) and handed back as the
 * running text the tool's script box takes, for the user to edit before anything is made.
 */
import { AVATAR_SCRIPT_MAX, AVATAR_SECONDS_MAX, type avatarScript, avatarSeconds } from '@reelsmith/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { extractProduct, hasProduct } from '../link-video/analysis/extract.js';
import { loadPage } from '../link-video/analysis/pageSource.js';
import { languageOf, scriptBrief } from '../link-video/video/scripts.js';

type Body = z.output<NonNullable<(typeof avatarScript)['body']>>;
type Answer = z.output<(typeof avatarScript)['data']>;

/** The lengths of ad a script is written for, longest first: the first that fits the tool's limits is kept. */
const LENGTHS = [30, 15] as const;

export async function avatarScriptFrom(ctx: AppContext, userId: string, { productLink, language }: Body): Promise<Answer> {
  const page = await loadPage(ctx, { userId, productLink });
  const product = extractProduct(page.body, page.url, page.contentType);
  if (!hasProduct(product) || !product.name) throw new AppError('noProductFound');
  const read = {
    productName: product.name,
    productDescription: product.description,
    productBrand: product.brand,
    productOffer: product.offer,
    productRating: product.rating,
    productFacts: product.facts,
  };
  const spoken = languageOf(read, { language });
  for (const videoLength of LENGTHS) {
    const [written] = await ctx.scriptWriter.write(scriptBrief(read, spoken, videoLength, 1));
    // Chinese sentences run on without a space between them.
    const script = (written?.segments ?? [])
      .map((segment) => segment.segText.trim())
      .filter(Boolean)
      .join(spoken === 'zh' ? '' : ' ');
    if (script && script.length <= AVATAR_SCRIPT_MAX && avatarSeconds(script) <= AVATAR_SECONDS_MAX)
      return { script, productName: product.name, language: spoken };
  }
  // Neither length fits (a writer that ignores the length asked): said as the writer failing, not as the page.
  throw new AppError('scriptWriterFailed');
}
