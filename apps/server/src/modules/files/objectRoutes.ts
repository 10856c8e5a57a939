/**
 * The local driver's file server: the PUT of a signed upload URL and the GET of a signed file URL. The
 * signature is the authority (no session, no client header), as with S3's presigned URLs; an invalid or expired
 * one answers 403, like S3. Errors are envelopes with a real HTTP status, since a browser's <video> or upload
 * progress reads the status, not the body.
 */
import { type Readable, Transform } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { failure, ok } from '../../http/envelope.js';
import { localeOf } from '../../http/locale.js';
import { formatOf, maxBytesOf, megabytes, mimeOfKey } from './formats.js';
import { parseRange } from './range.js';
import { extensionOf } from './storage/keys.js';
import type { LocalStorage } from './storage/local.js';
import { OBJECT_ROUTE, UPLOAD_ROUTE } from './storage/localLinks.js';
import { attachment } from './storage/storage.js';

function refuse(req: FastifyRequest, reply: FastifyReply, status: number, error: AppError) {
  return reply.status(status).send(failure(error, localeOf(req.headers['accept-language'])));
}

/** Passes bytes through until there are more than `maxBytes`, then fails the stream. */
function capped(maxBytes: number, onTooLarge: () => Error): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > maxBytes ? onTooLarge() : null, chunk);
    },
  });
}

export function registerObjectRoutes(api: FastifyInstance, { settings }: AppContext, storage: LocalStorage) {
  const { links } = storage;

  api.get(OBJECT_ROUTE, { config: { skipClientChecks: true } }, async (req, reply) => {
    const link = links.verifyDownload(req.query);
    if (!link) return refuse(req, reply, 403, new AppError('uploadLinkInvalid'));
    const found = await storage.stat(link.key);
    if (!found) return refuse(req, reply, 404, new AppError('notFound'));
    const range = parseRange(req.headers.range, found.size);
    if (range === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${found.size}`).send();
    const expires = Number((req.query as { expires: string }).expires);
    reply
      .header('content-type', mimeOfKey(link.key))
      .header('accept-ranges', 'bytes')
      .header('content-disposition', link.filename ? attachment(link.filename) : 'inline')
      // Keys are never rewritten (a new file gets a new key), so a copy is good for as long as the link.
      .header('cache-control', `private, max-age=${Math.max(0, Math.floor((expires - Date.now()) / 1000))}, immutable`);
    if (!range) return reply.header('content-length', found.size).send(await storage.read(link.key));
    return reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${found.size}`)
      .header('content-length', range.end - range.start + 1)
      .send(await storage.read(link.key, range));
  });

  // Upload bodies are media of any content type: read here as a stream, not by the JSON parsers.
  api.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    uploads.put(UPLOAD_ROUTE, { config: { skipClientChecks: true } }, async (req, reply) => {
      const key = links.verifyUpload(req.query);
      if (!key) return refuse(req, reply, 403, new AppError('uploadLinkInvalid'));
      // The key's extension is the format asked for at put-url; its type bounds the size until the content is checked.
      const format = formatOf(extensionOf(key));
      if (!format) return refuse(req, reply, 403, new AppError('uploadLinkInvalid'));
      const maxBytes = maxBytesOf(settings, format.type);
      const tooLarge = new AppError('fileTooLarge', { limitMb: megabytes(maxBytes) });
      // The rest of a body too large is not read: the connection is closed after the answer instead.
      if (Number(req.headers['content-length']) > maxBytes) return refuse(req, reply.header('connection', 'close'), 413, tooLarge);
      if (req.headers['content-length'] === '0' || !req.body) return refuse(req, reply, 400, new AppError('fileEmpty'));
      try {
        const request = req.body as Readable;
        const body = request.pipe(capped(maxBytes, () => tooLarge));
        // A client that breaks off must fail the write, not leave it waiting. (Not pipeline(): stopping at the cap
        // must not destroy the request, or the 413 could not be answered.)
        request.once('error', (error) => body.destroy(error));
        await storage.put(key, body, { contentType: format.mime });
      } catch (error) {
        // Whatever stopped the write (the cap, a full disk), the rest of the body was not read: the connection is
        // closed after the answer, or its unread bytes would stall the next request the client sends on it.
        reply.header('connection', 'close');
        if (error === tooLarge) return refuse(req, reply, 413, tooLarge);
        throw error;
      }
      const stored = await storage.stat(key);
      if (!stored?.size) {
        await storage.delete([key]);
        return refuse(req, reply, 400, new AppError('fileEmpty'));
      }
      return reply.send(ok(true));
    });
  });
}
