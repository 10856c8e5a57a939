/**
 * Finds bands in a picture: rows or columns at an edge, each spanning the whole frame, of one near-constant
 * colour: what fitting a photo "contain" on a flat colour leaves. Used by the framing and render tests.
 */
import sharp from 'sharp';

/** A line whose colour varies less than this (standard deviation, any channel) is flat. */
const FLAT = 3;

export interface Bands {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** How many flat lines each edge of the picture has, counted from the edge inward. */
export async function bandWidths(input: string | Buffer): Promise<Bands> {
  const { data, info } = await sharp(input).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  /** Whether the line of `length` pixels from (x, y) stepping (dx, dy) is one flat colour. */
  const flat = (x: number, y: number, dx: number, dy: number, length: number) => {
    for (let c = 0; c < 3; c++) {
      let sum = 0;
      let squares = 0;
      for (let i = 0; i < length; i++) {
        const v = data[((y + i * dy) * width + x + i * dx) * channels + c] as number;
        sum += v;
        squares += v * v;
      }
      const mean = sum / length;
      if (Math.sqrt(Math.max(0, squares / length - mean * mean)) >= FLAT) return false;
    }
    return true;
  };
  const run = (count: number, isFlat: (i: number) => boolean) => {
    let n = 0;
    while (n < count && isFlat(n)) n++;
    return n;
  };
  return {
    top: run(height, (i) => flat(0, i, 1, 0, width)),
    bottom: run(height, (i) => flat(0, height - 1 - i, 1, 0, width)),
    left: run(width, (i) => flat(i, 0, 0, 1, height)),
    right: run(width, (i) => flat(width - 1 - i, 0, 0, 1, height)),
  };
}

/** The edges with a band: at least 1 % of the frame's side (and 3 pixels) of flat lines. */
export async function bandsOf(input: string | Buffer): Promise<string[]> {
  const widths = await bandWidths(input);
  const { width = 0, height = 0 } = await sharp(input).metadata();
  return (Object.entries(widths) as [keyof Bands, number][])
    .filter(([edge, n]) => n >= Math.max(3, (edge === 'top' || edge === 'bottom' ? height : width) * 0.01))
    .map(([edge, n]) => `${edge} ${n}px`);
}
