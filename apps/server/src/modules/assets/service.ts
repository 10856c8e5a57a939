/** The assets library (spec "Screens and routes" screen 5): the caller's files, filtered, sorted, paged, renamed and deleted. */
import type { AssetOrigin, AssetStatus, AssetType, SortOrder } from '@reelsmith/contract';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { type FileRow, files, projects } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { usedBytes } from '../files/storedObjects.js';
import { forgetCachedCopies } from '../files/workDir.js';

/** Every query here is scoped to its owner: another user's file answers "not found", never its data. */
const ownedBy = (userId: string, ...more: (SQL | undefined)[]) => and(eq(files.userId, userId), ...more);

export interface AssetFilter {
  page: number;
  pageSize: number;
  type?: z.infer<typeof AssetType> | undefined;
  source?: z.infer<typeof AssetOrigin> | undefined;
  status?: z.infer<typeof AssetStatus> | undefined;
  sort: z.infer<typeof SortOrder>;
}

export async function listAssets(db: Db, userId: string, filter: AssetFilter): Promise<{ rows: FileRow[]; total: number }> {
  const where = ownedBy(
    userId,
    filter.type && eq(files.type, filter.type),
    filter.source && eq(files.source, filter.source),
    filter.status && eq(files.status, filter.status),
  );
  const order = filter.sort === 'newest' ? [desc(files.createdAt), desc(files.id)] : [asc(files.createdAt), asc(files.id)];
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(files)
      .where(where)
      .orderBy(...order)
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize),
    db.select({ n: count() }).from(files).where(where),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

export async function renameAsset(db: Db, userId: string, fileId: string, name: string): Promise<void> {
  const renamed = await db
    .update(files)
    .set({ name })
    .where(ownedBy(userId, eq(files.id, fileId)))
    .returning({ id: files.id });
  if (renamed.length === 0) throw new AppError('notFound');
}

/**
 * Deletes all the given files or none: one that is not the caller's makes the whole call "not found". Their
 * stored objects go once the rows are gone (an object without a row is unreachable; a row without its object
 * would be a broken asset).
 */
export async function deleteAssets(ctx: AppContext, userId: string, fileIds: readonly string[]): Promise<void> {
  const unique = [...new Set(fileIds)];
  const deleted = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .delete(files)
      .where(ownedBy(userId, inArray(files.id, unique)))
      .returning({ fileId: files.id, resKey: files.resKey, thumbKey: files.thumbKey });
    // Throwing rolls the deletion back.
    if (rows.length !== unique.length) throw new AppError('notFound');
    return rows.map(({ fileId, resKey, thumbKey }) => ({
      fileId,
      resKeys: [resKey, thumbKey].filter((key): key is string => key !== null),
    }));
  });
  await ctx.storage.delete(deleted.flatMap((file) => file.resKeys));
  // What renders and the template picker derived from them goes with them.
  await forgetCachedCopies(ctx.settings.dataDir, deleted);
}

/** The caller's stored files among these ids; ids of others' files, and imports not done yet, are simply absent. */
export const storedAssets = (db: Db, userId: string, fileIds: readonly string[]) =>
  db
    .select()
    .from(files)
    .where(ownedBy(userId, inArray(files.id, [...fileIds]), eq(files.status, 'completed')));

/**
 * The library's figures. `bytes` is what the storage quota counts (every object the user stores: files and their
 * thumbnails, uploads not registered yet, captured pages), beside the quota itself.
 */
export async function assetStatistics(db: Db, userId: string, quotaBytes: number) {
  const completed = sql`${files.status} = 'completed'`;
  const [[totals], [projectCount], bytes] = await Promise.all([
    db
      .select({
        total: count(),
        images: sql<number>`count(*) filter (where ${completed} and ${files.type} = 'image')`.mapWith(Number),
        videos: sql<number>`count(*) filter (where ${completed} and ${files.type} = 'video')`.mapWith(Number),
      })
      .from(files)
      .where(ownedBy(userId)),
    db.select({ n: count() }).from(projects).where(eq(projects.userId, userId)),
    usedBytes(db, userId),
  ]);
  return {
    total: totals?.total ?? 0,
    images: totals?.images ?? 0,
    videos: totals?.videos ?? 0,
    projects: projectCount?.n ?? 0,
    bytes,
    quotaBytes,
  };
}
