/**
 * The words a scene is described in, shared by the timeline that plans scenes and the scene kinds that frame and
 * draw them (decision "The ad engine").
 */

export type AspectRatio = '9:16' | '1:1' | '16:9';
export type VideoLength = 15 | 30 | 45;

/** Each shape's width over its height. */
export const ASPECT: Record<AspectRatio, number> = { '9:16': 9 / 16, '1:1': 1, '16:9': 16 / 9 };

/** A box in shares of a frame's width and height, from its top-left corner. */
export interface FrameBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * What a scene shows, by kind (scene/kinds.ts): a product picture; a clip from the page, which carries its own
 * length so it can be trimmed; the presenter full-frame; or a product scene with the presenter over or beside it.
 * A picture's size, when known, chooses its move.
 */
export type TimelineMedia = ProductMedia | PresenterMedia | PresentedMedia;

/** What the product's own scenes show: one of its pictures, or a clip from its page. */
export type ProductMedia =
  | { kind: 'image'; file: string; width?: number | undefined; height?: number | undefined }
  | { kind: 'video'; file: string; seconds: number };

/**
 * The presenter (decision "Presenter in link to video"): their portrait framed to the ad's frame about the face, the
 * face's box in it, and at export `clip`, the lip-synced take of them talking, `from` seconds into which the scene's
 * first frame falls (a take runs on across the scenes they talk through).
 */
export interface PresenterMedia {
  kind: 'presenter';
  file: string;
  face?: FrameBox | undefined;
  clip?: string | undefined;
  from?: number | undefined;
}

/**
 * Where the presenter stands in an ad (decision "Presenter layouts"): full-frame for the opening line and the call
 * to action with the product between ("bookends"), full-frame for the opening and then in a corner over the
 * product, or beside the product on a screen split in two.
 */
export const PRESENTER_LAYOUTS = ['bookends', 'corner', 'split'] as const;
export type PresenterLayout = (typeof PRESENTER_LAYOUTS)[number];

/** A product scene with the presenter talking over it, in a corner or on their half of a split screen. */
export interface PresentedMedia {
  kind: 'presented';
  layout: Exclude<PresenterLayout, 'bookends'>;
  product: ProductMedia;
  presenter: PresenterMedia;
}

/** Cheap camera moves over a still: each is a crop window moving across a slightly larger picture. */
export type Motion = 'zoom-in' | 'zoom-out' | 'pan-left' | 'pan-right' | 'pan-up' | 'pan-down' | 'none';

/**
 * What a scene is for in the ad's structure: the hook that opens it, a feature, the offer card (when the page
 * has a price) or the end card. The cards drawn over a scene follow from its role (templates/cards.ts).
 */
export type SceneRole = 'hook' | 'feature' | 'offer' | 'end';

export interface TimelineScene {
  media: TimelineMedia;
  role: SceneRole;
  /** The problem→solution opening is graded grey, the "before" (templates' PROBLEM_GRADE). */
  grade?: 'problem' | undefined;
  /** The speech segment it illustrates; absent on the closing card. */
  segId?: string | number;
  /** When the scene is fully on screen, in seconds from the start; scenes tile the timeline without gaps. */
  start: number;
  seconds: number;
  motion: Motion;
}

/** The video's frame: its size in pixels and its rate. */
export interface Frame {
  width: number;
  height: number;
  fps: number;
}
