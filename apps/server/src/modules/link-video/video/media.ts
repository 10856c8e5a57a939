// The pictures and clips a video is made of: the user's own stored files, in the order the user put them.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../../context.js';
import { type FileRow, files } from '../../../db/schema.js';
import { AppError } from '../../../errors.js';
import { cacheDirOf, localCopyName } from '../../files/workDir.js';

export type MediaFile = FileRow & { resKey: string; type: 'image' | 'video' };

/** The files by id, in the order given; refused when any is not the user's, or is not stored (a failed import). */
export async function mediaFiles(ctx: AppContext, userId: string, fileIds: readonly string[]): Promise<MediaFile[]> {
  if (fileIds.length === 0) throw new AppError('noMaterials');
  const rows = await ctx.db
    .select()
    .from(files)
    .where(and(eq(files.userId, userId), inArray(files.id, [...fileIds]), eq(files.status, 'completed')));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return fileIds.map((id) => {
    const row = byId.get(id);
    if (!row?.resKey || !row.type) throw new AppError('notFound');
    return row as MediaFile;
  });
}

/**
 * A stored object as a local file, fetched from storage once and kept, so the previews, edits and export of a
 * project read (and scale) each picture once, and the template thumbnails the same logo. Named by its key: a
 * stored object never changes.
 */
export async function localCopy(ctx: AppContext, resKey: string, format: string | null): Promise<string> {
  const dir = cacheDirOf(ctx.settings.dataDir, 'media');
  const path = join(dir, `${localCopyName(resKey)}.${format ?? 'bin'}`);
  if (await stat(path).catch(() => undefined)) return path;
  await mkdir(dir, { recursive: true });
  const partial = `${path}.${randomUUID()}.part`;
  await pipeline(await ctx.storage.read(resKey), createWriteStream(partial));
  await rename(partial, path);
  return path;
}
