import { createRequire } from 'node:module';

/**
 * The typefaces of a brand kit (decision "Brand kit"): OFL fonts from npm, shipped with this package, each
 * covering Latin, Portuguese accents and Simplified Chinese. The ids are the contract's `BrandFontId`s.
 */
export const BRAND_FONT_FILES = {
  'noto-sans': { family: 'Noto Sans SC', weight: 700, file: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf' },
  'noto-sans-black': { family: 'Noto Sans SC', weight: 900, file: '@expo-google-fonts/noto-sans-sc/900Black/NotoSansSC_900Black.ttf' },
  'noto-serif': { family: 'Noto Serif SC', weight: 700, file: '@expo-google-fonts/noto-serif-sc/700Bold/NotoSerifSC_700Bold.ttf' },
} as const;

export type BrandFontFileId = keyof typeof BRAND_FONT_FILES;

export interface BrandFont {
  /** The family name the font file declares (what libass and fontconfig look it up by). */
  family: string;
  weight: number;
  /** The absolute path of the TTF file. */
  path: string;
}

/** A brand kit typeface with the path of its file, for the renderer. */
export function brandFont(id: BrandFontFileId): BrandFont {
  const { family, weight, file } = BRAND_FONT_FILES[id];
  return { family, weight, path: createRequire(import.meta.url).resolve(file) };
}
