/**
 * The visual styles of an ad (decision "Ad templates"). A template decides the scene structure (how long a shot
 * may run, where the offer card goes, what opens the ad), the type, the transitions and the colour treatment;
 * the brand kit then colours and names it. Data only: the timeline plans with it, stills are graded and set by
 * it, the cards are drawn from it. The ids are the contract's `TEMPLATE_IDS`.
 */
import type { BrandFontFileId } from '../brand/fonts.js';

export const TEMPLATE_IDS = ['clean-studio', 'bold-ugc', 'minimal-luxury', 'sale', 'feature-list', 'problem-solution'] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

/** How one scene hands over to the next: a hard cut, a dissolve, the next sliding in, or a fast blurred whip. */
export type TransitionKind = 'cut' | 'dissolve' | 'slide' | 'whip';

/**
 * A colour treatment applied to every picture of the ad: saturation and brightness as multipliers, contrast as
 * a gain about mid-grey, and a tint as per-channel multipliers (warm > 1 red, cool > 1 blue).
 */
export interface Grade {
  saturation: number;
  brightness: number;
  contrast: number;
  tint: readonly [number, number, number];
}

/**
 * What stands behind a product framing puts on a set: the photo itself blurred and darkened (or its own plain
 * backdrop as a studio sweep), a light studio sweep tinted by the brand's colour, or a dark one.
 */
export type SetStyle = 'photo' | 'light-studio' | 'dark-studio';

/** What the first 1.5 s show to stop the thumb. */
export type HookStyle =
  /** The product's name as a title card over the first picture. */
  | 'title'
  /** The script's opening line as a question, over the picture graded grey (the "before"). */
  | 'question'
  /** The price, big, with the discount when there is one. */
  | 'price'
  /** A fast punch-in on the picture with the name in big type. */
  | 'punch';

export interface TemplateType {
  /** The typeface of titles and cards when the user's brand kit names none. */
  font: BrandFontFileId;
  uppercase: boolean;
  /** Extra letter spacing, in ASS pixels per 100 px of font size. */
  spacing: number;
  /** The title's size as a share of the frame's short side. */
  titleSize: number;
}

export interface Template {
  id: TemplateId;
  set: SetStyle;
  grade: Grade;
  transition: { kind: TransitionKind; seconds: number };
  /** A scene longer than this is cut into shots of the same picture, each with its own move. */
  maxShot: number;
  type: TemplateType;
  hook: HookStyle;
  /** One feature per scene, with an icon and a short line. */
  featureLines: boolean;
  /** Where the offer card goes when the page has a price: the second scene, or the one before the end card. */
  offer: 'early' | 'late';
  /** A discount badge and a "sale" ticker from the offer on. */
  saleBadge: boolean;
}

/** No treatment: the photo's own colours. */
export const NEUTRAL_GRADE: Grade = { saturation: 1, brightness: 1, contrast: 1, tint: [1, 1, 1] };

export const TEMPLATES: Record<TemplateId, Template> = {
  'clean-studio': {
    id: 'clean-studio',
    set: 'light-studio',
    grade: { ...NEUTRAL_GRADE, brightness: 1.03, contrast: 1.02 },
    transition: { kind: 'slide', seconds: 0.4 },
    maxShot: 4,
    type: { font: 'noto-sans', uppercase: false, spacing: 2, titleSize: 0.075 },
    hook: 'title',
    featureLines: false,
    offer: 'late',
    saleBadge: false,
  },
  'bold-ugc': {
    id: 'bold-ugc',
    set: 'photo',
    grade: { saturation: 1.18, brightness: 1.02, contrast: 1.1, tint: [1.03, 1, 0.97] },
    transition: { kind: 'cut', seconds: 0 },
    maxShot: 1.8,
    type: { font: 'noto-sans-black', uppercase: true, spacing: 0, titleSize: 0.11 },
    hook: 'punch',
    featureLines: false,
    offer: 'late',
    saleBadge: false,
  },
  'minimal-luxury': {
    id: 'minimal-luxury',
    set: 'dark-studio',
    grade: { saturation: 0.82, brightness: 0.9, contrast: 1.12, tint: [1.03, 1, 0.95] },
    transition: { kind: 'dissolve', seconds: 0.8 },
    maxShot: 6,
    type: { font: 'noto-serif', uppercase: true, spacing: 18, titleSize: 0.06 },
    hook: 'title',
    featureLines: false,
    offer: 'late',
    saleBadge: false,
  },
  sale: {
    id: 'sale',
    set: 'photo',
    grade: { saturation: 1.12, brightness: 1.03, contrast: 1.06, tint: [1, 1, 1] },
    transition: { kind: 'whip', seconds: 0.24 },
    maxShot: 3,
    type: { font: 'noto-sans-black', uppercase: true, spacing: 2, titleSize: 0.1 },
    hook: 'price',
    featureLines: false,
    offer: 'early',
    saleBadge: true,
  },
  'feature-list': {
    id: 'feature-list',
    set: 'light-studio',
    grade: { ...NEUTRAL_GRADE, contrast: 1.03 },
    transition: { kind: 'slide', seconds: 0.36 },
    maxShot: 4,
    type: { font: 'noto-sans', uppercase: false, spacing: 0, titleSize: 0.07 },
    hook: 'title',
    featureLines: true,
    offer: 'late',
    saleBadge: false,
  },
  'problem-solution': {
    id: 'problem-solution',
    set: 'photo',
    grade: { saturation: 1.05, brightness: 1, contrast: 1.04, tint: [1, 1, 1] },
    transition: { kind: 'whip', seconds: 0.24 },
    maxShot: 3.5,
    type: { font: 'noto-sans-black', uppercase: false, spacing: 0, titleSize: 0.085 },
    hook: 'question',
    featureLines: false,
    offer: 'late',
    saleBadge: false,
  },
};

/** The grade of the problem→solution opening, the "before": the picture nearly grey and dim. */
export const PROBLEM_GRADE: Grade = { saturation: 0.15, brightness: 0.78, contrast: 0.95, tint: [0.98, 1, 1.04] };
