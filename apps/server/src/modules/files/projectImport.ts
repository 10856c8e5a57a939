/**
 * `POST /link-video/file/upload`: the product images and videos link analysis found, imported into the project
 * one after another while the caller waits. A product page often links a few files that cannot be used (an icon,
 * a broken link): those are left out and the rest answered; only when none could be imported does the call fail,
 * with the first reason. The call holds one of the user's import slots throughout; a caller who already runs as many
 * imports as allowed is refused at once (importsBusy, 429), since the call holds a connection open while it would
 * wait (docs/decisions, "Import limits").
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import type { FileRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { withImportSlot } from './importSlots.js';
import { importHoldingSlot, nameFromUrl } from './importUrl.js';
import { addFile } from './records.js';

export async function importIntoProject(
  ctx: AppContext,
  userId: string,
  projectId: string,
  urls: readonly string[],
  log: FastifyBaseLogger,
): Promise<FileRow[]> {
  return withImportSlot(ctx.importSlots, userId, { wait: false }, () => importEach(ctx, userId, projectId, urls, log));
}

async function importEach(
  ctx: AppContext,
  userId: string,
  projectId: string,
  urls: readonly string[],
  log: FastifyBaseLogger,
): Promise<FileRow[]> {
  const rows: FileRow[] = [];
  const refused: AppError[] = [];
  for (const url of urls) {
    const fileId = randomUUID();
    try {
      const stored = await importHoldingSlot(ctx, { userId, fileId, url });
      rows.push(await addFile(ctx, { userId, fileId, name: nameFromUrl(url), source: 'url', sourceUrl: url, projectId }, stored));
    } catch (error) {
      // Only a refusal of this file is skipped; a fault of the server fails the call.
      if (!(error instanceof AppError)) throw error;
      log.info({ url, reason: error.key }, 'product file not imported');
      refused.push(error);
    }
  }
  const [first] = refused;
  if (rows.length === 0 && first) throw first;
  return rows;
}
