// The pictures and clips a video is made of: the user's own stored files, in the order the user put them.
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../../context.js';
import { type FileRow, files } from '../../../db/schema.js';
import { AppError } from '../../../errors.js';

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
