/**
 * Imports the product's pictures and videos as the user's files in the project, through the files module (each
 * fetched with the SSRF-safe fetcher and checked by its content). A page often names a file that cannot be used (a
 * broken link, a format the library does not take): it is skipped and the next candidate takes its place, up to
 * the spec's 30 assets, videos first (spec "Validation rules").
 */
import { createHash } from 'node:crypto';
import { MAX_ASSETS_PER_PROJECT } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../../context.js';
import { type FileRow, files } from '../../../db/schema.js';
import { AppError } from '../../../errors.js';
import { importFromUrl, nameFromUrl } from '../../files/importUrl.js';
import { addFile } from '../../files/records.js';

/** Downloads at once: enough to hide a slow shop's latency, few enough to be polite and spare the two cores. */
const CONCURRENCY = 3;

export interface MediaImport {
  taskId: string;
  userId: string;
  projectId: string;
  videos: readonly string[];
  images: readonly string[];
  signal: AbortSignal;
}

export interface ImportedMedia {
  videos: FileRow[];
  images: FileRow[];
}

export async function importProductMedia(ctx: AppContext, job: MediaImport): Promise<ImportedMedia> {
  const candidates = [...job.videos.map((url) => ({ url, video: true })), ...job.images.map((url) => ({ url, video: false }))];
  const imported: (FileRow | undefined)[] = [];
  let next = 0;
  let succeeded = 0;
  let running = 0;
  // Each lane takes the next candidate while fewer than 30 are imported or under way, so a failure frees a slot.
  const lane = async () => {
    while (next < candidates.length && succeeded + running < MAX_ASSETS_PER_PROJECT) {
      const index = next++;
      running++;
      try {
        imported[index] = await importOne(ctx, job, (candidates[index] as { url: string }).url);
        if (imported[index]) succeeded++;
      } finally {
        running--;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const rows = candidates.flatMap((candidate, index) => {
    const row = imported[index];
    return row ? [{ row, video: candidate.video }] : [];
  });
  return { videos: rows.filter((r) => r.video).map((r) => r.row), images: rows.filter((r) => !r.video).map((r) => r.row) };
}

/** The file, or undefined when this URL cannot be imported; faults of the server and cancellation still throw. */
async function importOne(ctx: AppContext, job: MediaImport, url: string): Promise<FileRow | undefined> {
  job.signal.throwIfAborted();
  const fileId = fileIdOf(job.taskId, url);
  // A task whose worker died runs again: what the last attempt imported is kept, not imported twice.
  const [existing] = await ctx.db.select().from(files).where(eq(files.id, fileId)).limit(1);
  if (existing) return existing;
  try {
    const stored = await importFromUrl(ctx, { userId: job.userId, fileId, url, signal: job.signal });
    const file = { userId: job.userId, fileId, name: nameFromUrl(url), source: 'url' as const, sourceUrl: url, projectId: job.projectId };
    return await addFile(ctx, file, stored);
  } catch (error) {
    if (error instanceof AppError) return undefined;
    throw error;
  }
}

/** The same for every attempt at the task, so a retried import finds its earlier file (and writes the same storage key). */
function fileIdOf(taskId: string, url: string): string {
  const hex = createHash('sha256').update(`${taskId}\n${url}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
