import { z } from 'zod';
import { defineCall, SHELL_ROUTES } from './call.js';
import { Ok } from './common.js';
import { CLIENT_LOG_BATCH_MAX, CLIENT_LOG_MESSAGE_MAX } from './constants.js';

/** What went wrong in the browser: a script error, a promise nobody caught, a call or a task that failed. */
export const ClientLogKind = z.enum(['error', 'unhandledRejection', 'callFailed', 'taskFailed']);
export type ClientLogKind = z.infer<typeof ClientLogKind>;

/**
 * One client log entry (spec "Error catalogue": a logging collection endpoint whose errors are silently ignored).
 * Nothing personal beyond the user id the server adds: the page's path without its query, a call's path and code.
 */
export const ClientLogEntry = z.strictObject({
  kind: ClientLogKind,
  message: z.string().max(CLIENT_LOG_MESSAGE_MAX),
  route: z.string().max(200),
  /** A failed call's or task's path ("/task/v1/link-video/query"). */
  call: z.string().max(200).optional(),
  /** The envelope code or HTTP status a call answered. */
  code: z.number().int().optional(),
  /** When it happened, as the browser's clock says. */
  at: z.iso.datetime().max(40),
});
export type ClientLogEntry = z.infer<typeof ClientLogEntry>;

export const logCollect = defineCall({
  ...SHELL_ROUTES.logCollect,
  body: z.strictObject({ entries: z.array(ClientLogEntry).min(1).max(CLIENT_LOG_BATCH_MAX) }),
  data: Ok,
});
