/**
 * Motion measured on a rendered clip (decision "Smooth motion"): frames read back as luma, the shift between
 * consecutive frames measured at four places (a quarter of the way in from each corner) to a hundredth of a
 * pixel by Lucas–Kanade refinement, and the steadiness of those shifts. Shared by the ad renderer's test and
 * image → video's.
 */
import { spawnSync } from 'node:child_process';
import sharp from 'sharp';
import { locateTools } from '../src/index.js';

const tools = locateTools();

/** Blurred noise from a fixed seed: texture everywhere, smooth enough for a gradient method to lock onto. */
export async function texture(file: string, width: number, height: number) {
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.round(random() * 255);
  await sharp(pixels, { raw: { width, height, channels: 3 } })
    .blur(3)
    .normalise()
    .jpeg({ quality: 92 })
    .toFile(file);
}

export interface Luma {
  width: number;
  height: number;
  frames: Float32Array[];
}

export function readLuma(video: string, width: number, height: number): Luma {
  const out = spawnSync(tools.ffmpeg, ['-v', 'error', '-i', video, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], {
    maxBuffer: 1 << 30,
  });
  if (out.status !== 0) throw new Error(String(out.stderr));
  const size = width * height;
  const frames: Float32Array[] = [];
  for (let at = 0; at + size <= out.stdout.length; at += size) frames.push(Float32Array.from(out.stdout.subarray(at, at + size)));
  return { width, height, frames };
}

/** The shift (dx, dy) that carries a patch of `a` centred at (cx, cy) onto `b`, by iterated Lucas–Kanade. */
export function patchShift(a: Float32Array, b: Float32Array, width: number, cx: number, cy: number, half: number): [number, number] {
  let dx = 0;
  let dy = 0;
  const sample = (img: Float32Array, x: number, y: number) => {
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const fx = x - x0;
    const fy = y - y0;
    const i = y0 * width + x0;
    return (
      ((img[i] as number) * (1 - fx) + (img[i + 1] as number) * fx) * (1 - fy) +
      ((img[i + width] as number) * (1 - fx) + (img[i + width + 1] as number) * fx) * fy
    );
  };
  for (let iteration = 0; iteration < 8; iteration++) {
    let gxx = 0;
    let gxy = 0;
    let gyy = 0;
    let bx = 0;
    let by = 0;
    for (let y = cy - half; y < cy + half; y++) {
      for (let x = cx - half; x < cx + half; x++) {
        const i = y * width + x;
        const gx = ((a[i + 1] as number) - (a[i - 1] as number)) / 2;
        const gy = ((a[i + width] as number) - (a[i - width] as number)) / 2;
        const dt = sample(b, x + dx, y + dy) - (a[i] as number);
        gxx += gx * gx;
        gxy += gx * gy;
        gyy += gy * gy;
        bx += gx * dt;
        by += gy * dt;
      }
    }
    const det = gxx * gyy - gxy * gxy;
    const ux = -(gyy * bx - gxy * by) / det;
    const uy = -(gxx * by - gxy * bx) / det;
    dx += ux;
    dy += uy;
    if (Math.hypot(ux, uy) < 1e-3) break;
  }
  return [dx, dy];
}

/** Per consecutive pair of frames: the mean length of the shift at four places (radial for a zoom). */
export function displacements({ width, height, frames }: Luma): number[] {
  const half = 48;
  const places = [
    [width / 4, height / 4],
    [(3 * width) / 4, height / 4],
    [width / 4, (3 * height) / 4],
    [(3 * width) / 4, (3 * height) / 4],
  ].map(([x, y]) => [Math.round(x as number), Math.round(y as number)] as const);
  const out: number[] = [];
  for (let f = 1; f < frames.length; f++) {
    const shifts = places.map(([x, y]) => patchShift(frames[f - 1] as Float32Array, frames[f] as Float32Array, width, x, y, half));
    out.push(shifts.reduce((sum, [dx, dy]) => sum + Math.hypot(dx, dy), 0) / shifts.length);
  }
  return out;
}

/** Coefficient of variation and repeated frames of the displacements between frames `from` and `to`. */
export function steadiness(moves: number[], from: number, to: number) {
  const part = moves.slice(from, to);
  const mean = part.reduce((a, b) => a + b, 0) / part.length;
  const sd = Math.sqrt(part.reduce((a, b) => a + (b - mean) ** 2, 0) / part.length);
  return { mean, cv: sd / mean, repeats: part.filter((m) => m < mean * 0.1).length, frames: part.length };
}
