import { describe, expect, it } from 'vitest';
import { frameForRatio, freeFrame, moved, resized } from './frame';

const square = { width: 1000, height: 1000 };
const wide = { width: 1600, height: 900 };

describe('extension frames', () => {
  it('makes the smallest canvas of the ratio around the picture, centred', () => {
    expect(frameForRatio(square, '16:9')).toEqual({ width: 1778, height: 1000, left: 389, top: 0 });
    expect(frameForRatio(square, '9:16')).toEqual({ width: 1000, height: 1778, left: 0, top: 389 });
    expect(frameForRatio(wide, '1:1')).toEqual({ width: 1600, height: 1600, left: 0, top: 350 });
    expect(frameForRatio(wide, '3:4')).toEqual({ width: 1600, height: 2133, left: 0, top: 616 });
    expect(frameForRatio(square, '1:1')).toEqual({ width: 1000, height: 1000, left: 0, top: 0 });
  });

  it('takes a free size no smaller than the picture and no larger than 8192', () => {
    expect(freeFrame(square, 1200, 1500)).toEqual({ width: 1200, height: 1500, left: 100, top: 250 });
    expect(freeFrame(square, 500, 20_000)).toEqual({ width: 1000, height: 8192, left: 0, top: 3596 });
  });

  it('keeps a dragged picture inside the frame, and where it was when the size changes', () => {
    const frame = freeFrame(square, 1400, 1400);
    expect(moved(square, frame, -50, 900.4)).toEqual({ width: 1400, height: 1400, left: 0, top: 400 });
    expect(moved(square, frame, 120.6, 30)).toEqual({ width: 1400, height: 1400, left: 121, top: 30 });
    expect(freeFrame(square, 1300, 1500, moved(square, frame, 350, 10))).toEqual({ width: 1300, height: 1500, left: 300, top: 10 });
  });

  it('resizes a free frame by an edge: the picture stays put on the page and inside the frame, within 8192', () => {
    const frame = freeFrame(square, 1400, 1400, { width: 1400, height: 1400, left: 100, top: 300 });
    expect(resized(square, frame, 'right', 250.4)).toEqual({ width: 1650, height: 1400, left: 100, top: 300 });
    expect(resized(square, frame, 'right', -1000)).toEqual({ width: 1100, height: 1400, left: 100, top: 300 });
    expect(resized(square, frame, 'bottom', -50)).toEqual({ width: 1400, height: 1350, left: 100, top: 300 });
    expect(resized(square, frame, 'bottom', 10_000)).toEqual({ width: 1400, height: 8192, left: 100, top: 300 });
    expect(resized(square, frame, 'left', 200)).toEqual({ width: 1600, height: 1400, left: 300, top: 300 });
    expect(resized(square, frame, 'left', -500)).toEqual({ width: 1300, height: 1400, left: 0, top: 300 });
    expect(resized(square, frame, 'top', -300)).toEqual({ width: 1400, height: 1100, left: 100, top: 0 });
    expect(resized(square, frame, 'top', 9000)).toEqual({ width: 1400, height: 8192, left: 100, top: 7092 });
  });
});
