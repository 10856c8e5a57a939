// The pictures a generation starts from (spec "Validation rules"): one of the caller's own stored images (its resKey, under their
// prefix), a link fetched through the SSRF-safe fetcher, or one of our presets (try-on models and apparel).
// Checked at submit as far as possible without fetching; fetched and checked by content when the task runs.
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { imageInfo, sniff } from '@reelsmith/media';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { files } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { formatOf } from '../files/formats.js';
import { checkLink, download } from '../files/importUrl.js';
import { isUsersKey } from '../files/storage/keys.js';
import { checkInputPicture } from '../image-edit/bounds.js';
import { presetPicture } from './presets.js';

export interface PictureRef {
  resKey?: string | undefined;
  imageUrl?: string | undefined;
  modelId?: string | undefined;
  templateId?: string | undefined;
}

const sourcesOf = (ref: PictureRef) => [ref.resKey, ref.imageUrl, ref.modelId, ref.templateId].filter((v) => v !== undefined);

/**
 * Refuses, before anything is charged, a picture that names nothing or more than one thing, another user's file
 * (answered "Not found." like a missing one), a file that is not a stored image, a link that cannot be fetched
 * whatever DNS answers (a private address, localhost), an unknown preset, or a stored picture larger than one
 * task may work on (decision "Bounded work"). A linked picture is fetched only by the task, which bounds it by its
 * header before anything decodes it.
 */
export async function checkPicture(ctx: AppContext, userId: string, ref: PictureRef, presets: 'model' | 'garment' | 'none' = 'none') {
  if (sourcesOf(ref).length !== 1) throw new AppError('imageRefInvalid');
  if (ref.resKey !== undefined) {
    if (!isUsersKey(userId, ref.resKey)) throw new AppError('notFound');
    const [row] = await ctx.db
      .select({ type: files.type, width: files.width, height: files.height })
      .from(files)
      .where(and(eq(files.userId, userId), eq(files.resKey, ref.resKey), eq(files.status, 'completed')));
    if (!row) throw new AppError('notFound');
    if (row.type !== 'image') throw new AppError('inputNotImage');
    // A stored picture's size was read when it was stored: bounded here, before the charge.
    if (row.width !== null && row.height !== null) checkInputPicture({ width: row.width, height: row.height });
  }
  if (ref.imageUrl !== undefined) checkLink(ctx.settings, ref.imageUrl);
  if (ref.modelId !== undefined && (presets !== 'model' || !presetPicture('model', ref.modelId))) throw new AppError('notFound');
  if (ref.templateId !== undefined && (presets !== 'garment' || !presetPicture('garment', ref.templateId))) throw new AppError('notFound');
}

export interface Picture {
  path: string;
  width: number;
  height: number;
}

/** The picture as a checked image file in `dir`: a JPG, PNG or WEBP whose header reads, within the task's pixel bound. */
export async function fetchPicture(ctx: AppContext, userId: string, ref: PictureRef, dir: string, name: string): Promise<Picture> {
  const path = join(dir, name);
  if (ref.resKey !== undefined) {
    await checkPicture(ctx, userId, { resKey: ref.resKey });
    await pipeline(await ctx.storage.read(ref.resKey), createWriteStream(path));
  } else if (ref.imageUrl !== undefined) {
    await writeFile(path, await download(ctx.settings, ref.imageUrl));
  } else {
    const preset = ref.modelId !== undefined ? presetPicture('model', ref.modelId) : presetPicture('garment', ref.templateId ?? '');
    if (!preset) throw new AppError('notFound');
    await writeFile(path, await preset.render());
  }
  if (formatOf((await sniff(path))?.ext ?? '')?.type !== 'image') throw new AppError('inputNotImage');
  let size: { width: number; height: number };
  try {
    size = await imageInfo(path);
  } catch (error) {
    throw new AppError('inputNotImage', {}, { cause: error });
  }
  checkInputPicture(size);
  return { path, width: size.width, height: size.height };
}
