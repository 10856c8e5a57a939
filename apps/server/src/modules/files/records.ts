/** The `files` rows of stored files, and how they look to the web app. */
import type { AssetItem, LibraryAsset, Locale } from '@reelsmith/contract';
import { errorMessage } from '@reelsmith/contract';
import type { AppContext } from '../../context.js';
import { type FileRow, files } from '../../db/schema.js';
import type { StoredTaskError } from '../tasks/definition.js';
import { discard, type IngestedFile } from './ingest.js';
import type { Storage } from './storage/storage.js';

export interface NewFile {
  userId: string;
  fileId: string;
  name: string;
  source: FileRow['source'];
  sourceUrl?: string | null;
  projectId?: string | null;
  /** SHA-256 of an upload's bytes (decision "One asset per uploaded file"). */
  contentHash?: string | null;
  /** Made by the sandbox's free stand-in, not a real model (decision "Stand-ins are free"). */
  standIn?: boolean;
}

/** The columns a stored, checked file fills in. */
export const storedColumns = (stored: IngestedFile) => ({
  resKey: stored.resKey,
  thumbKey: stored.thumbKey,
  type: stored.type,
  format: stored.format,
  mime: stored.mime,
  size: stored.size,
  width: stored.width,
  height: stored.height,
  duration: stored.duration,
});

/** Records a stored file as a completed asset; if the row cannot be written, the objects are removed again. */
export async function addFile(ctx: AppContext, file: NewFile, stored: IngestedFile): Promise<FileRow> {
  try {
    const [row] = await ctx.db
      .insert(files)
      .values({
        id: file.fileId,
        userId: file.userId,
        projectId: file.projectId ?? null,
        name: file.name,
        source: file.source,
        sourceUrl: file.sourceUrl ?? null,
        contentHash: file.contentHash ?? null,
        standIn: file.standIn ?? false,
        status: 'completed',
        ...storedColumns(stored),
      })
      .returning();
    return row as FileRow;
  } catch (error) {
    await discard(ctx, stored);
    throw error;
  }
}

/** The name a download is saved under: the asset's name, with the format's extension when it lacks one. */
export function downloadName(row: Pick<FileRow, 'name' | 'format'>): string {
  if (!row.format) return row.name;
  const ext = new RegExp(`\\.${row.format === 'jpg' ? 'jpe?g' : row.format}$`, 'i');
  return ext.test(row.name) ? row.name : `${row.name}.${row.format}`;
}

/** Signed URLs of a row's file, its download and its thumbnail; null while nothing is stored. */
export async function fileUrls(storage: Storage, row: FileRow) {
  const [fileUrl, downloadUrl, thumbnailUrl] = await Promise.all([
    row.resKey ? storage.downloadUrl(row.resKey) : null,
    row.resKey ? storage.downloadUrl(row.resKey, { filename: downloadName(row) }) : null,
    row.thumbKey ? storage.downloadUrl(row.thumbKey) : null,
  ]);
  return { fileUrl, downloadUrl, thumbnailUrl };
}

/** A completed file as the link-to-video editor uses it. */
export async function toAssetItem(storage: Storage, row: FileRow): Promise<AssetItem> {
  if (!row.resKey || !row.format) throw new Error(`File ${row.id} is not stored`);
  return { fileId: row.id, fileName: row.name, fileUrl: await storage.downloadUrl(row.resKey), resKey: row.resKey, format: row.format };
}

export async function toLibraryAsset(storage: Storage, row: FileRow, locale: Locale): Promise<LibraryAsset> {
  return {
    fileId: row.id,
    fileName: row.name,
    ...(await fileUrls(storage, row)),
    resKey: row.resKey,
    format: row.format,
    type: row.type,
    source: row.source,
    status: row.status,
    projectId: row.projectId,
    sourceUrl: row.sourceUrl,
    errorMsg: errorText(row.error, locale),
    size: row.size,
    width: row.width,
    height: row.height,
    duration: row.duration,
    createTime: row.createdAt.toISOString(),
    ...(row.standIn && { standIn: true as const }),
  };
}

/**
 * The `error` column holds a task's error as stored (JSON: a key of the error table, or a message), shown in the
 * reader's language; any other text is shown as it is.
 */
export function errorText(stored: string | null, locale: Locale): string | null {
  if (stored === null) return null;
  let error: StoredTaskError;
  try {
    error = JSON.parse(stored) as StoredTaskError;
  } catch {
    return stored;
  }
  return 'key' in error ? errorMessage(error.key, locale, error.params) : error.message;
}
