/**
 * Settings: the environment, read once and validated at start-up. A bad value stops the server with a
 * message that names the variable.
 *
 * | variable                   | default                          | meaning                                                                  |
 * | -------------------------- | -------------------------------- | ------------------------------------------------------------------------ |
 * | NODE_ENV                   | development                      | `production` turns dev sign-in off by default                            |
 * | PORT                       | 3000                             | TCP port to listen on                                                    |
 * | HOST                       | 127.0.0.1                        | interface to listen on (0.0.0.0 for all)                                 |
 * | PUBLIC_URL                 | http://127.0.0.1:$PORT           | the address browsers use; origin checks, cookies' Secure flag, Google's  |
 * |                            |                                  | redirect URI (PUBLIC_URL/$API_PREFIX/api/auth/google/callback)           |
 * | DATA_DIR                   | ./data                           | embedded database, files, session secret, admin token file              |
 * | DATABASE_URL               | (unset: PGlite in DATA_DIR/pg)   | postgres://… to use a PostgreSQL server instead of the embedded one      |
 * | API_PREFIX                 | reelsmith                        | the API lives under /$API_PREFIX/api                                     |
 * | SESSION_SECRET             | (random, kept in                 | signs the short-lived Google sign-in cookie; at least 32 characters      |
 * |                            |  DATA_DIR/session-secret)        |                                                                          |
 * | GOOGLE_CLIENT_ID           | (unset)                          | Google OAuth client; set both id and secret to offer Google sign-in      |
 * | GOOGLE_CLIENT_SECRET       | (unset)                          |                                                                          |
 * | GOOGLE_ISSUER              | https://accounts.google.com      | the OpenID issuer (tests point it at a local mock)                       |
 * | DEV_LOGIN                  | on when Google is not configured | e-mail sign-in without a password, for development (true/false)          |
 * |                            | and NODE_ENV is not production   |                                                                          |
 * | LOG_LEVEL                  | info                             | fatal, error, warn, info, debug, trace or silent                         |
 * | AUTH_RATE_LIMIT_PER_MINUTE | 30                               | sign-in attempts (dev sign-in, Google start) per minute per IP address   |
 * | ACTIVATE_RATE_LIMIT        | 10                               | invitation code attempts per 15 minutes per user                         |
 * | SIGNUP_CREDITS             | 100                              | credits granted on activation, valid 30 days (0: none; a friend invited  |
 * |                            |                                  | with a personal code gets at least 100)                                  |
 * | OUTBOUND_ALLOW_HOSTS       | (empty)                          | host:port list (comma-separated) that outbound fetches may reach even    |
 * |                            |                                  | though they are private addresses                                        |
 * | WEB_DIST_DIR               | apps/web/dist of this checkout   | the built web app that is served beside the API                          |
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const flag = z
  .enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => ['true', '1', 'on', 'yes'].includes(v))
  .optional();

const positiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

const HostPort = z.string().regex(/^[^\s:,]+:\d{1,5}$/, 'must be a comma-separated list of host:port');

const Env = z.object({
  NODE_ENV: optional,
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: optional.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optional.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
      .optional(),
  ),
  API_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'must be letters, digits, - or _')
    .default('reelsmith'),
  SESSION_SECRET: optional.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CLIENT_SECRET: optional,
  GOOGLE_ISSUER: z.url({ protocol: /^https?$/ }).default('https://accounts.google.com'),
  DEV_LOGIN: flag,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  AUTH_RATE_LIMIT_PER_MINUTE: positiveInt(30),
  ACTIVATE_RATE_LIMIT: positiveInt(10),
  SIGNUP_CREDITS: z.coerce.number().int().min(0).max(1_000_000).default(100),
  OUTBOUND_ALLOW_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(HostPort)),
  WEB_DIST_DIR: optional,
});

export interface Settings {
  production: boolean;
  port: number;
  host: string;
  /** Origin plus optional path, without a trailing slash. */
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  apiPrefix: string;
  /** `undefined` means: use the secret kept in the data dir (see `sessionSecret`). */
  sessionSecret: string | undefined;
  google: { clientId: string; clientSecret: string; issuer: string } | undefined;
  devLogin: boolean;
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
  authRateLimitPerMinute: number;
  activateRateLimit: number;
  /** Credits of the sign-up grant (SIGNUP, expiring after SIGNUP_CREDIT_DAYS). */
  signupCredits: number;
  outboundAllowHosts: string[];
  webDistDir: string;
}

export class SettingsError extends Error {}

/** Reads the settings from an environment; relative paths are taken from `cwd`. */
export function loadSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Settings {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new SettingsError(`Invalid setting ${problems.join('; ')}`);
  }
  const e = parsed.data;
  if (Boolean(e.GOOGLE_CLIENT_ID) !== Boolean(e.GOOGLE_CLIENT_SECRET)) {
    throw new SettingsError('Invalid setting GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET: set both or neither');
  }
  const google =
    e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
      ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, issuer: e.GOOGLE_ISSUER }
      : undefined;
  const production = e.NODE_ENV === 'production';
  return {
    production,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://127.0.0.1:${e.PORT}`).replace(/\/+$/, ''),
    dataDir: resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    apiPrefix: e.API_PREFIX,
    sessionSecret: e.SESSION_SECRET,
    google,
    devLogin: e.DEV_LOGIN ?? (!google && !production),
    logLevel: e.LOG_LEVEL,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    activateRateLimit: e.ACTIVATE_RATE_LIMIT,
    signupCredits: e.SIGNUP_CREDITS,
    outboundAllowHosts: e.OUTBOUND_ALLOW_HOSTS,
    webDistDir: e.WEB_DIST_DIR ? resolve(cwd, e.WEB_DIST_DIR) : join(REPO_ROOT, 'apps/web/dist'),
  };
}

/**
 * SESSION_SECRET, or a random one created on first use and kept in the data dir, so that restarting the
 * server does not break a Google sign-in that is half-way through.
 */
export function sessionSecret(settings: Settings): string {
  if (settings.sessionSecret) return settings.sessionSecret;
  const file = join(settings.dataDir, 'session-secret');
  mkdirSync(settings.dataDir, { recursive: true });
  try {
    // 'wx' fails when the file exists, so two processes starting together agree on one secret.
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}

/** The API's base path, e.g. `/reelsmith/api`. */
export const apiBase = (settings: Pick<Settings, 'apiPrefix'>) => `/${settings.apiPrefix}/api`;
