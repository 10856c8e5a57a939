import { safeZone } from './safeZone.js';
import type { CaptionLook } from './styles.js';

/** A part of the frame in shares of its width and height (0–1): x, y its top-left corner. */
export interface AvoidBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Where the product is on screen from `start` to `end` (seconds on the video's clock): captions keep off it. A `firm`
 * box (a card) they keep off even where the product leaves them no room: a caption over a product's edge reads, one
 * over a card's words does not.
 */
export interface CaptionAvoid {
  start: number;
  end: number;
  box: AvoidBox;
  firm?: boolean | undefined;
}

/** Share of the frame width the text may use, inside the safe zone's. */
const TEXT_WIDTH = 0.84;
/**
 * The smallest a caption is set to find room beside the product, as a share of its style's size: smaller, it is no
 * longer read on a phone (seen on a full-length model, whose box leaves a thin band above the head).
 */
const MIN_SCALE = 0.8;
const SCALES = [1, 0.9, MIN_SCALE];
/** Air between a caption and the product it keeps off, as a share of the frame's height. */
const GAP = 0.012;

/** The frame a caption is laid out in, and the size of its style's type there (pixels). */
export interface Frame {
  width: number;
  height: number;
  /** A line's height: libass sets a line as tall as the font size. */
  size: number;
}

export const frameOf = (look: CaptionLook, width: number, height: number): Frame => ({
  width,
  height,
  size: Math.round(Math.min(width, height) * look.size),
});

/** The share of the width the lines may take in a `width`×`height` frame. */
export function textShare(width: number, height: number): number {
  const zone = safeZone(width, height);
  return Math.min(TEXT_WIDTH, zone.right - zone.left);
}

/** How far past the letters a style's ink reaches: the outline or box padding, and the shadow below and right. */
export const edgeOf = (look: CaptionLook, size: number) => ({ edge: size * look.edgeWidth, shadow: look.shadow });

/** A block of lines as laid out: its widest line and its height, in pixels of the style's size (scale 1). */
export interface Block {
  width: number;
  height: number;
}

/**
 * Where a block stands: `x`, `y` the bottom middle of its lines (ASS `\an2\pos`), and the scale of the style's size
 * it is set at (below 1 only to find room beside the product).
 */
export interface Placement {
  x: number;
  y: number;
  scale: number;
}

/** The pixels a placed block inks, outline and shadow included. */
export function inkBox(look: CaptionLook, frame: Frame, block: Block, { x, y, scale }: Placement) {
  const { edge, shadow } = edgeOf(look, frame.size * scale);
  const half = (block.width * scale) / 2;
  return {
    left: x - half - edge,
    right: x + half + edge + shadow,
    top: y - block.height * scale - edge,
    bottom: y + edge + shadow,
  };
}

type PixelBox = ReturnType<typeof inkBox>;
const overlaps = (a: PixelBox, b: PixelBox) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Where a block stands in its style's place (the bottom of the safe zone, the frame's middle or the zone's top), unless
 * that covers one of `avoid` (the product on screen meanwhile, in shares of the frame): then just below the product
 * if the zone has room there, else just above it (the upper band when the product reaches into the lower band),
 * whichever is nearer the style's place; set smaller, down to MIN_SCALE, when neither has room at full size. With
 * no room even then, a place off the `firm` boxes (the cards) alone, and failing that its own place at full size
 * (the product fills the zone).
 */
export function placeBlock(
  look: CaptionLook,
  frame: Frame,
  block: Block,
  avoid: readonly AvoidBox[],
  firm: readonly AvoidBox[] = [],
): Placement {
  const preferred = home(look, frame, block, 1);
  // Off everything; failing that, off the cards at least; failing that, its own place.
  return placeOff(look, frame, block, [...avoid, ...firm]) ?? (firm.length ? placeOff(look, frame, block, firm) : undefined) ?? preferred;
}

/** Where a block of `block` stands in its style's place at `scale`, on the frame's middle. */
function home(look: CaptionLook, frame: Frame, block: Block, scale: number): Placement {
  const zone = safeZone(frame.width, frame.height);
  const [top, bottom] = [zone.top * frame.height, zone.bottom * frame.height];
  const { edge, shadow } = edgeOf(look, frame.size * scale);
  const h = block.height * scale;
  const y = look.alignment === 2 ? bottom - edge - shadow : look.alignment === 8 ? top + edge + h : (frame.height + h) / 2;
  return { x: frame.width / 2, y, scale };
}

/** placeBlock's search: a place off every box in `avoid`, or none. */
function placeOff(look: CaptionLook, frame: Frame, block: Block, avoid: readonly AvoidBox[]): Placement | undefined {
  const zone = safeZone(frame.width, frame.height);
  const [top, bottom] = [zone.top * frame.height, zone.bottom * frame.height];
  const x = frame.width / 2;
  const at = (scale: number) => home(look, frame, block, scale);
  const products = avoid.map((b) => ({
    left: b.x * frame.width,
    right: (b.x + b.w) * frame.width,
    top: b.y * frame.height,
    bottom: (b.y + b.h) * frame.height,
  }));
  const clear = (p: Placement) => {
    const ink = inkBox(look, frame, block, p);
    return ink.top >= top - 0.5 && ink.bottom <= bottom + 0.5 && !products.some((product) => overlaps(ink, product));
  };
  if (clear(at(1))) return at(1);

  const gap = GAP * frame.height;
  /**
   * The places just below and just above each box in the block's way, nearer the style's own place first: between
   * two of them (a card above, a presenter's face below) as well as past them all.
   */
  const candidates = (scale: number) => {
    const { edge, shadow } = edgeOf(look, frame.size * scale);
    const h = block.height * scale;
    const ink = inkBox(look, frame, block, { x, y: 0, scale });
    const inWay = products.filter((p) => p.left < ink.right && ink.left < p.right);
    const own = at(scale).y;
    const places = inWay.flatMap((p) => [
      { x, y: p.bottom + gap + edge + h, scale },
      { x, y: p.top - gap - edge - shadow, scale },
    ]);
    return places.sort((a, b) => Math.abs(a.y - own) - Math.abs(b.y - own));
  };
  for (const scale of SCALES) {
    const fits = candidates(scale).find(clear);
    if (fits) return fits;
    // Smaller, it may pass beside a narrow product where it stands.
    if (clear(at(scale))) return at(scale);
  }
  // No room beside it (the product fills the zone): placeBlock sets it at its own place at full size, over the
  // product's lower part (a model's legs, a bottle's base) rather than a caption too small to read (decision
  // "Word-timed captions").
  return undefined;
}
