/**
 * The local driver's upload endpoint: the PUT of a signed upload URL (what a bucket does for S3's presigned PUT).
 * The signature is the authority (no session, no client header); an invalid or expired one answers 403, like S3.
 * The body is streamed to storage, never held in memory, and bounded by the room put-url reserved for it in the
 * user's storage quota: the size the browser declared, or the type's largest size (docs/decisions, "Storage
 * quota"). Errors are envelopes with a real HTTP status, since a browser's upload progress reads the status.
 */
import { type Readable, Transform } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { failure, ok } from '../../http/envelope.js';
import { localeOf } from '../../http/locale.js';
import { formatOf, maxBytesOf, megabytes } from './formats.js';
import { extensionOf } from './storage/keys.js';
import type { LocalLinks } from './storage/localLinks.js';
import { UPLOAD_ROUTE } from './storage/localLinks.js';
import { heldAt } from './storedObjects.js';

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

export function registerUploadRoute(api: FastifyInstance, { settings, db, storage }: AppContext, links: LocalLinks) {
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
      // No room reserved: the link's upload was already made (a link takes one upload), registered, or swept away.
      const reserved = await heldAt(db, key);
      if (!reserved?.pending) return refuse(req, reply.header('connection', 'close'), 403, new AppError('uploadLinkInvalid'));
      const typeMax = maxBytesOf(settings, format.type);
      const maxBytes = Math.min(typeMax, reserved.size);
      const tooLarge =
        reserved.size < typeMax ? new AppError('uploadSizeMismatch') : new AppError('fileTooLarge', { limitMb: megabytes(typeMax) });
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
