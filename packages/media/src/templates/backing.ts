/**
 * Cards that read on the picture behind them (decision "Readable cards"): each card's type meets WCAG 2's 4.5:1
 * against what stands behind it. A card knows the lightest and darkest of the picture there (render/lightMap.ts);
 * its panel is made as opaque as that asks, type straight on the picture gets a soft scrim only where the picture
 * asks for one, and a colour that still does not read (an orange price on a cream card) is shaded toward the ink.
 */
import { greyOf, hexOf, luminanceOf, over, type Rgb, ratio, rgbOf } from '../imaging/contrast.js';
import type { LightMap } from '../render/lightMap.js';

/** The lightest and darkest relative luminance behind a card. */
export interface Behind {
  light: number;
  dark: number;
}

/** Behind a card over a picture nobody read (a clip, a presenter): anything, white to black. */
export const ANYTHING: Behind = { light: 1, dark: 0 };

/** What the cards aim at: WCAG's 4.5:1 with room for the encoder's softening of small letters. */
export const AIM = 5;

/** A share of the cells of a box that may be lighter (or darker) than what the card reads against: specks. */
const SPECKS = 0.02;

/** What stands behind `box` (shares of the frame) in `map`. */
export function behindOf(map: LightMap, box: { x: number; y: number; w: number; h: number }): Behind {
  const at = (share: number, cells: number) => Math.min(cells - 1, Math.max(0, Math.floor(share * cells)));
  const [x0, x1] = [at(box.x, map.columns), at(box.x + box.w, map.columns)];
  const [y0, y1] = [at(box.y, map.rows), at(box.y + box.h, map.rows)];
  const lights: number[] = [];
  const darks: number[] = [];
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      lights.push(map.light[y * map.columns + x] as number);
      darks.push(map.dark[y * map.columns + x] as number);
    }
  }
  lights.sort((a, b) => b - a);
  darks.sort((a, b) => a - b);
  const skip = Math.floor(SPECKS * lights.length);
  return { light: lights[skip] ?? 1, dark: darks[skip] ?? 0 };
}

/** Both ends of what stands behind: the lightest of the lights, the darkest of the darks. */
export const across = (all: Behind[]): Behind =>
  all.length ? { light: Math.max(...all.map((b) => b.light)), dark: Math.min(...all.map((b) => b.dark)) } : ANYTHING;

/** A line of type: its colour and opacity. */
export interface Ink {
  colour: string;
  opacity?: number | undefined;
}

/** The worst contrast of `ink` over a surface of `surface` laid at `opacity` over any picture `behind`. */
function worst(ink: Ink, surface: Rgb, opacity: number, behind: Behind): number {
  return Math.min(
    ...[behind.light, behind.dark].map((l) => {
      const ground = over(surface, opacity, greyOf(l));
      return ratio(luminanceOf(over(rgbOf(ink.colour), ink.opacity ?? 1, ground)), luminanceOf(ground));
    }),
  );
}

/**
 * How opaque a backing of `colour` must be (from `least` up to `most`) for every ink to read over `behind`, and
 * the inks, any that still does not read at `most` shaded toward `toward` (and made opaque) until it does.
 */
export function readable(
  inks: Ink[],
  behind: Behind,
  backing: { colour: string; least: number; most: number },
  toward: string,
  aim = AIM,
): { opacity: number; inks: Ink[] } {
  const surface = rgbOf(backing.colour);
  let opacity = backing.least;
  while (opacity < backing.most && inks.some((ink) => worst(ink, surface, opacity, behind) < aim))
    opacity = Math.min(backing.most, opacity + 0.05);
  const shaded = inks.map((ink) => {
    for (let t = 0; t <= 1.0001; t += 0.1) {
      const tried = {
        colour: hexOf(over(rgbOf(toward), t, rgbOf(ink.colour))),
        opacity: (ink.opacity ?? 1) + t * (1 - (ink.opacity ?? 1)),
      };
      if (worst(tried, surface, opacity, behind) >= aim) return t === 0 ? ink : tried;
    }
    return { colour: toward, opacity: 1 };
  });
  return { opacity, inks: shaded };
}

/** The scrim that holds type of `ink` on a picture: black under light type, white under dark. */
export const scrimFor = (ink: string): string => (luminanceOf(rgbOf(ink)) > 0.18 ? '#000000' : '#ffffff');
