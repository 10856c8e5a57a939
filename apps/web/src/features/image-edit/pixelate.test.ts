import { afterEach, describe, expect, it, vi } from 'vitest';
import { PIXEL_SIZE_ERROR, pixelate } from './pixelate';

/** A width × height picture whose pixel (x, y) is [x*10, y*10, 0, 255]. */
function picture(width: number, height: number) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([x * 10, y * 10, 0, 255], (y * width + x) * 4);
  return { data, width, height };
}
const pixel = (p: ReturnType<typeof picture>, x: number, y: number) => [
  ...p.data.subarray((y * p.width + x) * 4, (y * p.width + x) * 4 + 4),
];

afterEach(() => vi.restoreAllMocks());

describe('pixelate (spec "Error catalogue")', () => {
  it.each([0, -3, Number.NaN])('logs "pixelSize value can not be <= 0" for %s and changes nothing', (size) => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const p = picture(4, 4);
    const before = [...p.data];
    pixelate(p, size);
    expect(error).toHaveBeenCalledWith(PIXEL_SIZE_ERROR);
    expect(PIXEL_SIZE_ERROR).toBe('pixelSize value can not be <= 0');
    expect([...p.data]).toEqual(before);
  });

  it('gives every block the average colour of its pixels, the edge blocks included', () => {
    const p = picture(5, 4);
    pixelate(p, 2);
    expect(pixel(p, 0, 0)).toEqual([5, 5, 0, 255]);
    expect(pixel(p, 1, 1)).toEqual([5, 5, 0, 255]);
    expect(pixel(p, 3, 2)).toEqual([25, 25, 0, 255]);
    // The last column is a block one pixel wide.
    expect(pixel(p, 4, 0)).toEqual([40, 5, 0, 255]);
  });

  it('leaves a picture alone at size 1', () => {
    const p = picture(3, 3);
    const before = [...p.data];
    pixelate(p, 1);
    expect([...p.data]).toEqual(before);
  });
});
