import type { ErrorKey } from '@reelsmith/contract';

/**
 * A failure the caller should see: a key of the contract's error table plus the values for its message.
 * Services throw it; the HTTP layer turns it into an envelope and the admin CLI into a line on stderr. A `cause`
 * (a provider's own error) is for the logs, never shown to the user.
 */
export class AppError extends Error {
  constructor(
    readonly key: ErrorKey,
    readonly params: Record<string, string | number> = {},
    options?: ErrorOptions,
  ) {
    super(key, options);
  }
}
