import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { outageError } from '../outage.js';
import { failure, httpStatusOf } from './envelope.js';
import { localeOf } from './locale.js';

/** What Fastify itself rejects before a handler runs (bad JSON, a body too large, a wrong content type…). */
const FASTIFY_DETAILS: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body: too large',
  FST_ERR_CTP_INVALID_JSON_BODY: 'body: not valid JSON',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'body: send application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'body: wrong Content-Length',
};

function asAppError(error: FastifyError | Error): AppError | undefined {
  if (error instanceof AppError) return error;
  const { statusCode, code } = error as FastifyError;
  if (code && FASTIFY_DETAILS[code]) return new AppError('validation', { detail: FASTIFY_DETAILS[code] });
  if (statusCode === 404) return new AppError('notFound');
  if (statusCode === 429) return new AppError('rateLimited');
  if (statusCode && statusCode >= 400 && statusCode < 500) return new AppError('validation', { detail: error.message });
  return undefined;
}

/**
 * Every failure becomes an envelope in the request's language: the database away or the disk full answer 503 or
 * 507 (logged as warnings: the operator's matter, not a bug); anything else unexpected is logged and answers 500.
 */
export function handleError(error: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
  let appError = asAppError(error);
  if (!appError) {
    appError = outageError(error);
    if (appError) req.log.warn({ err: error }, appError.key);
  }
  if (!appError) {
    req.log.error({ err: error }, 'request failed');
    appError = new AppError('internal');
  }
  const envelope = failure(appError, localeOf(req.headers['accept-language']));
  if (appError.retryAfterSeconds !== undefined) reply.header('retry-after', String(appError.retryAfterSeconds));
  return reply.status(httpStatusOf(envelope.code)).send(envelope);
}
