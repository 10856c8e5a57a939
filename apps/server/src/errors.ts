import type { ErrorKey } from '@reelsmith/contract';

/**
 * A failure the caller should see: a key of the contract's error table plus the values for its message.
 * Services throw it; the HTTP layer turns it into an envelope and the admin CLI into a line on stderr. A `cause`
 * (a provider's own error) is for the logs, never shown to the user.
 */
export class AppError extends Error {
  /** When the caller may try again, in seconds: sent as Retry-After with a 429. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly key: ErrorKey,
    readonly params: Record<string, string | number> = {},
    options?: ErrorOptions & { retryAfterSeconds?: number },
  ) {
    super(key, options);
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}
