import type { ErrorKey } from '@reelsmith/contract';
import { AppError } from '../errors.js';
/**
 * Why an outbound fetch failed. The reason is for code (the HTTP layer maps it to a localised envelope);
 * the message is plain English for logs and for the task's error text.
 */
export const OUTBOUND_REASONS = [
  /** Not a URL at all, or a redirect Location that is not one. */
  'invalidUrl',
  /** A scheme other than http or https (file:, ftp:, data:, javascript:, gopher: …). */
  'protocol',
  /** localhost, or a private, loopback, link-local, multicast, metadata or other non-public address. */
  'blockedAddress',
  /** The host name does not resolve. */
  'dns',
  /** The connection or TLS handshake failed, or the answer broke off or could not be decoded. */
  'network',
  /** No answer headers in time, or the whole fetch took too long. */
  'timeout',
  /** The body is larger than the size cap. */
  'tooLarge',
  /** More redirects than allowed. */
  'tooManyRedirects',
  /** The final answer is not 2xx (or is a redirect without a Location). */
  'http',
] as const;

export type OutboundReason = (typeof OUTBOUND_REASONS)[number];

export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundReason,
    message: string,
    /** The HTTP status, for reason 'http'. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

/** The errors one kind of fetch (an import, a product page) tells its user, by what went wrong. */
export interface OutboundRefusals {
  /** Not a public web address. */
  blocked: ErrorKey;
  timedOut: ErrorKey;
  /** Takes the status as `{{status}}`. */
  httpError: ErrorKey;
  /** No answer at all: the name, the connection or the redirects failed. */
  unreachable: ErrorKey;
  tooLarge(): AppError;
}

/** Why a fetch failed, in the user's words (the fetcher's English message is for the logs). */
export function refusalOf(error: OutboundError, refusals: OutboundRefusals): AppError {
  switch (error.reason) {
    case 'invalidUrl':
    case 'protocol':
    case 'blockedAddress':
      return new AppError(refusals.blocked);
    case 'timeout':
      return new AppError(refusals.timedOut);
    case 'http':
      return new AppError(refusals.httpError, { status: error.status ?? 0 });
    case 'tooLarge':
      return refusals.tooLarge();
    case 'dns':
    case 'network':
    case 'tooManyRedirects':
      return new AppError(refusals.unreachable);
  }
}
