/**
 * What the clothing check reads in the picture beyond an outline (decision "Garment check reads the picture"): skin
 * that belongs to a person rather than to a tan garment, and the marks of a made thing rather than of fabric — an
 * outline a flat garment never has (lopsided, or with a handle's loop through it) and a glossy highlight.
 * Everything works on the check's small grid (RGB, `width`×`height`) and a mask of the subject on it.
 */
import { labelRegions, type Region } from './components.js';

const luma = (r: number, g: number, b: number) => 0.299 * r + 0.587 * g + 0.114 * b;
const chroma = (r: number, g: number, b: number): [number, number] => [
  128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
  128 + 0.5 * r - 0.418688 * g - 0.081312 * b,
];

/**
 * Skin by its colour (a YCbCr chroma box with a red-to-yellow hue, as classic skin detectors use), light and dark
 * skin alike; an orange or beige garment's hue or saturation lies outside it, a tan or khaki one does not (which is
 * why colour alone never says "person", see `personBySkin`).
 */
export function isSkin(r: number, g: number, b: number): boolean {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (!(r > g && g >= b) || max - min < 0.12 * max || max - min > 0.78 * max) return false;
  if ((60 * (g - b)) / (max - min) > 32) return false;
  const [cb, cr] = chroma(r, g, b);
  return luma(r, g, b) > 50 && cr >= 135 && cr <= 180 && cb >= 80 && cb <= 128;
}

/**
 * The mask less its one-pixel rim: where a flat colour meets the backdrop, the blend (and JPEG's ringing) draws a thin
 * outline in between colours, skin-like around an orange box; skin itself is a patch, not a line.
 */
export function eroded(mask: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      let all = 1;
      for (let dy = -1; dy <= 1 && all; dy++) for (let dx = -1; dx <= 1 && all; dx++) all = mask[(y + dy) * width + x + dx] ? 1 : 0;
      out[y * width + x] = all;
    }
  }
  return out;
}

/** A patch of skin this small (share of the picture) is a speck, a label's corner, a shade in a fold. */
const MIN_SKIN_PATCH = 0.0015;
/**
 * Skin covering more of the subject than this is the subject's own colour (khaki trousers, a tan bag, a wooden
 * lid): a person photographed in a garment shows less skin than garment.
 */
const MAX_SKIN_SHARE = 0.45;
/**
 * How far (in CbCr levels) the skin's mean chroma must lie from the rest of the subject's. A tan garment's "skin" is
 * the garment's own colour in light and shade, its other pixels the same hue darker or paler: close. A person's
 * skin lies beside a garment of another material and colour (white, grey, blue, red): far.
 */
const MIN_SKIN_CONTRAST = 9;
/** Two patches closer than this share of the subject's size are one thing in two tones, not a neck and a hand. */
const MIN_PATCH_SPREAD = 0.25;

/**
 * Someone wearing the garment, told by skin: two or more patches of skin in the subject, apart from each other
 * (a face or neck and hands, two arms, two feet), each touching what is not skin (limbs come out of the garment),
 * the skin a minority of the subject and of another colour than the rest of it. A silhouette alone is never
 * taken for a person: trousers laid flat have legs too.
 */
export function personBySkin(data: Buffer, width: number, height: number, subject: Uint8Array): boolean {
  const skin = new Uint8Array(width * height);
  let subjectArea = 0;
  let skinArea = 0;
  let top = height;
  let bottom = -1;
  let left = width;
  let right = -1;
  for (let p = 0; p < skin.length; p++) {
    if (!subject[p]) continue;
    subjectArea++;
    const x = p % width;
    const y = (p - x) / width;
    top = Math.min(top, y);
    bottom = Math.max(bottom, y);
    left = Math.min(left, x);
    right = Math.max(right, x);
    const i = p * 3;
    if (isSkin(data[i] as number, data[i + 1] as number, data[i + 2] as number)) {
      skin[p] = 1;
      skinArea++;
    }
  }
  if (subjectArea === 0 || skinArea / subjectArea > MAX_SKIN_SHARE) return false;
  const size = Math.max(bottom - top + 1, right - left + 1);
  const patches = labelRegions(eroded(skin, width, height), width, height).regions.filter(
    (r) => r.area >= MIN_SKIN_PATCH * width * height && touchesOther(skin, subject, width, height, r),
  );
  if (patches.length < 2) return false;
  const centre = (r: Region) => [(r.left + r.right) / 2, (r.top + r.bottom) / 2] as const;
  const spread = patches.some((a, i) =>
    patches.slice(i + 1).some((b) => {
      const [ax, ay] = centre(a);
      const [bx, by] = centre(b);
      return Math.hypot(ax - bx, ay - by) >= MIN_PATCH_SPREAD * size;
    }),
  );
  if (!spread) return false;
  // The chroma of the skin against that of the rest of the subject.
  const sums = [0, 0, 0, 0];
  let rest = 0;
  for (let p = 0; p < skin.length; p++) {
    if (!subject[p]) continue;
    const i = p * 3;
    const [cb, cr] = chroma(data[i] as number, data[i + 1] as number, data[i + 2] as number);
    if (skin[p]) {
      sums[0] = (sums[0] as number) + cb;
      sums[1] = (sums[1] as number) + cr;
    } else {
      sums[2] = (sums[2] as number) + cb;
      sums[3] = (sums[3] as number) + cr;
      rest++;
    }
  }
  if (rest === 0) return false;
  const contrast = Math.hypot(
    (sums[0] as number) / skinArea - (sums[2] as number) / rest,
    (sums[1] as number) / skinArea - (sums[3] as number) / rest,
  );
  return contrast >= MIN_SKIN_CONTRAST;
}

/** Whether the skin patch `region` (its pixels found again in `skin`) borders a part of the subject that is not skin. */
function touchesOther(skin: Uint8Array, subject: Uint8Array, width: number, height: number, region: Region): boolean {
  const reach = 2;
  for (let y = Math.max(0, region.top - reach); y <= Math.min(height - 1, region.bottom + reach); y++) {
    for (let x = Math.max(0, region.left - reach); x <= Math.min(width - 1, region.right + reach); x++) {
      const p = y * width + x;
      if (!subject[p] || skin[p]) continue;
      for (let dy = -reach; dy <= reach; dy++) {
        for (let dx = -reach; dx <= reach; dx++) {
          const q = (y + dy) * width + x + dx;
          if (y + dy >= 0 && y + dy < height && x + dx >= 0 && x + dx < width && skin[q]) return true;
        }
      }
    }
  }
  return false;
}

/**
 * How much of a piece its mirror image about the vertical line through its centre covers (0–1). A garment laid flat
 * or hung is cut and sewn symmetric — two sleeves, two legs, a centred neck — so it covers most of itself even a
 * little turned or folded; a hair dryer (a barrel on one side of its handle), an iron or a kettle does not.
 */
export function mirrorCover(labels: Int32Array, width: number, region: Region): number {
  let sumX = 0;
  for (let y = region.top; y <= region.bottom; y++)
    for (let x = region.left; x <= region.right; x++) if (labels[y * width + x] === region.label) sumX += x;
  const cx = sumX / region.area;
  let covered = 0;
  for (let y = region.top; y <= region.bottom; y++) {
    for (let x = region.left; x <= region.right; x++) {
      if (labels[y * width + x] !== region.label) continue;
      const mirrored = Math.round(2 * cx - x);
      if (mirrored >= 0 && mirrored < width && labels[y * width + mirrored] === region.label) covered++;
    }
  }
  return covered / region.area;
}

/** A hole smaller than this share of the piece is a buckle's eyelet or a speck of fluff, too small to say anything. */
const MIN_HOLE = 0.004;
/** The band around a hole counts as a handle or strap when it is thinner than this share of the piece's size. */
const HANDLE_BAND = 0.06;

/**
 * Whether the piece has a handle: a hole through it (the backdrop seen through a loop) held by a thin band at its
 * edge — a bag's carry handle or straps, a mug's ear, a D-ring. A garment laid flat has openings (a neck, armholes)
 * but they are cut into its outline, not holes through it; a print on a garment lies inside it, far from its edge.
 */
export function hasHandle(labels: Int32Array, width: number, height: number, region: Region): boolean {
  // The piece's bounding box with a one-pixel frame, where the outside is what is reached from the frame.
  const left = Math.max(0, region.left - 1);
  const top = Math.max(0, region.top - 1);
  const right = Math.min(width - 1, region.right + 1);
  const bottom = Math.min(height - 1, region.bottom + 1);
  const w = right - left + 1;
  const h = bottom - top + 1;
  const off = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) off[y * w + x] = labels[(y + top) * width + x + left] === region.label ? 0 : 1;
  const { labels: gaps, regions } = labelRegions(off, w, h);
  const outside = new Set<number>();
  for (let x = 0; x < w; x++) {
    outside.add(gaps[x] as number);
    outside.add(gaps[(h - 1) * w + x] as number);
  }
  for (let y = 0; y < h; y++) {
    outside.add(gaps[y * w] as number);
    outside.add(gaps[y * w + w - 1] as number);
  }
  const band = Math.max(2, Math.round(HANDLE_BAND * Math.max(region.right - region.left + 1, region.bottom - region.top + 1)));
  for (const hole of regions) {
    if (outside.has(hole.label) || hole.area < MIN_HOLE * region.area) continue;
    // A hole whose rim lies within `band` of the outside somewhere is held by a thin band: a loop.
    for (let y = hole.top; y <= hole.bottom; y++) {
      for (let x = hole.left; x <= hole.right; x++) {
        if (gaps[y * w + x] !== hole.label) continue;
        for (let dy = -band; dy <= band; dy++) {
          for (let dx = -band; dx <= band; dx++) {
            const yy = y + dy;
            const xx = x + dx;
            if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
            const g = gaps[yy * w + xx] as number;
            if (g !== 0 && outside.has(g)) return true;
          }
        }
      }
    }
  }
  return false;
}

/** A dark piece: its median brightness under this; a highlight on a pale object cannot be told from its colour. */
const DARK_PIECE = 120;
/** Brighter than this is a highlight's core (or the backdrop seen through). */
const BRIGHT = 205;
/** A highlight's core at least this share of the piece. */
const MIN_HIGHLIGHT = 0.003;
/** The share of the ring around a bright core in between tones for a soft (specular) edge. */
const SOFT_EDGE = 0.5;

/**
 * A glossy highlight on a dark piece: a bright core inside it fading over several pixels into the piece's own tone,
 * as light does on polished plastic, metal or glass. Fabric is matte; a white print or stripe on a dark garment is
 * bright too, but its edge is sharp (the ring around it is the garment's tone, not in between).
 */
export function hasGlossyHighlight(data: Buffer, labels: Int32Array, width: number, region: Region): boolean {
  const tones: number[] = [];
  const lum = (p: number) => luma(data[p * 3] as number, data[p * 3 + 1] as number, data[p * 3 + 2] as number);
  for (let y = region.top; y <= region.bottom; y++)
    for (let x = region.left; x <= region.right; x++) if (labels[y * width + x] === region.label) tones.push(lum(y * width + x));
  tones.sort((a, b) => a - b);
  const median = tones[tones.length >> 1] ?? 255;
  if (median >= DARK_PIECE) return false;
  // Bright pixels within the piece's box; those of a core enclosed by the piece (not reaching the box's edge).
  const w = region.right - region.left + 1;
  const h = region.bottom - region.top + 1;
  const bright = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) bright[y * w + x] = lum((y + region.top) * width + x + region.left) >= BRIGHT ? 1 : 0;
  const { labels: cores, regions } = labelRegions(bright, w, h);
  const mid = median + 0.25 * (BRIGHT - median);
  for (const core of regions) {
    if (core.area < MIN_HIGHLIGHT * region.area) continue;
    if (core.left === 0 || core.top === 0 || core.right === w - 1 || core.bottom === h - 1) continue;
    let ring = 0;
    let between = 0;
    let onPiece = 0;
    for (let y = Math.max(0, core.top - 3); y <= Math.min(h - 1, core.bottom + 3); y++) {
      for (let x = Math.max(0, core.left - 3); x <= Math.min(w - 1, core.right + 3); x++) {
        if (cores[y * w + x] === core.label) continue;
        let near = false;
        for (let dy = -3; dy <= 3 && !near; dy++)
          for (let dx = -3; dx <= 3 && !near; dx++) {
            const yy = y + dy;
            const xx = x + dx;
            near = yy >= 0 && yy < h && xx >= 0 && xx < w && cores[yy * w + xx] === core.label;
          }
        if (!near) continue;
        ring++;
        const p = (y + region.top) * width + x + region.left;
        if (labels[p] === region.label) onPiece++;
        const tone = lum(p);
        if (tone > mid && tone < BRIGHT) between++;
      }
    }
    // Enclosed by the piece (not the backdrop reaching in), and soft-edged.
    if (ring > 0 && onPiece / ring >= 0.5 && between / ring >= SOFT_EDGE) return true;
  }
  return false;
}
