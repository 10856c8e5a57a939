// The batch calls (decision "Batch") and the two downloads outside the JSON envelope. The downloads are signed links
// (decision "Signed links") answered by `batch/downloads`, a call of the session and of the public API alike: a
// browser's plain navigation or a script's GET fetches them without a cookie, a client header or a key.
import { batchCancel, batchCreate, batchDownloads, batchGet, batchList, batchQuote, batchRetry, Locale } from '@reelsmith/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { failure } from '../../http/envelope.js';
import { localeOf } from '../../http/locale.js';
import { defineModule } from '../../http/module.js';
import { apiBase } from '../../settings.js';
import { attachment } from '../files/storage/storage.js';
import { BATCH_CSV_PATH, BATCH_ZIP_PATH, resultsCsv, videosZip } from './downloads.js';
import { cancelBatch, createBatch, getBatch, listBatches, ownBatch, quoteBatch, retryBatch } from './service.js';

/** A download link is followed right after it is asked for; an hour covers a long zip on a slow line. */
const DOWNLOAD_TTL_MS = 60 * 60_000;

const readerLocale = (req: FastifyRequest) => localeOf(req.headers['accept-language']);

export const batchesModule = defineModule((api, { route, ctx, signer }) => {
  const fields = { fields: ['userId', 'batchId', 'locale'] as const, ttlMs: DOWNLOAD_TTL_MS };
  const csvLinks = signer.link(`${apiBase(ctx.settings)}${BATCH_CSV_PATH}`, fields);
  const zipLinks = signer.link(`${apiBase(ctx.settings)}${BATCH_ZIP_PATH}`, fields);

  route(batchQuote, ({ user, body, req }) => quoteBatch(ctx, user.userId, body, readerLocale(req)));
  route(batchCreate, ({ user, body, req }) => createBatch(ctx, user.userId, body, readerLocale(req)));
  route(batchList, async ({ user, query }) => ({ list: await listBatches(ctx, user.userId, query.page, query.pageSize) }));
  route(batchGet, ({ user, query, req }) => getBatch(ctx, user.userId, query.batchId, readerLocale(req)));
  route(batchRetry, ({ user, body, req }) => retryBatch(ctx, user.userId, body.batchId, readerLocale(req)));
  route(batchCancel, ({ user, body, req }) => cancelBatch(ctx, user.userId, body.batchId, readerLocale(req)));
  route(batchDownloads, async ({ user, query, req }) => {
    // The batch must be the caller's: a link is signed only for what its holder could read anyway.
    await ownBatch(ctx.db, user.userId, query.batchId);
    const values = { userId: user.userId, batchId: query.batchId, locale: readerLocale(req) };
    return { csvUrl: csvLinks.sign(values), zipUrl: zipLinks.sign(values) };
  });

  const refuse = (req: FastifyRequest, reply: FastifyReply) =>
    reply.status(403).send(failure(new AppError('uploadLinkInvalid'), readerLocale(req)));
  const localeIn = (value: string) => Locale.catch('en').parse(value);

  api.get(BATCH_CSV_PATH, { config: { skipClientChecks: true } }, async (req, reply) => {
    const link = csvLinks.verify(req.query);
    if (!link) return refuse(req, reply);
    await ownBatch(ctx.db, link.userId, link.batchId);
    const csv = await resultsCsv(ctx, link.batchId, localeIn(link.locale));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', attachment(`batch-${link.batchId.slice(0, 8)}.csv`))
      .header('cache-control', 'private, no-store')
      .send(csv);
  });

  api.get(BATCH_ZIP_PATH, { config: { skipClientChecks: true } }, async (req, reply) => {
    const link = zipLinks.verify(req.query);
    if (!link) return refuse(req, reply);
    await ownBatch(ctx.db, link.userId, link.batchId);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', attachment(`batch-${link.batchId.slice(0, 8)}.zip`))
      .header('cache-control', 'private, no-store')
      .send(await videosZip(ctx, link.batchId));
  });
});
