import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/**
 * Captions are set in Noto Sans SC Bold (npm `@expo-google-fonts/noto-sans-sc`, OFL-1.1): one face with Latin,
 * Portuguese accents and Simplified Chinese, shipped with the package, so Chinese captions never fall back
 * to missing-glyph boxes on a machine without CJK fonts.
 */
export const CAPTION_FONT = 'Noto Sans SC';

/** The folder holding the caption font, for libass's `fontsdir` (the subtitles filter's option). */
export function captionFontsDir(): string {
  return dirname(createRequire(import.meta.url).resolve('@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf'));
}
