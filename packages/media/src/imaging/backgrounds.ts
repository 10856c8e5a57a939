/**
 * The preset backgrounds of AI background (product-background): pictures the product draws itself with sharp
 * from SVG (gradients, and feTurbulence noise for stone and wood grain), made on first use and kept on disk.
 * Every scene leaves its lower part calm, where the product stands.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

export type BackgroundCategory = 'studio' | 'texture' | 'scene' | 'outdoor';

export interface BackgroundPreset {
  backgroundId: string;
  category: BackgroundCategory;
  /** The SVG of the picture at `size`×`size`. */
  svg(size: number): string;
}

/** The presets' side: square, large enough for a 1024 px product shot. */
export const BACKGROUND_SIZE = 1280;

const svg = (size: number, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100" preserveAspectRatio="none">${body}</svg>`;

/** A wall and a floor meeting at `horizon` (percent from the top), each a vertical gradient. */
const room = (size: number, wall: [string, string], floor: [string, string], horizon: number, extra = '') =>
  svg(
    size,
    `<defs>
      <linearGradient id="w" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${wall[0]}"/><stop offset="1" stop-color="${wall[1]}"/></linearGradient>
      <linearGradient id="f" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${floor[0]}"/><stop offset="1" stop-color="${floor[1]}"/></linearGradient>
    </defs>
    <rect width="100" height="${horizon}" fill="url(#w)"/>
    <rect y="${horizon}" width="100" height="${100 - horizon}" fill="url(#f)"/>${extra}`,
  );

/** A seamless studio sweep: a radial light on a vertical gradient. */
const studio = (size: number, light: string, mid: string, edge: string) =>
  svg(
    size,
    `<defs>
      <radialGradient id="g" cx="50%" cy="42%" r="75%"><stop offset="0" stop-color="${light}"/><stop offset="0.55" stop-color="${mid}"/><stop offset="1" stop-color="${edge}"/></radialGradient>
    </defs><rect width="100" height="100" fill="url(#g)"/>`,
  );

/** Noise turned into a texture: `frequency` sets the grain (x, y), the matrix maps it onto the colours. */
const noise = (size: number, frequency: string, octaves: number, matrix: string, base: string, seed: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
    <filter id="n" x="0" y="0" width="100%" height="100%">
      <feTurbulence type="fractalNoise" baseFrequency="${frequency}" numOctaves="${octaves}" seed="${seed}"/>
      <feColorMatrix type="matrix" values="${matrix}"/>
    </filter>
    <rect width="${size}" height="${size}" fill="${base}"/>
    <rect width="${size}" height="${size}" filter="url(#n)"/>
  </svg>`;

export const BACKGROUNDS: readonly BackgroundPreset[] = [
  { backgroundId: 'studio-white', category: 'studio', svg: (s) => studio(s, '#ffffff', '#f1f1f1', '#d9d9d9') },
  { backgroundId: 'studio-grey', category: 'studio', svg: (s) => studio(s, '#9aa0a6', '#6b7075', '#3b3f43') },
  { backgroundId: 'studio-black', category: 'studio', svg: (s) => studio(s, '#3a3a3a', '#1c1c1c', '#050505') },
  {
    backgroundId: 'marble-white',
    category: 'texture',
    svg: (s) => noise(s, '0.004 0.012', 5, '0 0 0 0 0.35  0 0 0 0 0.35  0 0 0 0 0.38  -2.2 0 0 0 1.25', '#f4f2ef', 7),
  },
  {
    backgroundId: 'wood-oak',
    category: 'texture',
    svg: (s) => noise(s, '0.002 0.09', 3, '0 0 0 0 0.36  0 0 0 0 0.2  0 0 0 0 0.08  0 -1.6 0 0 1.1', '#b07a45', 3),
  },
  {
    backgroundId: 'linen-beige',
    category: 'texture',
    svg: (s) => noise(s, '0.6 0.6', 2, '0 0 0 0 0.5  0 0 0 0 0.44  0 0 0 0 0.36  0 0 0 -0.9 0.5', '#e6dccb', 11),
  },
  { backgroundId: 'pastel-pink', category: 'scene', svg: (s) => room(s, ['#f9d9de', '#f3c4cc'], ['#eab3bd', '#dd9aa7'], 62) },
  { backgroundId: 'pastel-mint', category: 'scene', svg: (s) => room(s, ['#d7f2e8', '#bfe8d8'], ['#a9dcc8', '#8fcdb4'], 62) },
  {
    backgroundId: 'pastel-lilac-podium',
    category: 'scene',
    svg: (s) =>
      room(
        s,
        ['#e5dcf5', '#d3c5ee'],
        ['#c7b6e8', '#b4a0de'],
        58,
        '<ellipse cx="50" cy="86" rx="34" ry="6" fill="#efe8fb"/><rect x="16" y="78" width="68" height="8" fill="#e4dbf6"/><ellipse cx="50" cy="78" rx="34" ry="6" fill="#f6f2fd"/>',
      ),
  },
  {
    backgroundId: 'outdoor-sky',
    category: 'outdoor',
    svg: (s) =>
      room(
        s,
        ['#5b9bd8', '#cfe6f7'],
        ['#9cc27a', '#5f8f45'],
        64,
        '<ellipse cx="28" cy="20" rx="14" ry="4" fill="#fff" fill-opacity="0.7"/><ellipse cx="70" cy="30" rx="18" ry="4.5" fill="#fff" fill-opacity="0.6"/>',
      ),
  },
  {
    backgroundId: 'outdoor-sunset',
    category: 'outdoor',
    svg: (s) =>
      room(s, ['#ff9a62', '#ffd9a0'], ['#c98d6a', '#8a5a45'], 66, '<circle cx="50" cy="62" r="9" fill="#fff1c9" fill-opacity="0.85"/>'),
  },
  {
    backgroundId: 'outdoor-beach',
    category: 'outdoor',
    svg: (s) =>
      room(
        s,
        ['#8fd3f4', '#e0f4fb'],
        ['#f3e1b9', '#e2c58f'],
        58,
        '<rect y="52" width="100" height="6" fill="#4fb3c9" fill-opacity="0.8"/>',
      ),
  },
];

export const backgroundPreset = (backgroundId: string) => BACKGROUNDS.find((b) => b.backgroundId === backgroundId);

const pending = new Map<string, Promise<string>>();

/** The preset as a JPEG in `cacheDir`, drawn now if it is not there yet; undefined for an unknown id. */
export async function backgroundFile(backgroundId: string, cacheDir: string): Promise<string | undefined> {
  const preset = backgroundPreset(backgroundId);
  if (!preset) return undefined;
  const out = join(cacheDir, `${preset.backgroundId}-${BACKGROUND_SIZE}.jpg`);
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
  await sharp(Buffer.from(preset.svg(BACKGROUND_SIZE)))
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 90 })
    .toFile(partial);
  await rename(partial, out);
  return out;
}
