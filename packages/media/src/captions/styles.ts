/** A caption style as the quick editor lists it (the contract's CaptionStyle, less its preview URL). */
export interface CaptionStyleInfo {
  captionId: string;
  name: string;
}

/** What a style looks like, in sizes relative to the frame so one style fits 9:16, 1:1 and 16:9. */
export interface CaptionLook {
  /** Text colour and the outline or box colour, RGB hex; alpha 0 opaque … 255 transparent, as ASS counts. */
  text: string;
  edge: string;
  edgeAlpha: number;
  /** 1: outline around the letters; 3: an opaque box behind each line. */
  borderStyle: 1 | 3;
  /** Font size as a share of the frame's shorter side. */
  size: number;
  /** Outline width (or box padding) as a share of the font size. */
  edgeWidth: number;
  shadow: number;
  /** ASS numpad alignment: 2 at the bottom of the safe zone, 5 in the frame's middle, 8 at the zone's top (safeZone.ts). */
  alignment: 2 | 5 | 8;
}

export interface CaptionStyleDefinition extends CaptionStyleInfo {
  look: CaptionLook;
}

export const CAPTION_STYLES: readonly CaptionStyleDefinition[] = [
  {
    captionId: 'classic',
    name: 'Classic',
    look: {
      text: 'FFFFFF',
      edge: '000000',
      edgeAlpha: 0,
      borderStyle: 1,
      size: 0.062,
      edgeWidth: 0.08,
      shadow: 0,
      alignment: 2,
    },
  },
  {
    captionId: 'boxed',
    name: 'Boxed',
    look: {
      text: 'FFFFFF',
      edge: '000000',
      edgeAlpha: 80,
      borderStyle: 3,
      size: 0.058,
      edgeWidth: 0.2,
      shadow: 0,
      alignment: 2,
    },
  },
  {
    captionId: 'pop',
    name: 'Pop yellow',
    look: {
      text: 'FFE14D',
      edge: '111111',
      edgeAlpha: 0,
      borderStyle: 1,
      size: 0.075,
      edgeWidth: 0.11,
      shadow: 2,
      alignment: 5,
    },
  },
  {
    captionId: 'brand',
    name: 'Brand green',
    look: {
      text: '0B0E14',
      edge: '1ADB74',
      edgeAlpha: 0,
      borderStyle: 3,
      size: 0.058,
      edgeWidth: 0.22,
      shadow: 0,
      alignment: 2,
    },
  },
  {
    captionId: 'headline',
    name: 'Headline',
    look: {
      text: 'FFFFFF',
      edge: '0B0E14',
      edgeAlpha: 0,
      borderStyle: 1,
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
