// What a video of link to video looks like beyond its script (decision "Ad templates"): the template of each
// preview, the facts its cards show (name, brand, price, features, call to action) and the user's brand kit.

import type { Locale, TemplateId } from '@reelsmith/contract';
import { type AdFacts, type BrandLook, featureLines, type Language } from '@reelsmith/media';
import type { AppContext } from '../../../context.js';
import { readBrandKit } from '../../brand-kit/service.js';
import type { LinkVideoInput, Segment } from './source.js';

/**
 * The templates default previews take in turn, so three previews never share one: the styles that suit most
 * products first. A page with a sale price opens with the Sale template; without a price it comes last, since
 * its cards are about the price.
 */
export function templatesFor(input: Pick<LinkVideoInput, 'productOffer'>): TemplateId[] {
  const offer = input.productOffer;
  const order: TemplateId[] = ['clean-studio', 'bold-ugc', 'minimal-luxury', 'feature-list', 'problem-solution', 'sale'];
  if (offer?.listPrice) return ['sale', ...order.filter((t) => t !== 'sale')];
  return order;
}

/** The template of preview `variant`: the one the user chose, else the variant's turn in `templatesFor`. */
export function templateOf(chosen: TemplateId | undefined, input: Pick<LinkVideoInput, 'productOffer'>, variant: number): TemplateId {
  if (chosen) return chosen;
  const order = templatesFor(input);
  return order[variant % order.length] as TemplateId;
}

const LOCALE: Record<Language, Locale> = { en: 'en', zh: 'zh', pt: 'pt' };

/** What the cards of a video say, all from the page (and the user's kit for the call to action). */
export function adFacts(
  input: Pick<LinkVideoInput, 'productName' | 'productDescription' | 'productBrand' | 'productOffer'>,
  segments: Segment[],
  language: Language,
  callToAction: string,
): AdFacts {
  return {
    name: input.productName,
    brand: input.productBrand || undefined,
    offer: input.productOffer,
    features: featureLines(input.productDescription, language),
    opening: segments[0]?.segText,
    callToAction,
  };
}

/**
 * The user's brand kit as the renderer takes it: colours, the typeface they chose (a default kit names none, so
 * the template's own shows), the call to action in the ad's language when the kit is the default, and the logo
 * as a local file.
 */
export async function brandOf(
  ctx: AppContext,
  userId: string,
  language: Language,
  localFile: (resKey: string) => Promise<string>,
): Promise<{ brand: BrandLook; callToAction: string }> {
  const kit = await readBrandKit(ctx, userId, LOCALE[language]);
  return {
    brand: {
      primary: kit.primaryColor,
      secondary: kit.secondaryColor,
      font: kit.isDefault ? undefined : kit.fontId,
      logo: kit.logoResKey ? await localFile(kit.logoResKey) : undefined,
    },
    callToAction: kit.callToAction,
  };
}
