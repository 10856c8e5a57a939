/**
 * Asset URL import (spec "States and transitions"): `POST /assert/url-task {url}` lists the file at once as a draft and queues an
 * `asset-url` task; the worker fetches it through the SSRF-safe fetcher, checks and stores it like any upload
 * and completes the row. `GET /assert/url-task?fileId=` reads the row: -1 failed, 4 stored, 1 still working.
 * The task's own state is not needed by the web app; the file row is the truth it polls.
 */
import { randomUUID } from 'node:crypto';
import { ASSET_URL_TASK_FAILURE, ASSET_URL_TASK_SUCCESS, type Locale, type User } from '@reelsmith/contract';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { files } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { importFromUrl, nameFromUrl } from '../files/importUrl.js';
import { discard, discardAny } from '../files/ingest.js';
import { errorText, storedColumns } from '../files/records.js';
import type { TaskDefinition } from '../tasks/definition.js';
import { submitTask } from '../tasks/queue.js';

/** What the spec's pollers treat as "still submitted": any value but -1 and 4. */
const ASSET_URL_TASK_RUNNING = 1;

const Input = z.object({ fileId: z.string(), url: z.string() });
type Input = z.infer<typeof Input>;

/** The caller's file that is still a draft, with the condition every write of the import makes. */
const draft = (userId: string, fileId: string) => and(eq(files.id, fileId), eq(files.userId, userId), eq(files.status, 'draft'));

export const assetUrlImportTask: TaskDefinition<Input, { fileId: string; resKey: string }> = {
  kind: 'asset-url',
  input: Input,
  timeoutMs: 5 * 60_000,
  async accept(ctx, user, input) {
    const [row] = await ctx.db.select({ id: files.id }).from(files).where(draft(user.userId, input.fileId));
    if (!row) throw new AppError('notFound');
  },
  async run({ ctx, userId, input, signal }) {
    const stored = await importFromUrl(ctx, { userId, fileId: input.fileId, url: input.url, signal });
    const [row] = await ctx.db
      .update(files)
      .set({ status: 'completed', ...storedColumns(stored) })
      .where(draft(userId, input.fileId))
      .returning({ id: files.id });
    // The user deleted the draft while it was being fetched: keep nothing.
    if (!row) {
      await discard(ctx, stored);
      throw new AppError('notFound');
    }
    return { fileId: input.fileId, resKey: stored.resKey };
  },
  async failed(ctx, task, error) {
    await ctx.db
      .update(files)
      .set({ status: 'failed', error: JSON.stringify(error) })
      .where(draft(task.userId, task.input.fileId));
    // A task stopped (timed out, cancelled) between storing the objects and completing the row leaves them behind.
    await discardAny(ctx, task.userId, task.input.fileId);
  },
};

/** Lists the URL's file as a draft of the caller's library and queues its import; answers the file id. */
export async function submitUrlImport(ctx: AppContext, user: User, url: string): Promise<string> {
  const fileId = randomUUID();
  await ctx.db
    .insert(files)
    .values({ id: fileId, userId: user.userId, name: nameFromUrl(url), source: 'url', sourceUrl: url, status: 'draft' });
  try {
    await submitTask(ctx, assetUrlImportTask, user, { fileId, url });
  } catch (error) {
    await ctx.db.delete(files).where(eq(files.id, fileId));
    throw error;
  }
  return fileId;
}

export async function readUrlImport(ctx: AppContext, userId: string, fileId: string, locale: Locale) {
  const [row] = await ctx.db
    .select()
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.userId, userId)));
  if (!row) throw new AppError('notFound');
  const stored = row.status === 'completed' && row.resKey;
  return {
    status: row.status === 'failed' ? ASSET_URL_TASK_FAILURE : stored ? ASSET_URL_TASK_SUCCESS : ASSET_URL_TASK_RUNNING,
    fileKey: stored ? row.resKey : null,
    fileUrl: stored ? await ctx.storage.downloadUrl(stored) : null,
    errorMsg: errorText(row.error, locale),
  };
}
