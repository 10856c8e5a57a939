/**
 * Turns an object a browser uploaded to a put-url into an asset: only the caller's own upload keys, checked by
 * content like every file, stored under the file's key. The upload object is removed whatever the outcome, once
 * copied to the work directory, so a refused upload leaves nothing behind.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, desc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { type FileRow, files } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { getProject } from '../projects/service.js';
import { maxBytesOfAny, megabytes } from './formats.js';
import { ingest } from './ingest.js';
import { addFile } from './records.js';
import { isUsersUploadKey } from './storage/keys.js';
import { withWorkDir } from './workDir.js';

export interface UploadRegistration {
  resKey: string;
  fileName: string;
  projectId?: string | undefined;
}

export async function registerUpload(
  ctx: AppContext,
  userId: string,
  { resKey, fileName, projectId }: UploadRegistration,
): Promise<FileRow> {
  // Another user's key is answered like a missing one: it does not say the key exists.
  if (!isUsersUploadKey(userId, resKey)) throw new AppError('notFound');
  if (projectId) await getProject(ctx.db, userId, projectId);
  const fileId = randomUUID();
  const outcome = await withWorkDir(ctx.settings, async (dir) => {
    const path = join(dir, 'upload');
    try {
      const uploaded = await ctx.storage.stat(resKey);
      if (!uploaded) throw new AppError('notFound');
      if (uploaded.size === 0) throw new AppError('fileEmpty');
      // The limit of the file's type is checked once its content says which type it is; this bounds the copy.
      const maxBytes = maxBytesOfAny(ctx.settings);
      if (uploaded.size > maxBytes) throw new AppError('fileTooLarge', { limitMb: megabytes(maxBytes) });
      await pipeline(await ctx.storage.read(resKey), createWriteStream(path));
    } finally {
      // Gone whatever the outcome, the room reserved for it with it, before the file is stored: the upload and
      // the file it becomes never count twice against the quota. (An upload whose PUT was refused has only that
      // reservation, given back here too.)
      await ctx.storage.delete([resKey]);
    }
    const contentHash = await sha256Of(path);
    const existing = await sameUpload(ctx, userId, contentHash);
    if (existing) return { kind: 'known', row: existing } as const;
    return { kind: 'new', contentHash, stored: await ingest(ctx, { userId, fileId, path }) } as const;
  });
  if (outcome.kind === 'known') return outcome.row;
  const file = { userId, fileId, name: fileName, source: 'local' as const, projectId: projectId ?? null, contentHash: outcome.contentHash };
  return addFile(ctx, file, outcome.stored);
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * The user's stored asset with these bytes, if any: the same picture uploaded again in another tool is the asset
 * already in the library, not a copy (decision "One asset per uploaded file").
 */
async function sameUpload(ctx: AppContext, userId: string, contentHash: string): Promise<FileRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(files)
    .where(and(eq(files.userId, userId), eq(files.contentHash, contentHash), eq(files.status, 'completed')))
    .orderBy(desc(files.createdAt))
    .limit(1);
  return row;
}
