/**
 * How a template and a brand treat the pictures of an ad (decision "Ad templates"): the studio colour products
 * are set in, the grade of each scene, and the end card's still. Stills are made once per look and kept, so the
 * previews and the export of one template share them.
 */
import { createHash, randomUUID } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import type { BrandLook } from '../brand/look.js';
import { PROBLEM_GRADE } from '../imaging/grade.js';
import { drawEndCard } from './endCard.js';
import type { Look, StillLook } from './look.js';
import type { TimelineScene } from './scene/types.js';

const rgbOf = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
const mix = (base: number[], tint: number[], share: number) =>
  base.map((v, i) => Math.round(v * (1 - share) + (tint[i] as number) * share));

/**
 * The studio sweeps of the studio templates: a warm paper white or a charcoal, each tinted a little toward the
 * brand's accent so the set belongs to the brand without fighting the product's own colours.
 */
const STUDIO = { 'light-studio': { base: [243, 241, 237], share: 0.1 }, 'dark-studio': { base: [29, 28, 27], share: 0.07 } };

/** The look of a scene's still in `template` for `brand`. */
export function stillLook(template: Look, brand: BrandLook, grade: TimelineScene['grade']): StillLook {
  const studio = template.set === 'photo' ? undefined : STUDIO[template.set];
  return {
    setColour: studio && mix(studio.base, rgbOf(brand.secondary), studio.share),
    grade: grade === 'problem' ? PROBLEM_GRADE : template.grade,
  };
}

/** Identifies a file by path, size and change time: a new logo under the same name makes a new end card. */
async function fileIdentity(file: string | undefined): Promise<string> {
  if (!file) return 'none';
  const { size, mtimeMs } = await stat(file);
  return `${file}\0${size}\0${mtimeMs}`;
}

/** The end card's still made from the framed still `still`, kept beside it. */
export async function endCardStill(
  still: string,
  options: { width: number; height: number; brand: BrandLook; template: Look },
): Promise<string> {
  const { brand, template } = options;
  const key = createHash('sha256')
    .update([await fileIdentity(brand.logo), brand.primary, brand.secondary, template.id, 'end-1'].join('\0'))
    .digest('hex')
    .slice(0, 16);
  const out = `${still}.end-${key}.jpg`;
  if (await stat(out).catch(() => undefined)) return out;
  const partial = `${out}.${randomUUID()}.part.jpg`;
  try {
    await drawEndCard(still, partial, options);
    await rename(partial, out);
  } finally {
    await rm(partial, { force: true });
  }
  return out;
}
