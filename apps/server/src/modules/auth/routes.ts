import type { CookieSerializeOptions } from '@fastify/cookie';
import {
  AUTH_GOOGLE_CALLBACK_PATH,
  AUTH_GOOGLE_PATH,
  authConfig,
  authDevLogin,
  authSession,
  isLoginFailureReason,
  LOGIN_CALLBACK_ROUTE,
  type User,
} from '@reelsmith/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { defineModule } from '../../http/module.js';
import type { RouteOptions } from '../../http/route.js';
import { apiBase } from '../../settings.js';
import { createKeyAccess } from '../api-keys/access.js';
import { signInWithEmail, signInWithOidc } from '../users/identity.js';
import { createGoogleSignIn, PendingSignIn } from './google.js';

/** A Google sign-in has this long between leaving for the provider and coming back. */
const PENDING_SIGN_IN_SECONDS = 600;

/**
 * Reading and writing the session cookie, and checking the API keys of public calls; the routes of every module
 * reach the user they act for through it.
 */
export function createAuth({ settings, sessions, db }: AppContext) {
  const cookieName = `${settings.apiPrefix}_session`;
  const cookieOptions: CookieSerializeOptions = {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: settings.secureCookies,
  };
  return {
    currentUser: (req: FastifyRequest): Promise<User | null> => sessions.resolve(req.cookies[cookieName]),
    /** A public API call's access check (decision "Public API"): one limiter for the whole process. */
    keyAccess: createKeyAccess(db, settings.apiKeyRateLimit),
    async startSession(reply: FastifyReply, userId: string): Promise<void> {
      const { token, expiresAt } = await sessions.create(userId);
      reply.setCookie(cookieName, token, { ...cookieOptions, expires: expiresAt });
    },
    async endSession(req: FastifyRequest, reply: FastifyReply): Promise<void> {
      const token = req.cookies[cookieName];
      if (token) await sessions.revoke(token);
      reply.clearCookie(cookieName, cookieOptions);
    },
  };
}

export type Auth = ReturnType<typeof createAuth>;

export const authModule = defineModule((app, { route, ctx, auth }) => {
  const { settings, db } = ctx;
  const perIp: RouteOptions['rateLimit'] = { max: settings.authRateLimitPerMinute, timeWindow: 60_000 };

  route(authConfig, () => ({ google: Boolean(settings.google), devLogin: settings.devLogin }));
  route(authSession, ({ req }) => auth.currentUser(req));

  if (settings.devLogin) {
    route(
      authDevLogin,
      async ({ body, reply }) => {
        const user = await signInWithEmail(db, body.email, body.username);
        await auth.startSession(reply, user.userId);
        return user;
      },
      { rateLimit: perIp },
    );
  }

  if (!settings.google) return;
  const base = apiBase(settings);
  const google = createGoogleSignIn(settings.google, `${settings.publicUrl}${base}${AUTH_GOOGLE_CALLBACK_PATH}`);
  const pendingCookie = `${settings.apiPrefix}_google`;
  const pendingOptions: CookieSerializeOptions = {
    httpOnly: true,
    // Lax, so the cookie comes back on the provider's top-level redirect to the callback.
    sameSite: 'lax',
    path: `${base}${AUTH_GOOGLE_PATH}`,
    secure: settings.secureCookies,
    signed: true,
  };
  const backToApp = (reply: FastifyReply, status: 'success' | 'error', reason?: string) =>
    reply
      .clearCookie(pendingCookie, pendingOptions)
      .redirect(`${LOGIN_CALLBACK_ROUTE}?status=${status}${reason ? `&reason=${reason}` : ''}`);

  // Browser navigations, not calls of the web app: no client header, and they answer redirects.
  app.get(AUTH_GOOGLE_PATH, { config: { skipClientChecks: true, rateLimit: perIp } }, async (req, reply) => {
    try {
      const { url, pending } = await google.start();
      reply.setCookie(pendingCookie, JSON.stringify(pending), { ...pendingOptions, maxAge: PENDING_SIGN_IN_SECONDS });
      return reply.redirect(url);
    } catch (error) {
      req.log.warn({ err: error }, 'Google sign-in could not start');
      return backToApp(reply, 'error');
    }
  });

  app.get(AUTH_GOOGLE_CALLBACK_PATH, { config: { skipClientChecks: true } }, async (req, reply) => {
    try {
      const signed = req.unsignCookie(req.cookies[pendingCookie] ?? '');
      if (!signed.valid || !signed.value) throw new Error('no pending sign-in in this browser');
      const pending = PendingSignIn.parse(JSON.parse(signed.value));
      const profile = await google.finish(new URL(req.url, 'http://callback').search, pending);
      const user = await signInWithOidc(ctx, profile);
      await auth.startSession(reply, user.userId);
      return backToApp(reply, 'success');
    } catch (error) {
      req.log.warn({ err: error }, 'Google sign-in failed');
      // A refusal the person can act on (blocked, unverified e-mail, an account that cannot be joined) is named.
      const reason = error instanceof AppError && isLoginFailureReason(error.key) ? error.key : undefined;
      return backToApp(reply, 'error', reason);
    }
  });
});
