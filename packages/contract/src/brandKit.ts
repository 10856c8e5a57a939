import { z } from 'zod';
import { defineCall } from './call.js';
import { ResKey } from './common.js';
import type { Locale } from './enums.js';

/**
 * The typefaces a brand kit may use: OFL fonts shipped with the media package, each with Latin, Portuguese accents
 * and Simplified Chinese, so a title never falls back to missing-glyph boxes (decision "Brand kit").
 */
export const BRAND_FONT_IDS = ['noto-sans', 'noto-sans-black', 'noto-serif'] as const;
export const BrandFontId = z.enum(BRAND_FONT_IDS);
export type BrandFontId = z.infer<typeof BrandFontId>;

/** How each typeface is named to the user and which CSS family shows it (the user's browser may lack it: then a look-alike). */
export const BRAND_FONTS: Record<BrandFontId, { name: string; cssFamily: string; cssWeight: number }> = {
  'noto-sans': { name: 'Noto Sans SC', cssFamily: '"Noto Sans SC", "Noto Sans CJK SC", sans-serif', cssWeight: 700 },
  'noto-sans-black': { name: 'Noto Sans SC Black', cssFamily: '"Noto Sans SC", "Noto Sans CJK SC", sans-serif', cssWeight: 900 },
  'noto-serif': { name: 'Noto Serif SC', cssFamily: '"Noto Serif SC", "Noto Serif CJK SC", serif', cssWeight: 700 },
};

/** A colour as `#rrggbb`; stored lower-case so two spellings of one colour are one value. */
export const HexColor = z
  .string()
  .max(7)
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour written #rrggbb')
  .transform((s) => s.toLowerCase());

export const CALL_TO_ACTION_MAX = 40;
export const CallToAction = z.string().trim().min(1).max(CALL_TO_ACTION_MAX);

/** What a user's ads carry of their brand: the logo (one of their stored images), two colours, a typeface, a call to action. */
export const BrandKit = z.strictObject({
  logoResKey: ResKey.nullable(),
  primaryColor: HexColor,
  secondaryColor: HexColor,
  fontId: BrandFontId,
  callToAction: CallToAction,
});
export type BrandKit = z.output<typeof BrandKit>;

/** The call to action of the default kit, in the language the user reads. */
export const BRAND_KIT_DEFAULT_CTA: Record<Locale, string> = { en: 'Shop now', zh: '立即购买', pt: 'Compre agora' };

/**
 * The kit of a user who has not saved one, so the first ad already looks designed: near-white type on the
 * templates' dark grades, a warm accent for prices and buttons, the CJK-capable sans, no logo.
 */
export function brandKitDefault(locale: Locale): BrandKit {
  return {
    logoResKey: null,
    primaryColor: '#f7f5f0',
    secondaryColor: '#ff7a45',
    fontId: 'noto-sans',
    callToAction: BRAND_KIT_DEFAULT_CTA[locale],
  };
}
export const BRAND_KIT_DEFAULT = brandKitDefault('en');

/** A brand kit as the user sees it: the kit, a link to show its logo, and whether it is the default (never saved). */
export const BrandKitView = z.object({
  logoResKey: z.string().nullable(),
  primaryColor: z.string(),
  secondaryColor: z.string(),
  fontId: BrandFontId,
  callToAction: z.string(),
  logoUrl: z.string().nullable(),
  logoName: z.string().nullable(),
  isDefault: z.boolean(),
});
export type BrandKitView = z.infer<typeof BrandKitView>;

export const brandKitGet = defineCall({ method: 'GET', path: '/brand-kit/get', access: 'active', data: BrandKitView });

/** Replaces the caller's kit as a whole; the logo must be one of their completed images, else "Not found.". */
export const brandKitSave = defineCall({ method: 'POST', path: '/brand-kit/save', access: 'active', body: BrandKit, data: BrandKitView });
