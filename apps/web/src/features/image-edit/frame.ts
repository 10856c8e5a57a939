import type { Size } from '../generation';

/** The canvas of an extension: its size, and where the picture sits in it (px of the picture). */
export interface Frame {
  width: number;
  height: number;
  left: number;
  top: number;
}

export const EXTEND_RATIOS = ['1:1', '3:4', '4:3', '9:16', '16:9'] as const;
export type ExtendRatio = (typeof EXTEND_RATIOS)[number];
/** The service's limit on a canvas side (the expand-image contract). */
export const MAX_CANVAS_SIDE = 8192;

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);

/** The picture kept where it was relative to the centre, within the frame. */
export function placed(image: Size, width: number, height: number, left?: number, top?: number): Frame {
  return {
    width,
    height,
    left: clamp(left ?? Math.floor((width - image.width) / 2), 0, width - image.width),
    top: clamp(top ?? Math.floor((height - image.height) / 2), 0, height - image.height),
  };
}

/** The smallest canvas of the ratio that holds the whole picture, the picture centred in it. */
export function frameForRatio(image: Size, ratio: ExtendRatio): Frame {
  const [across = 1, down = 1] = ratio.split(':').map(Number);
  const wider = image.width / image.height < across / down;
  const width = wider ? Math.round((image.height * across) / down) : image.width;
  const height = wider ? image.height : Math.round((image.width * down) / across);
  return placed(image, Math.max(width, image.width), Math.max(height, image.height));
}

/** A canvas of the size the user typed, never smaller than the picture nor larger than the service takes. */
export function freeFrame(image: Size, width: number, height: number, previous?: Frame): Frame {
  const w = clamp(Math.round(width) || image.width, image.width, MAX_CANVAS_SIDE);
  const h = clamp(Math.round(height) || image.height, image.height, MAX_CANVAS_SIDE);
  return placed(image, w, h, previous?.left, previous?.top);
}

/** The frame with the picture dragged to (left, top), kept inside. */
export const moved = (image: Size, frame: Frame, left: number, top: number): Frame =>
  placed(image, frame.width, frame.height, Math.round(left), Math.round(top));

/** A side of the frame, whose edge can be dragged to resize a free-size frame. */
export type Edge = 'left' | 'right' | 'top' | 'bottom';
export const EDGES: readonly Edge[] = ['left', 'right', 'top', 'bottom'];

/**
 * The frame with one edge dragged `outwards` px of the picture (negative: inwards). The picture stays where it
 * is on the page, so growing the left or top edge moves it within the frame; the frame never cuts into the
 * picture nor grows past the service's limit.
 */
export function resized(image: Size, frame: Frame, edge: Edge, outwards: number): Frame {
  const by = Math.round(outwards);
  switch (edge) {
    case 'right':
      return { ...frame, width: clamp(frame.width + by, frame.left + image.width, MAX_CANVAS_SIDE) };
    case 'bottom':
      return { ...frame, height: clamp(frame.height + by, frame.top + image.height, MAX_CANVAS_SIDE) };
    case 'left': {
      const grow = clamp(by, -frame.left, MAX_CANVAS_SIDE - frame.width);
      return { ...frame, width: frame.width + grow, left: frame.left + grow };
    }
    case 'top': {
      const grow = clamp(by, -frame.top, MAX_CANVAS_SIDE - frame.height);
      return { ...frame, height: frame.height + grow, top: frame.top + grow };
    }
  }
}
