// The picture an image tool works on (contract `ImageRef`): one of the caller's stored images (by resKey) or a
// web address fetched through the files module's SSRF-safe fetcher, brought into a work directory and checked
// by its content before anything is charged or made.
import { createWriteStream } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { imageInfo, sniff } from '@reelsmith/media';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { files } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { FORMAT_EXTENSIONS, formatOf } from '../files/formats.js';
import { download } from '../files/importUrl.js';
import { isUsersKey } from '../files/storage/keys.js';
import { withWorkDir } from '../files/workDir.js';
import { checkInputPicture } from './bounds.js';

/** "JPG, PNG, WEBP": the picture formats the tools read (those the library stores). */
const IMAGE_FORMAT_NAMES = FORMAT_EXTENSIONS.filter((ext) => formatOf(ext)?.type === 'image')
  .map((ext) => ext.toUpperCase())
  .join(', ');

export interface ImageRef {
  imageUrl?: string | undefined;
  resKey?: string | undefined;
}

export interface SourceImage {
  path: string;
  width: number;
  height: number;
  /** jpg, png or webp. */
  format: string;
  /** What the user calls the picture, without its extension: the asset's name, or the link's file name. */
  title: string;
}

/** The stored image a resKey names, when it is one of the user's completed images; else "Not found.". */
async function ownImage(ctx: AppContext, userId: string, resKey: string) {
  if (!isUsersKey(userId, resKey)) throw new AppError('notFound');
  const [row] = await ctx.db
    .select({ id: files.id, type: files.type, name: files.name })
    .from(files)
    .where(and(eq(files.userId, userId), eq(files.resKey, resKey), eq(files.status, 'completed')));
  if (!row) throw new AppError('notFound');
  if (row.type !== 'image') throw new AppError('fileFormatUnsupported', { types: IMAGE_FORMAT_NAMES });
  return row;
}

/** A name without its extension; the link's last path segment for a web address. */
function titleOf(ref: ImageRef, assetName: string | undefined): string {
  const name = assetName ?? decodeURIComponent(new URL(ref.imageUrl as string).pathname.split('/').pop() ?? '');
  return name.replace(/\.[a-z0-9]{2,5}$/i, '').trim() || 'image';
}

/** Refuses a submission that names no picture (spec "Validation rules": image tools need a product image). */
export function requireImage(ref: ImageRef): void {
  if (!ref.resKey && !ref.imageUrl) throw new AppError('imageRequired');
}

/**
 * Writes the picture `ref` names into `dir` and answers it, checked: an image of an accepted format whose header
 * reads, within the pixels one task may work on.
 */
export async function fetchImage(ctx: AppContext, userId: string, ref: ImageRef, dir: string, name = 'source'): Promise<SourceImage> {
  requireImage(ref);
  const raw = join(dir, `${name}.download`);
  let assetName: string | undefined;
  if (ref.resKey) {
    assetName = (await ownImage(ctx, userId, ref.resKey)).name;
    await pipeline(await ctx.storage.read(ref.resKey), createWriteStream(raw));
  } else {
    await writeFile(raw, await download(ctx.settings, ref.imageUrl as string, ctx.settings.maxImageBytes));
  }
  const format = formatOf((await sniff(raw))?.ext ?? '');
  if (format?.type !== 'image') throw new AppError('fileFormatUnsupported', { types: IMAGE_FORMAT_NAMES });
  const path = join(dir, `${name}.${format.ext}`);
  await rename(raw, path);
  let size: { width: number; height: number };
  try {
    size = await imageInfo(path);
  } catch {
    throw new AppError('fileUnreadable');
  }
  // Read from the header only: a picture past the bound is refused before anything decodes it.
  checkInputPicture(size);
  return { path, width: size.width, height: size.height, format: format.ext, title: titleOf(ref, assetName) };
}

/** The picture's facts for `accept`: fetched into a work directory that is removed at once. */
export const inspectImage = (ctx: AppContext, userId: string, ref: ImageRef) =>
  withWorkDir(ctx.settings, async (dir) => {
    const { width, height, format } = await fetchImage(ctx, userId, ref, dir);
    return { width, height, format };
  });
