/**
 * Imports a file a user names by its web address: fetched with the one SSRF-safe fetcher (design §8) under the
 * largest size cap, then checked and stored like an upload (ingest.ts).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { OutboundError } from '../../outbound/errors.js';
import { createFetcher } from '../../outbound/fetcher.js';
import { checkWithoutLookup } from '../../outbound/target.js';
import type { Settings } from '../../settings.js';
import { maxBytesOfAny, megabytes } from './formats.js';
import { type IngestedFile, ingest } from './ingest.js';
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

export function importFromUrl(ctx: AppContext, { userId, fileId, url, signal }: UrlImport): Promise<IngestedFile> {
  return withWorkDir(ctx.settings, async (dir) => {
    const path = join(dir, 'download');
    await writeFile(path, await download(ctx.settings, url));
    return ingest(ctx, { userId, fileId, path, ...(signal && { signal }) });
  });
}

/** A file's bytes from the web through the SSRF-safe fetcher, its failures as the user's errors. */
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
function importError(error: OutboundError, maxBytes: number): AppError {
  switch (error.reason) {
    case 'invalidUrl':
    case 'protocol':
    case 'blockedAddress':
      return new AppError('importBlocked');
    case 'timeout':
      return new AppError('importTimedOut');
    case 'http':
      return new AppError('importHttpError', { status: error.status ?? 0 });
    case 'tooLarge':
      return new AppError('fileTooLarge', { limitMb: megabytes(maxBytes) });
    case 'dns':
    case 'network':
    case 'tooManyRedirects':
      return new AppError('importUnreachable');
  }
}

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
