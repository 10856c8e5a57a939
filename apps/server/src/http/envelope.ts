import { type Envelope, ERRORS, errorMessage, type Locale, OK_CODE } from '@reelsmith/contract';
import type { AppError } from '../errors.js';

export const ok = <T>(data: T): Envelope<T> => ({ code: OK_CODE, message: 'ok', data });

export const failure = (error: AppError, locale: Locale): Envelope<null> => ({
  code: ERRORS[error.key].code,
  message: errorMessage(error.key, locale, error.params),
  data: null,
});

/**
 * The HTTP status of an answer. The client reads only the envelope's `code`, so errors answer 200, except
 * where the status means something to browsers, proxies and monitoring: 401, 403, 404, 429, 500, 503 (the
 * database is unreachable for a moment: a load balancer may retry elsewhere) and 507 (the disk is full) are sent
 * as themselves (those envelope codes equal the HTTP status).
 */
const KEPT_STATUSES = new Set([401, 403, 404, 429, 500, 503, 507]);
export const httpStatusOf = (code: number) => (KEPT_STATUSES.has(code) ? code : 200);
