// Failures that are neither the caller's nor a bug: something the service depends on is away for a while. The
// database restarting or unreachable answers 503 "briefly unavailable" (the caller may simply try again), a full
// disk 507; both are told to the user plainly instead of "Something went wrong".

import { codeOf, errorChain } from './errorChain.js';
import { AppError } from './errors.js';

/** System errors of a connection that cannot be made or was cut (the database's, or the object store's). */
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/**
 * PostgreSQL's SQLSTATEs of a server that is going away or not yet back: connection exceptions (class 08),
 * admin_shutdown, crash_shutdown, cannot_connect_now (starting up, shutting down, in recovery), too_many_connections.
 */
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[1-3]|53300)$/;
/** node-postgres's own words for a connection that ended under it (these errors carry no code). */
const CONNECTION_ENDED = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;
/** No space on the device, a quota, or a file larger than the process may write. */
const FULL_ERRNOS = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

function isUnavailable(error: unknown): boolean {
  for (const e of errorChain(error)) {
    const code = codeOf(e);
    // An errno of a socket: only system errors carry `syscall`, so a SQLSTATE or an app's own code cannot match.
    if (typeof code === 'string' && CONNECTION_ERRNOS.has(code) && (e as { syscall?: unknown }).syscall) return true;
    // A PostgreSQL server's error: it carries its severity beside the SQLSTATE.
    if (typeof code === 'string' && UNAVAILABLE_SQLSTATES.test(code) && (e as { severity?: unknown }).severity) return true;
    if (e instanceof Error && !code && CONNECTION_ENDED.test(e.message)) return true;
  }
  return false;
}

function isFull(error: unknown): boolean {
  for (const e of errorChain(error)) {
    const code = codeOf(e);
    if (typeof code === 'string' && FULL_ERRNOS.has(code)) return true;
  }
  return false;
}

/** The user's error for an outage of the database or a full disk; undefined for anything else. */
export function outageError(error: unknown): AppError | undefined {
  if (isFull(error)) return new AppError('storageFull', {}, { cause: error });
  if (isUnavailable(error)) return new AppError('serviceUnavailable', {}, { cause: error });
  return undefined;
}
