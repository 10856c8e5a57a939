import { z } from 'zod';
import { defineCall, SHELL_ROUTES } from './call.js';
import type { ErrorKey } from './errors.js';
import { User } from './users.js';

/** Which sign-in methods this server offers; the login page shows Google, the dev e-mail form, or both. */
export const authConfig = defineCall({
  method: 'GET',
  path: '/auth/config',
  access: 'public',
  data: z.object({ google: z.boolean(), devLogin: z.boolean() }),
});

/**
 * Who is signed in, or null. The web app asks this first on every page: signed out is a normal state there, and
 * /users/me's 401 would be logged by the browser as a failed request on every signed-out page.
 */
export const authSession = defineCall({ ...SHELL_ROUTES.authSession, data: User.nullable() });

/** Dev sign-in (design "Operator interface"): only when DEV_LOGIN is on, otherwise 404. */
export const authDevLogin = defineCall({
  method: 'POST',
  path: '/auth/dev-login',
  access: 'public',
  body: z.strictObject({
    email: z.email().max(254),
    username: z.string().trim().min(1).max(64).optional(),
  }),
  data: User,
});

/** Browser navigations, not envelope calls: start Google sign-in, and the provider's return. */
export const AUTH_GOOGLE_PATH = '/auth/google';
export const AUTH_GOOGLE_CALLBACK_PATH = '/auth/google/callback';
/**
 * Why a sign-in was refused, when the person can do something about it: sent as `&reason=` beside `status=error`
 * (an error table key), so the callback page says it instead of the generic failure. Only these are shown.
 */
export const LOGIN_FAILURE_REASONS = ['accountBlocked', 'emailNotVerified', 'identityConflict'] as const satisfies readonly ErrorKey[];
export type LoginFailureReason = (typeof LOGIN_FAILURE_REASONS)[number];
export const isLoginFailureReason = (key: string | null): key is LoginFailureReason =>
  (LOGIN_FAILURE_REASONS as readonly string[]).includes(key ?? '');

export const health = defineCall({
  method: 'GET',
  path: '/health',
  access: 'public',
  data: z.object({
    db: z.literal('ok'),
    queue: z.literal('ok'),
    storage: z.literal('ok'),
    engine: z.record(z.string(), z.unknown()),
  }),
});
