/**
 * Turns an object a browser uploaded to a put-url into an asset: only the caller's own upload keys, checked by
 * content like every file, stored under the file's key. The upload object is removed whatever the outcome, once
 * copied to the work directory, so a refused upload leaves nothing behind.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../../context.js';
import type { FileRow } from '../../db/schema.js';
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
  const stored = await withWorkDir(ctx.settings, async (dir) => {
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
    return ingest(ctx, { userId, fileId, path });
  });
  return addFile(ctx, { userId, fileId, name: fileName, source: 'local', projectId: projectId ?? null }, stored);
}
