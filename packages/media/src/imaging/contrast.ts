/**
 * Colour arithmetic for reading (decision "Readable cards"): WCAG 2's relative luminance and contrast ratio, and
 * colours laid over one another at an opacity as libass lays them (in the encoded values, not in light).
 */

export type Rgb = [number, number, number];

/** `#rrggbb` as three 0–255 values. */
export const rgbOf = (hex: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as Rgb;

const linear = (v: number) => {
  const c = v / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** Relative luminance (WCAG 2) of a colour. */
export const luminanceOf = ([r, g, b]: Rgb): number => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);

/** Relative luminance (WCAG 2) of `#rrggbb`. */
export const luminance = (hex: string): number => luminanceOf(rgbOf(hex));

/** The contrast ratio (WCAG 2) of two relative luminances: 1 to 21. */
export function ratio(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** The contrast ratio (WCAG 2) of two `#rrggbb` colours. */
export const contrast = (a: string, b: string): number => ratio(luminance(a), luminance(b));

/** The grey whose luminance is `l`: what a picture of that luminance is taken for when only that is known. */
export function greyOf(l: number): Rgb {
  const c = l <= 0.03928 / 12.92 ? l * 12.92 : 1.055 * l ** (1 / 2.4) - 0.055;
  const v = Math.round(255 * Math.min(1, Math.max(0, c)));
  return [v, v, v];
}

/** `top` laid over `under` at `opacity`. */
export const over = (top: Rgb, opacity: number, under: Rgb): Rgb =>
  top.map((v, i) => v * opacity + (under[i] as number) * (1 - opacity)) as Rgb;

/** `#rrggbb` of a colour. */
export const hexOf = (rgb: Rgb): string => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
