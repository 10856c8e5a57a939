/**
 * The local driver's file server: the GET of a signed file URL (the PUT of a signed upload URL is uploadRoute.ts).
 * The signature is the authority (no session, no client header), as with S3's presigned URLs; an invalid or expired
 * one answers 403, like S3. Errors are envelopes with a real HTTP status, since a browser's <video> reads the status,
 * not the body.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { failure } from '../../http/envelope.js';
import { localeOf } from '../../http/locale.js';
import { mimeOfKey } from './formats.js';
import { parseRange } from './range.js';
import type { LocalStorage } from './storage/local.js';
import { OBJECT_ROUTE } from './storage/localLinks.js';
import { attachment } from './storage/storage.js';

function refuse(req: FastifyRequest, reply: FastifyReply, status: number, error: AppError) {
  return reply.status(status).send(failure(error, localeOf(req.headers['accept-language'])));
}

export function registerObjectRoutes(api: FastifyInstance, _ctx: AppContext, storage: LocalStorage) {
  const { links } = storage;

  api.get(OBJECT_ROUTE, { config: { skipClientChecks: true } }, async (req, reply) => {
    const link = links.verifyDownload(req.query);
    if (!link) return refuse(req, reply, 403, new AppError('uploadLinkInvalid'));
    const found = await storage.stat(link.key);
    if (!found) return refuse(req, reply, 404, new AppError('notFound'));
    const range = parseRange(req.headers.range, found.size);
    if (range === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${found.size}`).send();
    reply
      .header('content-type', mimeOfKey(link.key))
      .header('accept-ranges', 'bytes')
      .header('content-disposition', link.filename ? attachment(link.filename) : 'inline')
      // Keys are never rewritten (a new file gets a new key), so a copy is good for as long as the link.
      .header('cache-control', `private, max-age=${Math.max(0, Math.floor((link.expires - Date.now()) / 1000))}, immutable`);
    if (!range) return reply.header('content-length', found.size).send(await storage.read(link.key));
    return reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${found.size}`)
      .header('content-length', range.end - range.start + 1)
      .send(await storage.read(link.key, range));
  });
}
