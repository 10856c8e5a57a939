/**
 * Imports a file a user names by its web address: fetched with the one SSRF-safe fetcher (design "Contract details") straight into a
 * work file, under the size cap and the room left in the user's storage quota, then checked and stored like an
 * upload (ingest.ts). The download never sits in memory, and at most IMPORTS_PER_USER imports of a user and
 * IMPORTS_PER_PROCESS in all run at once (importSlots.ts; docs/decisions, "Import limits").
 */
import { join } from 'node:path';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { OutboundError, refusalOf } from '../../outbound/errors.js';
import { createDownloader, createFetcher } from '../../outbound/fetcher.js';
import { checkWithoutLookup } from '../../outbound/target.js';
import type { Settings } from '../../settings.js';
import { maxBytesOfAny, megabytes } from './formats.js';
import { withImportSlot } from './importSlots.js';
import { type IngestedFile, ingest } from './ingest.js';
import { quotaExceeded, usedBytes } from './storedObjects.js';
import { withWorkDir } from './workDir.js';

/** A whole large video may take a while; the fetcher still bounds each hop's wait for headers. */
const IMPORT_TIMEOUT_MS = 120_000;
const MEDIA_ACCEPT = 'image/avif,image/webp,image/png,image/jpeg,video/*;q=0.9,*/*;q=0.5';
const NAME_MAX = 255;

export interface UrlImport {
  userId: string;
  fileId: string;
  url: string;
  signal?: AbortSignal;
}

/** Imports one file, waiting for one of the user's import slots first (a task's import). */
export function importFromUrl(ctx: AppContext, file: UrlImport): Promise<IngestedFile> {
  return withImportSlot(ctx.importSlots, file.userId, { wait: true, signal: file.signal }, () => importHoldingSlot(ctx, file));
}

/** Imports one file for a caller that already holds one of the user's import slots (`withImportSlot`). */
export function importHoldingSlot(ctx: AppContext, { userId, fileId, url, signal }: UrlImport): Promise<IngestedFile> {
  return withWorkDir(ctx.settings, async (dir) => {
    // The download stops at the room left: a file that cannot be kept is not fetched to the end. Storing it checks
    // the quota again, exactly, against what other imports stored meanwhile.
    const quota = ctx.settings.storageQuotaBytes;
    const used = await usedBytes(ctx.db, userId);
    if (used >= quota) throw quotaExceeded(used, quota);
    const path = join(dir, 'download');
    await downloadTo(ctx.settings, url, path, { maxBytes: Math.min(maxBytesOfAny(ctx.settings), quota - used), signal, used });
    return ingest(ctx, { userId, fileId, path, ...(signal && { signal }) });
  });
}

export interface DownloadOptions {
  /** The size cap; the largest file of any type by default. */
  maxBytes?: number;
  signal?: AbortSignal | undefined;
  /** The user's storage in use, when the cap is the room left in their quota: passing it is then a quota error. */
  used?: number;
}

/**
 * A file from the web saved at `path` (which must not exist) through the SSRF-safe fetcher, streamed: memory
 * holds a few chunks whatever its size. Its failures are the user's errors.
 */
export async function downloadTo(settings: Settings, url: string, path: string, options: DownloadOptions = {}): Promise<void> {
  const cap = maxBytesOfAny(settings);
  const { maxBytes = cap, signal, used } = options;
  const downloadUrl = createDownloader({ allowHosts: settings.outboundAllowHosts, timeoutMs: IMPORT_TIMEOUT_MS });
  try {
    await downloadUrl(url, path, { accept: MEDIA_ACCEPT, maxBytes, ...(signal && { signal }) });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    if (error.reason === 'tooLarge' && used !== undefined && maxBytes < cap) throw quotaExceeded(used, settings.storageQuotaBytes);
    throw importError(error, maxBytes);
  }
}

/**
 * A file's bytes from the web through the SSRF-safe fetcher, in memory, its failures as the user's errors. For
 * small files only (a reference picture): anything up to a video's size goes to a file with `downloadTo`.
 */
export async function download(settings: Settings, url: string, maxBytes = maxBytesOfAny(settings)): Promise<Buffer> {
  const fetchUrl = createFetcher({ allowHosts: settings.outboundAllowHosts, timeoutMs: IMPORT_TIMEOUT_MS });
  try {
    return (await fetchUrl(url, { accept: MEDIA_ACCEPT, maxBytes })).body;
  } catch (error) {
    if (error instanceof OutboundError) throw importError(error, maxBytes);
    throw error;
  }
}

/**
 * Refuses at once a link the fetch would refuse whatever DNS answers (another scheme, localhost, an address that is
 * not public), so a task that would fetch it is not charged; the fetch still checks every hop.
 */
export function checkLink(settings: Settings, url: string): void {
  try {
    const parsed = URL.parse(url);
    if (!parsed) throw new OutboundError('invalidUrl', `${url} is not a URL`);
    checkWithoutLookup(parsed, new Set(settings.outboundAllowHosts.map((entry) => entry.toLowerCase())));
  } catch (error) {
    if (error instanceof OutboundError) throw importError(error, maxBytesOfAny(settings));
    throw error;
  }
}

/** Why a fetch failed, in the user's words (the fetcher's English message is for the logs). */
const importError = (error: OutboundError, maxBytes: number): AppError =>
  refusalOf(error, {
    blocked: 'importBlocked',
    timedOut: 'importTimedOut',
    httpError: 'importHttpError',
    unreachable: 'importUnreachable',
    tooLarge: () => new AppError('fileTooLarge', { limitMb: megabytes(maxBytes) }),
  });

/** What to call an imported file: the last part of the URL's path, else its host. */
export function nameFromUrl(url: string): string {
  const parsed = new URL(url);
  const last = parsed.pathname.split('/').filter(Boolean).pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  return (name.trim() || parsed.hostname).slice(0, NAME_MAX);
}
