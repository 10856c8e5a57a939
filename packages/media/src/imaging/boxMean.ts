/** The box filter the matte and the clear-part finder smooth with. */
import { clamp } from './open.js';

/** A box mean of `radius` (a running sum along rows then columns), into a new plane. */
export function boxMean(plane: Float32Array, width: number, height: number, radius: number): Float32Array {
  const rows = new Float32Array(plane.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    for (let x = -radius; x <= radius; x++) sum += plane[row + clamp(x, 0, width - 1)] as number;
    for (let x = 0; x < width; x++) {
      rows[row + x] = sum / (2 * radius + 1);
      sum += (plane[row + Math.min(width - 1, x + radius + 1)] as number) - (plane[row + Math.max(0, x - radius)] as number);
    }
  }
  const out = new Float32Array(plane.length);
  for (let x = 0; x < width; x++) {
    let sum = 0;
    for (let y = -radius; y <= radius; y++) sum += rows[clamp(y, 0, height - 1) * width + x] as number;
    for (let y = 0; y < height; y++) {
      out[y * width + x] = sum / (2 * radius + 1);
      sum += (rows[Math.min(height - 1, y + radius + 1) * width + x] as number) - (rows[Math.max(0, y - radius) * width + x] as number);
    }
  }
  return out;
}
