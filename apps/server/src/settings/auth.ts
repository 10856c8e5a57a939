// Sign-in and accounts: the session secret, Google, dev sign-in, the rate limits of sign-in, and the sign-up grant.
import { z } from 'zod';
import { flag, optional, positiveInt, refuse, type SettingsContext, setting } from './fields.js';

export const AuthEnv = z.object({
  SESSION_SECRET: setting(
    optional.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    'signs links and the sign-in state cookie; at least 32 characters, the same for every process',
    'random, kept in `DATA_DIR/session-secret`',
  ),
  GOOGLE_CLIENT_ID: setting(optional, 'the Google OAuth client; set both id and secret to offer Google sign-in', 'unset'),
  GOOGLE_CLIENT_SECRET: setting(optional, "the Google OAuth client's secret", 'unset'),
  GOOGLE_ISSUER: setting(
    z.url({ protocol: /^https?$/ }).default('https://accounts.google.com'),
    'the OpenID Connect issuer (tests point it at a local one)',
  ),
  DEV_LOGIN: setting(flag, 'sign-in by e-mail alone, for development (`true`/`false`)', 'on only without Google and outside production'),
  AUTH_RATE_LIMIT_PER_MINUTE: setting(positiveInt(30), 'sign-in attempts (dev sign-in, Google start) per IP address per minute'),
  ACTIVATE_RATE_LIMIT: setting(positiveInt(10), 'invitation-code attempts per user per 15 minutes'),
  SIGNUP_CREDITS: setting(
    z.coerce.number().int().min(0).max(1_000_000).default(100),
    'credits granted on activation, valid 30 days (0: none; a friend invited with a personal code gets at least 100)',
  ),
});

export function authSettings(e: z.output<typeof AuthEnv>, { production }: SettingsContext) {
  if (Boolean(e.GOOGLE_CLIENT_ID) !== Boolean(e.GOOGLE_CLIENT_SECRET))
    refuse('GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET: set both or neither');
  const google =
    e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
      ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, issuer: e.GOOGLE_ISSUER }
      : undefined;
  return {
    /** `undefined` means: use the secret kept in the data dir (see `sessionSecret`). */
    sessionSecret: e.SESSION_SECRET,
    google,
    devLogin: e.DEV_LOGIN ?? (!google && !production),
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    activateRateLimit: e.ACTIVATE_RATE_LIMIT,
    /** Credits of the sign-up grant (SIGNUP, expiring after SIGNUP_CREDIT_DAYS). */
    signupCredits: e.SIGNUP_CREDITS,
  };
}
