/** A caption style as the quick editor lists it (the contract's CaptionStyle, less its preview URL). */
export interface CaptionStyleInfo {
  captionId: string;
  name: string;
}

/**
 * How a style follows the voice (decision "Word-timed captions"):
 * - `sentence`: up to two lines shown while they are said, unchanged (the clean static style);
 * - `karaoke`: the same lines, the word being said lit in the accent colour;
 * - `groups`: two to four words at a time, each group popping in (a short scale and fade) as its first word is said;
 * - `keywords`: the lines shown, the product's name, prices and figures larger in the accent colour, each popping
 *   when said;
 * - `word`: one bold word at a time, as it is said.
 */
export type CaptionTiming = 'sentence' | 'karaoke' | 'groups' | 'keywords' | 'word';

/** What a style looks like, in sizes relative to the frame so one style fits 9:16, 1:1 and 16:9. */
export interface CaptionLook {
  /** Text colour and the outline or box colour, RGB hex; alpha 0 opaque … 255 transparent, as ASS counts. */
  text: string;
  edge: string;
  edgeAlpha: number;
  /** The lit word (karaoke) and the key words, RGB hex. */
  accent: string;
  /** 1: outline around the letters; 3: an opaque box behind each line. */
  borderStyle: 1 | 3;
  /** Font size as a share of the frame's shorter side: a line is this tall (libass sizes by the line's height). */
  size: number;
  /** Outline width (or box padding) as a share of the font size. */
  edgeWidth: number;
  shadow: number;
  /** ASS numpad alignment: 2 at the bottom of the safe zone, 5 in the frame's middle, 8 at the zone's top (safeZone.ts). */
  alignment: 2 | 5 | 8;
  /** Latin letters in capitals (the one-word style's shout). */
  upper?: boolean;
}

export interface CaptionStyleDefinition extends CaptionStyleInfo {
  timing: CaptionTiming;
  look: CaptionLook;
}

const WHITE_OUTLINED = { text: 'FFFFFF', edge: '000000', edgeAlpha: 0, borderStyle: 1 } as const;

/**
 * The styles, the default first. The five ids of the first catalogue (classic, boxed, pop, brand, headline) stay, as
 * projects keep them: `pop` (yellow, the frame's middle) became the pop-in groups it was named for.
 */
export const CAPTION_STYLES: readonly CaptionStyleDefinition[] = [
  {
    captionId: 'karaoke',
    name: 'Word highlight',
    timing: 'karaoke',
    look: { ...WHITE_OUTLINED, accent: 'FFE14D', size: 0.064, edgeWidth: 0.1, shadow: 0, alignment: 2 },
  },
  {
    captionId: 'pop',
    name: 'Pop-in words',
    timing: 'groups',
    look: {
      text: 'FFE14D',
      edge: '111111',
      edgeAlpha: 0,
      borderStyle: 1,
      accent: 'FFFFFF',
      size: 0.085,
      edgeWidth: 0.11,
      shadow: 2,
      alignment: 5,
    },
  },
  {
    captionId: 'keywords',
    name: 'Key words',
    timing: 'keywords',
    look: { ...WHITE_OUTLINED, accent: '1ADB74', size: 0.06, edgeWidth: 0.1, shadow: 1, alignment: 2 },
  },
  {
    captionId: 'one-word',
    name: 'One word',
    timing: 'word',
    look: { ...WHITE_OUTLINED, accent: 'FFE14D', size: 0.12, edgeWidth: 0.09, shadow: 3, alignment: 5, upper: true },
  },
  {
    captionId: 'classic',
    name: 'Clean sentence',
    timing: 'sentence',
    look: { ...WHITE_OUTLINED, accent: 'FFFFFF', size: 0.062, edgeWidth: 0.08, shadow: 0, alignment: 2 },
  },
  {
    captionId: 'boxed',
    name: 'Boxed',
    timing: 'sentence',
    look: {
      text: 'FFFFFF',
      edge: '000000',
      edgeAlpha: 80,
      borderStyle: 3,
      accent: 'FFFFFF',
      size: 0.058,
      edgeWidth: 0.2,
      shadow: 0,
      alignment: 2,
    },
  },
  {
    captionId: 'brand',
    name: 'Brand green',
    timing: 'karaoke',
    look: {
      text: 'FFFFFF',
      edge: '0B0E14',
      edgeAlpha: 0,
      borderStyle: 3,
      accent: '1ADB74',
      size: 0.058,
      edgeWidth: 0.22,
      shadow: 0,
      alignment: 2,
    },
  },
  {
    captionId: 'headline',
    name: 'Headline',
    timing: 'sentence',
    look: {
      text: 'FFFFFF',
      edge: '0B0E14',
      edgeAlpha: 0,
      borderStyle: 1,
      accent: 'FFFFFF',
      size: 0.068,
      edgeWidth: 0.06,
      shadow: 3,
      alignment: 8,
    },
  },
];

/** The catalogue without the looks, as the captions call lists it. */
export const CAPTIONS: readonly CaptionStyleInfo[] = CAPTION_STYLES.map(({ captionId, name }) => ({ captionId, name }));

export function captionStyle(captionId: string): CaptionStyleDefinition {
  const found = CAPTION_STYLES.find((s) => s.captionId === captionId);
  if (!found) throw new RangeError(`unknown caption style ${captionId}`);
  return found;
}
