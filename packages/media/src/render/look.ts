/**
 * What an ad looks like as the renderer takes it (decision "The ad engine"): the scene structure, the type, the
 * transitions and the colour treatment a template chose. The templates (templates/catalogue.ts) are data of this
 * shape; the floors below the ad's know the shape, never the catalogue.
 */
import type { BrandFontFileId } from '../brand/fonts.js';
import type { Grade } from '../imaging/grade.js';
import type { PresenterLayout } from './scene/types.js';

/** How one scene hands over to the next: a hard cut, a dissolve, the next sliding in, or a fast blurred whip. */
export type TransitionKind = 'cut' | 'dissolve' | 'slide' | 'whip';

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

/** A template's look; `Id` is the catalogue's ids. */
export interface Look<Id extends string = string> {
  id: Id;
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
  /** Where a presenter stands when the ad has one and the user chose no layout (decision "Presenter layouts"). */
  presenter: PresenterLayout;
}

/**
 * How a template treats a still (decision "Ad templates"): the studio colour a product framing sets on a set
 * stands on (absent: the photo's own backdrop, or a blur of the photo), and the colour grade.
 */
export interface StillLook {
  setColour?: readonly number[] | undefined;
  grade: Grade;
}
