/**
 * Where captions may stand (decision "Caption safe zone"): the part of the frame the platforms leave uncovered.
 * On a 9:16 video TikTok, Reels and Shorts draw their caption, music line and buttons over the bottom fifth and the
 * right edge and their tabs over the top: x 6–94 %, y 12–78 %. Square and wide videos play in feeds and players
 * that cover only thin edges.
 */
export interface SafeZone {
  /** Shares of the frame's width (left, right) and height (top, bottom). */
  left: number;
  right: number;
  top: number;
  bottom: number;
}

const TALL: SafeZone = { left: 0.06, right: 0.94, top: 0.12, bottom: 0.78 };
const SQUARE: SafeZone = { left: 0.05, right: 0.95, top: 0.06, bottom: 0.9 };
const WIDE: SafeZone = { left: 0.05, right: 0.95, top: 0.06, bottom: 0.9 };

/** The safe zone of a `width`×`height` frame, by its shape. */
export function safeZone(width: number, height: number): SafeZone {
  const shape = width / height;
  return shape < 0.8 ? TALL : shape > 1.2 ? WIDE : SQUARE;
}
