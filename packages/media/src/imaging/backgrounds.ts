/**
 * The preset backgrounds of AI background (product-background): studio sets the product renders itself, pixel by
 * pixel (decision "Studio backdrops"). Each is lit as a photographer's set is: the light worked out in linear light
 * (seamless paper sweeps whose wall falls off away from the key light and curves into the floor, gradient walls on a
 * tabletop, podiums and plinths shaded as solids with a contact shadow under them, glossy floors mirroring the wall),
 * then turned to sRGB with a little grain, as a photo has, so no gradient bands. Each names its stage: where the
 * product stands, how large, and whether the floor reflects it. Made on first use and kept on disk.
 * Brand sets (`brand-<kind>-<rrggbb>[-<rrggbb>]`) are the same sets in a brand kit's colours.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { clamp } from './open.js';

export type BackgroundCategory = 'studio' | 'podium' | 'tabletop' | 'glossy' | 'brand';

/** Where the product stands on a set, as shares of the frame. */
export interface Stage {
  /** The height of the product's base. */
  base: number;
  /** The most of the frame's height and width it may take. */
  height: number;
  width: number;
  /** How strongly the floor mirrors it (0: a matte floor). */
  reflection: number;
}

export interface BackgroundPreset {
  backgroundId: string;
  category: BackgroundCategory;
  stage: Stage;
  /** The set's pixels (RGB) at `size`×`size`. */
  render(size: number): Buffer;
}

/** The presets' side: square, large enough for a 1024 px product shot. */
export const BACKGROUND_SIZE = 1280;
/** Bumped when the sets are drawn differently: older pictures in the cache are not used. */
const RENDER_VERSION = 2;

type Rgb = readonly [number, number, number];

const hex = (value: string): Rgb => {
  const n = Number.parseInt(value.replace('#', ''), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};
/** sRGB (0–255) to linear light (0–1) and back. */
const toLinear = (c: number) => (c / 255) ** 2.2;
const linearOf = (colour: string) => hex(colour).map(toLinear) as unknown as Rgb;
const smoothstep = (a: number, b: number, x: number) => {
  const t = clamp((x - a) / (b - a), 0, 1);
  return t * t * (3 - 2 * t);
};
const mixRgb = (a: Rgb, b: Rgb, t: number): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
const scaleRgb = (a: Rgb, k: number): Rgb => [a[0] * k, a[1] * k, a[2] * k];

/** A set as a function of the point (u, v in 0–1 from the top left) to its colour in linear light. */
type Shader = (u: number, v: number) => Rgb;

/** Renders a shader to sRGB bytes with a fixed grain (about one level), seeded so a set is the same each time. */
function render(size: number, shader: Shader): Buffer {
  const out = Buffer.alloc(size * size * 3);
  let seed = 12345;
  const grain = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    const a = seed / 4294967296;
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return (a + seed / 4294967296 - 1) * 2.4;
  };
  for (let y = 0; y < size; y++) {
    const v = (y + 0.5) / size;
    for (let x = 0; x < size; x++) {
      const colour = shader((x + 0.5) / size, v);
      const i = (y * size + x) * 3;
      const noise = grain();
      for (let c = 0; c < 3; c++) out[i + c] = clamp(Math.round(255 * clamp(colour[c] as number, 0, 1) ** (1 / 2.2) + noise), 0, 255);
    }
  }
  return out;
}

/** A vignette: the frame's corners a little darker, as a lens and a falling light make them. */
const vignette = (u: number, v: number, strength: number) => 1 - strength * Math.hypot((u - 0.5) * 1.2, v - 0.5) ** 2.4;

/**
 * A seamless paper sweep: the wall lit by a key light above the set, falling off to the top and the sides, curving
 * at `horizon` into a floor that is brightest just in front of the curve and darkens toward the camera.
 */
function sweep(paper: string, horizon = 0.6, pool = 0.35): Shader {
  const base = linearOf(paper);
  return (u, v) => {
    const wall = 0.72 + pool * Math.exp(-(((u - 0.5) / 0.36) ** 2) - ((v - 0.42) / 0.32) ** 2) - 0.18 * (1 - v / horizon) ** 2;
    const depth = (v - horizon) / (1 - horizon);
    const floor = 0.9 + 0.18 * Math.exp(-(((u - 0.5) / 0.42) ** 2)) - 0.28 * clamp(depth, 0, 1) ** 1.5;
    const f = smoothstep(horizon - 0.09, horizon + 0.09, v);
    // Where the paper curves it faces the light more: a soft bright band.
    const curve = 0.05 * Math.exp(-(((v - horizon) / 0.05) ** 2));
    return scaleRgb(base, (wall * (1 - f) + floor * f + curve) * vignette(u, v, 0.35));
  };
}

/**
 * A gradient wall (from `top` to `wall` down) on a tabletop meeting it at `horizon`, lit from the upper left as by
 * a window; with `gloss`, the tabletop mirrors the wall, faded and softened with distance.
 */
function tabletop(top: string, wall: string, table: string, horizon = 0.68, gloss = 0): Shader {
  const [t, w, s] = [linearOf(top), linearOf(wall), linearOf(table)];
  const wallAt = (u: number, v: number) => {
    const light = 0.82 + 0.32 * Math.exp(-(((u - 0.3) / 0.5) ** 2) - ((v - 0.25) / 0.45) ** 2);
    return scaleRgb(mixRgb(t, w, smoothstep(0, horizon, v)), light);
  };
  return (u, v) => {
    let colour: Rgb;
    if (v < horizon) colour = scaleRgb(wallAt(u, v), 1 - 0.12 * Math.exp(-((horizon - v) / 0.03)));
    else {
      const depth = (v - horizon) / (1 - horizon);
      const light = 0.95 + 0.12 * Math.exp(-(((u - 0.4) / 0.45) ** 2)) - 0.22 * depth ** 1.4;
      colour = scaleRgb(s, light);
      if (gloss > 0) {
        // The wall mirrored in the tabletop: sampled across the edge, fainter and softer further from it.
        const mirrored = wallAt(u, Math.max(0, 2 * horizon - v));
        const strength = gloss * Math.exp(-depth * 2.2);
        colour = mixRgb(colour, mirrored, strength);
      }
      // The tabletop's front edge catches the light: a thin highlight along the line where it meets the wall.
      colour = scaleRgb(colour, 1 + 0.1 * Math.exp(-(((v - horizon) / 0.004) ** 2)));
    }
    return scaleRgb(colour, vignette(u, v, 0.3));
  };
}

/** The direction the solids are lit from: above, front and left. */
const LIGHT = (() => {
  const l = [-0.45, 0.35, 0.82];
  const n = Math.hypot(...l);
  return l.map((c) => c / n) as [number, number, number];
})();

/** A soft shadow on the floor under a solid of half-width `rx` whose base is at `base`, offset away from the light. */
const contactOnFloor = (u: number, v: number, cx: number, rx: number, base: number, ry: number) => {
  const dx = (u - cx - rx * 0.06) / (rx * 1.08);
  const dy = (v - base - ry * 0.1) / (ry * 1.6);
  const d = Math.hypot(dx, dy);
  return 1 - 0.5 * Math.exp(-((Math.max(0, d - 0.85) / 0.12) ** 2)) * (d < 1.4 ? 1 : 0);
};

/**
 * A cylindrical podium of `material` standing on `behind`'s floor: its side shaded as a cylinder lit from the upper
 * left (diffuse and a soft specular line), darker toward its foot; its top, facing the light, the brightest with a lit
 * rim at the front edge; a contact shadow on the floor around its foot.
 */
function podium(behind: Shader, material: string, top = 0.74, rx = 0.27, foot = 0.95): Shader {
  const m = linearOf(material);
  const ry = rx * 0.16;
  const cx = 0.5;
  return (u, v) => {
    const s = (u - cx) / rx;
    const inside = Math.abs(s) <= 1;
    const rim = inside ? Math.sqrt(1 - s * s) : 0;
    const topFace = inside && Math.abs(v - top) <= ry * rim;
    if (topFace) {
      const back = (v - (top - ry * rim)) / Math.max(1e-6, 2 * ry * rim);
      const edge = 0.12 * Math.exp(-((((1 - back) * 2 * ry * rim) / 0.004) ** 2));
      return scaleRgb(m, 1.0 + 0.08 * back + edge - 0.1 * Math.abs(s) ** 3);
    }
    if (inside && v > top && v <= foot + ry * rim) {
      const diffuse = Math.max(0, LIGHT[0] * s + LIGHT[2] * rim);
      const halfway = Math.max(0, (LIGHT[0] * s + (LIGHT[2] + 1) * rim) / Math.hypot(LIGHT[0], LIGHT[2] + 1));
      const specular = 0.12 * halfway ** 40;
      const occlusion = 1 - 0.18 * smoothstep(top, foot + ry, v) ** 3;
      return scaleRgb(m, (0.3 + 0.62 * diffuse + specular) * occlusion);
    }
    return scaleRgb(behind(u, v), contactOnFloor(u, v, cx, rx, foot, ry));
  };
}

/**
 * A square plinth seen from the front and a little above: its top face (a trapezoid, lit), its front face (shaded,
 * darker toward its foot) with a lit front edge, a contact shadow on the floor at its foot.
 */
function plinth(behind: Shader, material: string, top = 0.72, half = 0.22, foot = 0.96): Shader {
  const m = linearOf(material);
  const depth = 0.045;
  const cx = 0.5;
  return (u, v) => {
    const dx = Math.abs(u - cx);
    if (v >= top - depth && v < top) {
      // The top face: narrower at the back (perspective), brighter at the front.
      const t = (v - (top - depth)) / depth;
      if (dx <= half * (0.9 + 0.1 * t)) return scaleRgb(m, 1.02 + 0.06 * t - 0.08 * (dx / half) ** 4);
    }
    if (v >= top && v <= foot && dx <= half) {
      const t = (v - top) / (foot - top);
      const edge = 0.1 * Math.exp(-(((v - top) / 0.003) ** 2));
      return scaleRgb(m, (0.66 - (0.1 * (u - cx)) / half) * (1 - 0.2 * t ** 2) + edge);
    }
    return scaleRgb(behind(u, v), contactOnFloor(u, v, cx, half, foot, 0.035));
  };
}

/** A lighter and a darker tone of a colour, for a set drawn from one brand colour. */
const tone = (colour: string, k: number) =>
  `#${hex(colour)
    .map((c) => clamp(Math.round(k >= 1 ? c + (255 - c) * (k - 1) : c * k), 0, 255))
    .map((c) => c.toString(16).padStart(2, '0'))
    .join('')}`;

const STANDING: Stage = { base: 0.88, height: 0.66, width: 0.7, reflection: 0 };
const ON_PODIUM: Stage = { base: 0.745, height: 0.58, width: 0.42, reflection: 0 };
const ON_PLINTH: Stage = { base: 0.7, height: 0.56, width: 0.38, reflection: 0 };
const ON_TABLE: Stage = { base: 0.86, height: 0.64, width: 0.7, reflection: 0 };
const ON_GLOSS: Stage = { base: 0.8, height: 0.6, width: 0.66, reflection: 0.32 };

const preset = (backgroundId: string, category: BackgroundCategory, stage: Stage, shader: () => Shader): BackgroundPreset => ({
  backgroundId,
  category,
  stage,
  render: (size) => render(size, shader()),
});

export const BACKGROUNDS: readonly BackgroundPreset[] = [
  preset('studio-white', 'studio', STANDING, () => sweep('#f3f2ef')),
  preset('studio-grey', 'studio', STANDING, () => sweep('#8e9297', 0.6, 0.5)),
  preset('studio-black', 'studio', STANDING, () => sweep('#2c2c2e', 0.6, 0.9)),
  preset('studio-cream', 'studio', STANDING, () => sweep('#eee2cc')),
  preset('podium-white', 'podium', ON_PODIUM, () => podium(sweep('#e9e7e3', 0.56), '#f6f5f2')),
  preset('podium-blush', 'podium', ON_PODIUM, () => podium(sweep('#efcfc9', 0.56), '#f7e3de')),
  preset('podium-sage', 'podium', ON_PODIUM, () => podium(sweep('#c9d6c3', 0.56), '#e2eadc')),
  preset('plinth-stone', 'podium', ON_PLINTH, () => plinth(sweep('#d8d3ca', 0.56), '#c2bbb0')),
  preset('plinth-black', 'podium', ON_PLINTH, () => plinth(sweep('#3a3a3e', 0.56, 0.7), '#1d1d20')),
  preset('wall-sunset', 'tabletop', ON_TABLE, () => tabletop('#f7a46f', '#fbd9b4', '#e9d3bb')),
  preset('wall-terracotta', 'tabletop', ON_TABLE, () => tabletop('#b9623f', '#d58a66', '#eadccb')),
  preset('wall-navy', 'tabletop', ON_TABLE, () => tabletop('#1f3550', '#3a5878', '#d9d2c6')),
  preset('glossy-black', 'glossy', ON_GLOSS, () => tabletop('#2a2a30', '#45454d', '#141416', 0.7, 0.45)),
  preset('glossy-white', 'glossy', ON_GLOSS, () => tabletop('#f4f4f4', '#e2e2e4', '#d8d8da', 0.7, 0.35)),
];

/** The brand sets: a sweep in the first colour, a podium of the first on the second, a wall of the second. */
const BRAND_KINDS: Record<string, { stage: Stage; shader: (a: string, b: string) => Shader }> = {
  sweep: { stage: STANDING, shader: (a) => sweep(a) },
  podium: { stage: ON_PODIUM, shader: (a, b) => podium(sweep(b, 0.56), a) },
  wall: { stage: ON_TABLE, shader: (a, b) => tabletop(tone(b, 0.85), b, tone(a, 1.55)) },
};

const BRAND_ID = /^brand-(sweep|podium|wall)-([0-9a-f]{6})(?:-([0-9a-f]{6}))?$/;

/** The brand sets in a kit's two colours (`#rrggbb`), as ids `backgroundPreset` understands. */
export const brandBackgroundIds = (primary: string, secondary: string) => {
  const [a, b] = [primary, secondary].map((c) => c.replace('#', '').toLowerCase());
  return Object.keys(BRAND_KINDS).map((kind) => `brand-${kind}-${a}-${b}`);
};

export function backgroundPreset(backgroundId: string): BackgroundPreset | undefined {
  const own = BACKGROUNDS.find((b) => b.backgroundId === backgroundId);
  if (own) return own;
  const brand = BRAND_ID.exec(backgroundId);
  if (!brand) return undefined;
  const kind = BRAND_KINDS[brand[1] as string];
  if (!kind) return undefined;
  const a = `#${brand[2]}`;
  const b = brand[3] ? `#${brand[3]}` : a;
  return { backgroundId, category: 'brand', stage: kind.stage, render: (size) => render(size, kind.shader(a, b)) };
}

const fileName = (backgroundId: string) => `${backgroundId}-v${RENDER_VERSION}-${BACKGROUND_SIZE}.jpg`;

/** The stage of a preset's picture by its file (as `backgroundFile` names it); undefined for any other picture. */
export function stageOfFile(path: string): Stage | undefined {
  const name = basename(path);
  const suffix = `-v${RENDER_VERSION}-${BACKGROUND_SIZE}.jpg`;
  return name.endsWith(suffix) ? backgroundPreset(name.slice(0, -suffix.length))?.stage : undefined;
}

const pending = new Map<string, Promise<string>>();

/** The preset as a JPEG in `cacheDir`, drawn now if it is not there yet; undefined for an unknown id. */
export async function backgroundFile(backgroundId: string, cacheDir: string): Promise<string | undefined> {
  const preset = backgroundPreset(backgroundId);
  if (!preset) return undefined;
  const out = join(cacheDir, fileName(preset.backgroundId));
  if (await stat(out).catch(() => undefined)) return out;
  let making = pending.get(out);
  if (!making) {
    making = draw(preset, out).finally(() => pending.delete(out));
    pending.set(out, making);
  }
  return making;
}

async function draw(preset: BackgroundPreset, out: string): Promise<string> {
  await mkdir(join(out, '..'), { recursive: true });
  // Written aside and renamed: another worker reading the cache never sees half a picture.
  const partial = `${out}.${randomUUID()}.part`;
  await sharp(preset.render(BACKGROUND_SIZE), { raw: { width: BACKGROUND_SIZE, height: BACKGROUND_SIZE, channels: 3 } })
    .jpeg({ quality: 92 })
    .toFile(partial);
  await rename(partial, out);
  return out;
}
