/**
 * Every file the service keeps comes through here (decision "Content checks"): it is judged by its content, never
 * by its name: its first bytes must be one of the accepted formats (formats.ts), an image must decode completely, a video
 * must be readable by ffprobe and have a picture whose first second decodes. Sizes and sides are bounded. A
 * thumbnail (image) or poster frame (video) is made, then both objects are stored. Any failure is an AppError
 * the user can act on, and nothing is stored.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { imageInfo, MediaToolError, posterFrame, probe, sniff, thumbnail } from '@reelsmith/media';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { misconfiguredError } from '../../misconfigured.js';
import { type AssetType, FORMAT_EXTENSIONS, FORMAT_NAMES, type Format, formatOf, maxBytesOf, megabytes, SIDE_LIMITS } from './formats.js';
import { fileKey, thumbKey } from './storage/keys.js';
import { storageOf } from './storage/metered.js';
import { mediaToolsOf } from './workDir.js';

/** What was stored, for the file's row. */
export interface IngestedFile {
  resKey: string;
  thumbKey: string;
  type: AssetType;
  format: string;
  mime: string;
  size: number;
  width: number;
  height: number;
  /** Seconds; null for images. */
  duration: number | null;
}

interface Measured {
  width: number;
  height: number;
  duration: number | null;
}

export interface IngestInput {
  userId: string;
  /** The file id the objects are named after. */
  fileId: string;
  /** The file to check, in a work directory the caller removes afterwards (thumbnails are made beside it). */
  path: string;
  signal?: AbortSignal;
}

export async function ingest(ctx: AppContext, { userId, fileId, path, signal }: IngestInput): Promise<IngestedFile> {
  const { size } = await stat(path);
  if (size === 0) throw new AppError('fileEmpty');
  const format = formatOf((await sniff(path))?.ext ?? '');
  if (!format) throw new AppError('fileFormatUnsupported', { types: FORMAT_NAMES });
  const maxBytes = maxBytesOf(ctx.settings, format.type);
  if (size > maxBytes) throw new AppError('fileTooLarge', { limitMb: megabytes(maxBytes) });

  const thumbPath = join(dirname(path), 'thumbnail.webp');
  const measured = await asUnreadable(signal, () =>
    format.type === 'image' ? measureImage(path, thumbPath) : measureVideo(ctx, path, thumbPath, signal),
  );

  const stored = { resKey: fileKey(userId, fileId, format.ext), thumbKey: thumbKey(userId, fileId) };
  await ctx.storage.put(stored.resKey, createReadStream(path), { contentType: format.mime, size });
  try {
    const thumb = await stat(thumbPath);
    await ctx.storage.put(stored.thumbKey, createReadStream(thumbPath), { contentType: 'image/webp', size: thumb.size });
  } catch (error) {
    await ctx.storage.delete([stored.resKey]);
    throw error;
  }
  return { ...stored, type: format.type, format: format.ext, mime: format.mime, size, ...measured };
}

/** Removes what `ingest` stored: for a file whose row could not be written. */
export const discard = (ctx: AppContext, file: Pick<IngestedFile, 'resKey' | 'thumbKey'>) =>
  ctx.storage.delete([file.resKey, file.thumbKey]);

/**
 * Removes whatever an ingest of this file id may have stored before it was stopped, whichever format it found. Runs
 * in a task's `failed` clean-up, whose `ctx.db` is the transaction ending the task: the ledger is written in it.
 */
export const discardAny = (ctx: AppContext, userId: string, fileId: string) =>
  storageOf(ctx).delete([thumbKey(userId, fileId), ...FORMAT_EXTENSIONS.map((ext) => fileKey(userId, fileId, ext))]);

function checkSides(type: Format['type'], width: number, height: number) {
  const { min, max } = SIDE_LIMITS[type];
  if (Math.min(width, height) < min || Math.max(width, height) > max) throw new AppError('fileSideOutOfRange', { min, max });
}

async function measureImage(path: string, thumbPath: string): Promise<Measured> {
  const { width, height } = await imageInfo(path);
  // Before decoding: an image of absurd size is refused without spending the memory.
  checkSides('image', width, height);
  await thumbnail(path, thumbPath);
  return { width, height, duration: null };
}

async function measureVideo(ctx: AppContext, path: string, thumbPath: string, signal: AbortSignal | undefined): Promise<Measured> {
  const tools = mediaToolsOf(ctx.settings);
  const probed = await probe(tools, path, { signal });
  if (!probed.streams.some((s) => s.type === 'video') || !probed.width || !probed.height) throw new AppError('videoWithoutPicture');
  checkSides('video', probed.width, probed.height);
  // A frame a little way in: the very first is often black. Decoding up to it also proves the start is intact.
  const poster = join(dirname(path), 'poster.png');
  await posterFrame(tools, path, poster, Math.min(1, probed.duration / 2), { signal });
  await thumbnail(poster, thumbPath);
  return { width: probed.width, height: probed.height, duration: probed.duration };
}

/**
 * Failures of the media tools on this input mean the file is damaged (or only pretends to be its format); our
 * own refusals pass through, and so do an abort and failures that are the server's (a missing program, a full disk).
 */
async function asUnreadable<T>(signal: AbortSignal | undefined, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    signal?.throwIfAborted();
    if (error instanceof AppError) throw error;
    // A program that never ran (exit 127: a broken FFMPEG_PATH) says nothing of the file (decision "Start-up checks").
    if ((error instanceof MediaToolError && !misconfiguredError(error)) || isSharpInputError(error)) throw new AppError('fileUnreadable');
    throw error;
  }
}

/** sharp reports bad input as plain Errors; system errors carry an errno code. */
const isSharpInputError = (error: unknown) => error instanceof Error && !(error as NodeJS.ErrnoException).code;
