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
