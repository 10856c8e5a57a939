// The process itself: where it listens, where its data is, how it faces the network and how it stops.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { commaList, flag, httpUrl, optional, positiveInt, type SettingsContext, setting } from './fields.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

const HostPort = z.string().regex(/^[^\s:,]+:\d{1,5}$/, 'must be a comma-separated list of host:port');

/** A Chrome extension id (32 letters a–p) or its origin; always answered as the origin its requests carry. */
const ExtensionOrigin = z
  .string()
  .regex(/^(chrome-extension:\/\/)?[a-p]{32}$/, 'must be a comma-separated list of extension ids or chrome-extension://<id>')
  .transform((v) => (v.startsWith('chrome-extension://') ? v : `chrome-extension://${v}`));

export const ServerEnv = z.object({
  NODE_ENV: setting(
    optional,
    '`production` turns dev sign-in off unless `DEV_LOGIN` says otherwise, and refuses to start without what production needs',
    'development',
  ),
  PORT: setting(z.coerce.number().int().min(1).max(65535).default(3000), 'port to listen on'),
  HOST: setting(z.string().min(1).default('127.0.0.1'), 'interface to listen on (`0.0.0.0` for all)'),
  PUBLIC_URL: setting(
    httpUrl,
    'the address browsers use: origin checks, the cookie `Secure` flag (https), the Google redirect URI `PUBLIC_URL/$API_PREFIX/api/auth/google/callback`',
    'http://127.0.0.1:$PORT',
  ),
  DATA_DIR: setting(
    z.string().min(1).default('./data'),
    "embedded database (`pg/`), stored files (`files/`), `session-secret`, the admin CLI's `admin.json`",
  ),
  DATABASE_URL: setting(
    optional.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
        .optional(),
    ),
    '`postgres://…` to use a PostgreSQL server',
    'unset: embedded PGlite',
  ),
  API_PREFIX: setting(
    z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'must be letters, digits, - or _')
      .default('reelsmith'),
    'the API lives at `/$API_PREFIX/api`',
  ),
  LOG_LEVEL: setting(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    '`fatal`…`trace`, or `silent`',
  ),
  WEB_DIST_DIR: setting(optional, 'the built web app to serve beside the API', 'apps/web/dist of this checkout'),
  OUTBOUND_ALLOW_HOSTS: setting(
    commaList.pipe(z.array(HostPort)),
    '`host:port` list (comma-separated) the server may fetch even though it is private or loopback (tests, self-hosted shops)',
  ),
  EXTENSION_ORIGINS: setting(
    commaList.pipe(z.array(ExtensionOrigin)),
    'browser extension ids (or `chrome-extension://<id>` origins), comma-separated, allowed to upload captured pages',
    'empty: no extension',
  ),
  SECURE_COOKIES: setting(
    flag,
    'Secure cookies and HSTS; `true` is the only way production accepts an http `PUBLIC_URL` (behind a TLS-terminating proxy); `false` is refused in production',
    'on when `PUBLIC_URL` is https',
  ),
  TRUST_PROXY: setting(
    optional.pipe(
      z
        .string()
        .regex(/^(true|false|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/, 'must be true, false or a list of addresses')
        .optional(),
    ),
    "`true` (any), or the proxies' addresses/CIDR (comma-separated), whose `X-Forwarded-For`/`-Proto` give the client's address and protocol",
    'false',
  ),
  METRICS_TOKEN: setting(
    optional.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
    'the bearer token `GET /metrics` requires (at least 16 characters)',
    'unset: `/metrics` is open (required in production)',
  ),
  SHUTDOWN_TIMEOUT_SECONDS: setting(positiveInt(25), 'how long `SIGTERM` waits for requests and tasks before the process exits'),
  CLIENT_LOG_RATE_LIMIT: setting(
    positiveInt(30),
    'batches of client errors the web app may send to `POST /log/collect` per IP address per minute',
  ),
  API_KEY_RATE_LIMIT: setting(
    positiveInt(120),
    'calls one API key may make to the public API per minute, over all server processes on the database',
  ),
});

/** Fastify's trustProxy from TRUST_PROXY: a flag, or the proxies' addresses. */
function trustProxyOf(value: string | undefined): boolean | string {
  if (value === undefined || value === 'false') return false;
  return value === 'true' ? true : value;
}

export function serverSettings(e: z.output<typeof ServerEnv>, { cwd }: SettingsContext) {
  return {
    port: e.PORT,
    host: e.HOST,
    /** Origin plus optional path, without a trailing slash. */
    publicUrl: (e.PUBLIC_URL ?? `http://127.0.0.1:${e.PORT}`).replace(/\/+$/, ''),
    dataDir: resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    apiPrefix: e.API_PREFIX,
    logLevel: e.LOG_LEVEL,
    webDistDir: e.WEB_DIST_DIR ? resolve(cwd, e.WEB_DIST_DIR) : join(REPO_ROOT, 'apps/web/dist'),
    outboundAllowHosts: e.OUTBOUND_ALLOW_HOSTS,
    /** Origins (`chrome-extension://<id>`) of the browser extensions whose captured pages are accepted. */
    extensionOrigins: e.EXTENSION_ORIGINS,
    /** Whether cookies carry Secure (PUBLIC_URL is https, or SECURE_COOKIES says so). */
    secureCookies: e.SECURE_COOKIES ?? e.PUBLIC_URL?.startsWith('https:') ?? false,
    /** Fastify's trustProxy: whose X-Forwarded-* headers give the client's address and protocol. */
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    /** Client log batches per IP address per minute (decision "Client logs"). */
    clientLogRateLimit: e.CLIENT_LOG_RATE_LIMIT,
    apiKeyRateLimit: e.API_KEY_RATE_LIMIT,
    /** The bearer token GET /metrics requires; undefined: open. */
    metricsToken: e.METRICS_TOKEN,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
  };
}
