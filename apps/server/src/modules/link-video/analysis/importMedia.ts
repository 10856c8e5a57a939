/**
 * Imports the product's pictures and videos as the user's files in the project, through the files module (each
 * fetched with the SSRF-safe fetcher and checked by its content). A page often names a file that cannot be used (a
 * broken link, a format the library does not take): it is skipped and the next candidate takes its place, up to
 * the spec's 30 assets, videos first (spec "Validation rules"). A page's declared sizes can lie or be missing, so the
 * pictures are measured once stored: icons, tracking pixels and banners are dropped when a real photo came too
 * (decision "Pictures measured on import").
 */
import { createHash } from 'node:crypto';
import { MAX_ASSETS_PER_PROJECT, type MediaImportFailure, type MediaImportReport } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../../context.js';
import { type FileRow, files } from '../../../db/schema.js';
import { AppError } from '../../../errors.js';
import { deleteAssets } from '../../assets/service.js';
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
  /** What the page named, what could not be imported and why (decision "Media import report"). */
  report: MediaImportReport;
}

/** One candidate's outcome: its file, or why it could not be imported. */
type Outcome = { row: FileRow } | { failure: MediaImportFailure };

/**
 * A picture too small or too narrow to be a product photo, by its measured pixels: an icon or a tracking pixel (short
 * side under 100 px), or a banner or strip (one side more than four times the other). A page that declares no sizes
 * names these beside its photos; they are dropped only when a real photo came, so a shop of small pictures keeps them.
 */
export const MIN_PHOTO_SIDE = 100;
export const MAX_PHOTO_ASPECT = 4;
export function isNotAPhoto(row: Pick<FileRow, 'type' | 'width' | 'height'>): boolean {
  if (row.type !== 'image' || !row.width || !row.height) return false;
  const short = Math.min(row.width, row.height);
  return short < MIN_PHOTO_SIDE || Math.max(row.width, row.height) / short > MAX_PHOTO_ASPECT;
}

export async function importProductMedia(ctx: AppContext, job: MediaImport): Promise<ImportedMedia> {
  const candidates = [...job.videos.map((url) => ({ url, video: true })), ...job.images.map((url) => ({ url, video: false }))];
  const outcomes: (Outcome | undefined)[] = [];
  let next = 0;
  let kept = 0;
  let notPhotos = 0;
  let running = 0;
  // Each lane takes the next candidate while fewer than 30 are imported or under way, so a failure frees a slot; a
  // picture that is no photo frees its slot too once a real one came (it will be dropped), and at most 30 of them
  // are fetched, so a page of 244 banners and icons is not downloaded whole.
  const taken = () => kept + (kept > 0 ? 0 : notPhotos);
  const lane = async () => {
    while (next < candidates.length && taken() + running < MAX_ASSETS_PER_PROJECT && notPhotos < MAX_ASSETS_PER_PROJECT) {
      const index = next++;
      running++;
      try {
        const outcome = await importOne(ctx, job, (candidates[index] as { url: string }).url);
        outcomes[index] = outcome;
        if ('row' in outcome) {
          if (isNotAPhoto(outcome.row)) notPhotos++;
          else kept++;
        }
      } finally {
        running--;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  if (kept > 0) await dropNotPhotos(ctx, job.userId, outcomes);
  const rows = candidates.flatMap((candidate, index) => {
    const outcome = outcomes[index];
    return outcome && 'row' in outcome ? [{ row: outcome.row, video: candidate.video }] : [];
  });
  return {
    videos: rows.filter((r) => r.video).map((r) => r.row),
    images: rows.filter((r) => !r.video).map((r) => r.row),
    report: reportOf(candidates, outcomes),
  };
}

/** Deletes the imported pictures that are no photos from the user's files; each is reported as such. */
async function dropNotPhotos(ctx: AppContext, userId: string, outcomes: (Outcome | undefined)[]) {
  const dropped = outcomes.flatMap((outcome, index) => (outcome && 'row' in outcome && isNotAPhoto(outcome.row) ? [index] : []));
  if (dropped.length === 0) return;
  await deleteAssets(
    ctx,
    userId,
    dropped.map((index) => (outcomes[index] as { row: FileRow }).row.id),
  );
  for (const index of dropped) outcomes[index] = { failure: 'notPhoto' };
}

/** The counts of the report, and the reason most of the failed imports share (the first one met on a tie). */
function reportOf(candidates: readonly { video: boolean }[], outcomes: readonly (Outcome | undefined)[]): MediaImportReport {
  const failures = candidates.flatMap((candidate, index) => {
    const outcome = outcomes[index];
    return outcome && 'failure' in outcome ? [{ video: candidate.video, failure: outcome.failure }] : [];
  });
  const tally = new Map<MediaImportFailure, number>();
  for (const { failure } of failures) tally.set(failure, (tally.get(failure) ?? 0) + 1);
  const commonest = [...tally].reduce<[MediaImportFailure, number] | undefined>(
    (best, entry) => (!best || entry[1] > best[1] ? entry : best),
    undefined,
  );
  return {
    imagesFound: candidates.filter((c) => !c.video).length,
    imagesFailed: failures.filter((f) => !f.video).length,
    videosFound: candidates.filter((c) => c.video).length,
    videosFailed: failures.filter((f) => f.video).length,
    ...(commonest && { failure: commonest[0] }),
  };
}

/** HTTP answers that say the shop would not hand the file over (rather than that it has none). */
const REFUSING_STATUSES = new Set([401, 402, 403, 407, 429, 451]);

/** The class of reason an import was refused for, as the user is told it. */
export function failureOf(error: AppError): MediaImportFailure {
  switch (error.key) {
    case 'importHttpError': {
      const status = Number(error.params.status);
      if (REFUSING_STATUSES.has(status)) return 'refused';
      if (status === 404 || status === 410) return 'notFound';
      return 'unreachable';
    }
    case 'importUnreachable':
    case 'importTimedOut':
      return 'unreachable';
    case 'importBlocked':
      return 'blocked';
    case 'storageQuotaExceeded':
      return 'storageFull';
    default:
      // The content checks: a format the library does not take, too small or large, empty or damaged.
      return 'unusable';
  }
}

/** The file, or why this URL cannot be imported; faults of the server and cancellation still throw. */
async function importOne(ctx: AppContext, job: MediaImport, url: string): Promise<Outcome> {
  job.signal.throwIfAborted();
  const fileId = fileIdOf(job.taskId, url);
  // A task whose worker died runs again: what the last attempt imported is kept, not imported twice.
  const [existing] = await ctx.db.select().from(files).where(eq(files.id, fileId)).limit(1);
  if (existing) return { row: existing };
  try {
    const stored = await importFromUrl(ctx, { userId: job.userId, fileId, url, signal: job.signal });
    const file = { userId: job.userId, fileId, name: nameFromUrl(url), source: 'url' as const, sourceUrl: url, projectId: job.projectId };
    return { row: await addFile(ctx, file, stored) };
  } catch (error) {
    if (error instanceof AppError) return { failure: failureOf(error) };
    throw error;
  }
}

/** The same for every attempt at the task, so a retried import finds its earlier file (and writes the same storage key). */
function fileIdOf(taskId: string, url: string): string {
  const hex = createHash('sha256').update(`${taskId}\n${url}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
