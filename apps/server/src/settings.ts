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
 * | EXTENSION_ORIGINS          | (empty: no extension)            | browser extensions allowed to send captured pages, as ids or             |
 * |                            |                                  | chrome-extension://<id> origins (comma-separated)                        |
 * | WEB_DIST_DIR               | apps/web/dist of this checkout   | the built web app that is served beside the API                          |
 * | ROLE                       | all                              | all: API and worker; api: only the API; worker: only the task worker     |
 * | WORKER_CONCURRENCY         | 2                                | tasks one worker process runs at once                                    |
 * | TASK_LEASE_SECONDS         | 30                               | how long a worker's claim on a task holds without its heartbeat: a task  |
 * |                            |                                  | of a worker that died runs again on another one after this long          |
 * | STORAGE_DRIVER             | local                            | local: files under DATA_DIR/files; s3: an S3-compatible bucket           |
 * | S3_BUCKET                  | (required with s3)               | the bucket                                                               |
 * | S3_REGION                  | us-east-1                        | the bucket's region                                                      |
 * | S3_ENDPOINT                | (AWS)                            | the endpoint of another S3-compatible store (MinIO, R2, …)               |
 * | S3_ACCESS_KEY_ID           | (the SDK's default chain)        | credentials; both or neither                                             |
 * | S3_SECRET_ACCESS_KEY       |                                  |                                                                          |
 * | S3_FORCE_PATH_STYLE        | false                            | bucket in the path rather than the host name (most self-hosted stores)   |
 * | FILE_URL_TTL_MINUTES       | 360                              | how long a signed file link works                                        |
 * | MAX_IMAGE_MB               | 20                               | largest image accepted (upload or import)                                |
 * | MAX_VIDEO_MB               | 200                              | largest video accepted (upload or import)                                |
 * | STORAGE_QUOTA_MB           | 5120                             | what one user may store, in MiB: files, thumbnails, uploads not yet      |
 * |                            |                                  | registered and captured pages (docs/decisions, "Storage quota")          |
 * | IMPORTS_PER_USER           | 2                                | URL imports one user may run at once in a process; a call past it       |
 * |                            |                                  | answers 429, a task's import waits (docs/decisions, "Import limits")     |
 * | IMPORTS_PER_PROCESS        | 6                                | URL imports one process runs at once; more wait their turn               |
 * | FFMPEG_PATH, FFPROBE_PATH  | ffmpeg/ffprobe on PATH, else the | the ffmpeg and ffprobe programs                                          |
 * |                            | npm-installed binaries           |                                                                          |
 * | LLM_BASE_URL               | (unset: the local script writer) | an OpenAI-compatible chat API (https://api.openai.com/v1, Ollama's       |
 * |                            |                                  | http://127.0.0.1:11434/v1, vLLM's …/v1) that writes the AI scripts      |
 * | LLM_API_KEY                | (none)                           | its bearer key (Ollama and vLLM need none)                               |
 * | LLM_MODEL                  | (required with LLM_BASE_URL)     | the model, e.g. gpt-4o-mini or llama3.1                                  |
 * | LLM_TIMEOUT_SECONDS        | 90                               | how long one chat request may take                                       |
 * | TTS_BASE_URL               | (unset: the local voices)        | an OpenAI-compatible speech API (POST …/audio/speech) for the voice-over |
 * | TTS_API_KEY                | (none)                           | its bearer key                                                           |
 * | TTS_MODEL                  | (required with TTS_BASE_URL)     | the model, e.g. gpt-4o-mini-tts or tts-1                                 |
 * | TTS_VOICES                 | female:nova,male:onyx (others:   | the provider voice for a catalogue voice id or a gender, e.g.            |
 * |                            | shimmer, echo)                   | en-ava:af_bella,male:am_adam                                             |
 * | TTS_TIMEOUT_SECONDS        | 30                               | how long one line's speech request may take                              |
 * | SECURE_COOKIES             | PUBLIC_URL is https              | Secure cookies; true for a TLS-terminating proxy in front of a PUBLIC_URL |
 * |                            |                                  | that names a plain-http address (the only way production accepts http)  |
 * | TRUST_PROXY                | false                            | trust X-Forwarded-For/-Proto from: true (any) or a list of addresses/CIDR |
 * | METRICS_TOKEN              | (unset: GET /metrics is open;    | bearer token GET /metrics requires, at least 16 characters               |
 * |                            |  required in production)         |                                                                          |
 * | SHUTDOWN_TIMEOUT_SECONDS   | 25                               | how long SIGTERM waits for requests and tasks before the process exits   |
 * | EXTRA_TASKS_MODULE         | (unset)                          | tests only, refused in production: a module whose `taskDefinitions` are  |
 * |                            |                                  | added to the task kinds (replacing a kind of the same name)              |
 *
 * NODE_ENV=production adds checks (`productionProblems`): PostgreSQL, a session secret, https (or SECURE_COOKIES),
 * Google sign-in, a metrics token and no dev sign-in or test task kinds; each problem is one line of the error.
 *
 * The generation providers' variables (FAL_*, REPLICATE_*, OPENAI_IMAGES_*, PROVIDER_*) are in providers/choices.ts.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ChoiceError, GenerationEnv, type GenerationSettings, generationSettings } from './providers/choices.js';

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

const httpUrl = optional.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional());

/** A comma-separated list, items trimmed, empty ones dropped. */
const commaList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

const HostPort = z.string().regex(/^[^\s:,]+:\d{1,5}$/, 'must be a comma-separated list of host:port');

/** A Chrome extension id (32 letters a–p) or its origin; always answered as the origin its requests carry. */
const ExtensionOrigin = z
  .string()
  .regex(/^(chrome-extension:\/\/)?[a-p]{32}$/, 'must be a comma-separated list of extension ids or chrome-extension://<id>')
  .transform((v) => (v.startsWith('chrome-extension://') ? v : `chrome-extension://${v}`));

/** `key:value` pairs (TTS_VOICES) as a record. */
const pairs = commaList
  .pipe(z.array(z.string().regex(/^[^\s:,]+:[^\s:,]+$/, 'must be a comma-separated list of id:voice')))
  .transform((items) => Object.fromEntries(items.map((item) => item.split(':') as [string, string])));

const Env = GenerationEnv.extend({
  NODE_ENV: optional,
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: httpUrl,
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
  OUTBOUND_ALLOW_HOSTS: commaList.pipe(z.array(HostPort)),
  EXTENSION_ORIGINS: commaList.pipe(z.array(ExtensionOrigin)),
  WEB_DIST_DIR: optional,
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  TASK_LEASE_SECONDS: positiveInt(30),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: optional,
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: httpUrl,
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  S3_FORCE_PATH_STYLE: flag,
  FILE_URL_TTL_MINUTES: positiveInt(360),
  MAX_IMAGE_MB: positiveInt(20),
  MAX_VIDEO_MB: positiveInt(200),
  STORAGE_QUOTA_MB: positiveInt(5120),
  IMPORTS_PER_USER: z.coerce.number().int().min(1).max(64).default(2),
  IMPORTS_PER_PROCESS: z.coerce.number().int().min(1).max(256).default(6),
  FFMPEG_PATH: optional,
  FFPROBE_PATH: optional,
  LLM_BASE_URL: httpUrl,
  LLM_API_KEY: optional,
  LLM_MODEL: optional,
  LLM_TIMEOUT_SECONDS: positiveInt(90),
  TTS_BASE_URL: httpUrl,
  TTS_API_KEY: optional,
  TTS_MODEL: optional,
  TTS_VOICES: pairs,
  TTS_TIMEOUT_SECONDS: positiveInt(30),
  SECURE_COOKIES: flag,
  TRUST_PROXY: optional.pipe(
    z
      .string()
      .regex(/^(true|false|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/, 'must be true, false or a list of addresses')
      .optional(),
  ),
  METRICS_TOKEN: optional.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  SHUTDOWN_TIMEOUT_SECONDS: positiveInt(25),
  EXTRA_TASKS_MODULE: optional,
});

type Env = z.infer<typeof Env>;

/**
 * What production mode (NODE_ENV=production) refuses, one line each: the embedded database (one process, on the
 * container's disk), a secret that changes with the data dir, cookies without Secure, dev sign-in and test task
 * kinds, and a sign-in other than Google's over https.
 */
function productionProblems(e: Env): string[] {
  const problems: string[] = [];
  const fail = (name: string, why: string) => problems.push(`Invalid setting ${name}: ${why}`);
  if (!e.DATABASE_URL) fail('DATABASE_URL', 'required in production (postgres://…; the embedded database serves one process)');
  if (!e.SESSION_SECRET) fail('SESSION_SECRET', 'required in production (at least 32 random characters, the same for every process)');
  const https = e.PUBLIC_URL?.startsWith('https:') ?? false;
  if (e.SECURE_COOKIES === false) fail('SECURE_COOKIES', 'cannot be false in production: session cookies must be Secure');
  else if (!https && e.SECURE_COOKIES !== true)
    fail('PUBLIC_URL', 'must be https in production (or set SECURE_COOKIES=true behind a TLS-terminating proxy)');
  if (e.DEV_LOGIN) fail('DEV_LOGIN', 'dev sign-in is refused in production');
  if (!e.GOOGLE_CLIENT_ID || !e.GOOGLE_CLIENT_SECRET)
    fail('GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET', 'required in production (the only sign-in)');
  if (!e.GOOGLE_ISSUER.startsWith('https:')) fail('GOOGLE_ISSUER', 'must be https in production');
  if (e.EXTRA_TASKS_MODULE) fail('EXTRA_TASKS_MODULE', 'test task kinds are refused in production');
  // Metrics name routes, task kinds and volumes: not for anyone who can reach the service (decision "Metrics token").
  if (!e.METRICS_TOKEN)
    fail('METRICS_TOKEN', 'required in production (at least 16 random characters; GET /metrics needs it as a bearer token)');
  return problems;
}

/** Fastify's trustProxy from TRUST_PROXY: a flag, or the proxies' addresses. */
function trustProxyOf(value: string | undefined): boolean | string {
  if (value === undefined || value === 'false') return false;
  return value === 'true' ? true : value;
}

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
  /** Origins (`chrome-extension://<id>`) of the browser extensions whose captured pages are accepted. */
  extensionOrigins: string[];
  webDistDir: string;
  /** Which parts this process runs: the API, the task worker, or both. */
  role: 'all' | 'api' | 'worker';
  workerConcurrency: number;
  /** How long a worker's claim on a task holds without a heartbeat (the heartbeat renews it every third of it). */
  taskLeaseMs: number;
  storage: StorageSettings;
  fileUrlTtlSeconds: number;
  maxImageBytes: number;
  maxVideoBytes: number;
  /** What one user may store, every object under their prefix counted (modules/files/storedObjects.ts). */
  storageQuotaBytes: number;
  /** URL imports at once: per user and per process (modules/files/importSlots.ts). */
  importsPerUser: number;
  importsPerProcess: number;
  /** Explicit program paths; undefined: found on PATH, else the npm-installed binary. */
  ffmpegPath: string | undefined;
  ffprobePath: string | undefined;
  /** The LLM that writes AI scripts; undefined: the local writer. */
  llm: ProviderSettings | undefined;
  /** The speech provider that reads scripts; undefined: the local voices. */
  tts: (ProviderSettings & { voices: Record<string, string> }) | undefined;
  /** Which provider does each generation capability, and how remote ones are reached. */
  generation: GenerationSettings;
  /** Whether cookies carry Secure (PUBLIC_URL is https, or SECURE_COOKIES says so). */
  secureCookies: boolean;
  /** Fastify's trustProxy: whose X-Forwarded-* headers give the client's address and protocol. */
  trustProxy: boolean | string;
  /** The bearer token GET /metrics requires; undefined: open. */
  metricsToken: string | undefined;
  shutdownTimeoutMs: number;
  /** Tests only (refused in production): a module adding task kinds. */
  extraTasksModule: string | undefined;
}

/** An OpenAI-compatible API: where it is, its key (none for Ollama or vLLM), the model, and a time limit per request. */
export interface ProviderSettings {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

export type StorageSettings =
  | { driver: 'local' }
  | {
      driver: 's3';
      bucket: string;
      region: string;
      endpoint: string | undefined;
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      forcePathStyle: boolean;
    };

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
  if (production) {
    const problems = productionProblems(e);
    if (problems.length) throw new SettingsError(problems.join('\n'));
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new SettingsError('Invalid setting S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: set both or neither');
  }
  if (e.ROLE !== 'all' && !e.DATABASE_URL) {
    throw new SettingsError(`Invalid setting ROLE: ${e.ROLE} needs DATABASE_URL (the embedded database serves one process)`);
  }
  if (e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET) throw new SettingsError('Invalid setting S3_BUCKET: required with STORAGE_DRIVER=s3');
  if (e.LLM_BASE_URL && !e.LLM_MODEL) throw new SettingsError('Invalid setting LLM_MODEL: required with LLM_BASE_URL');
  if (e.TTS_BASE_URL && !e.TTS_MODEL) throw new SettingsError('Invalid setting TTS_MODEL: required with TTS_BASE_URL');
  let generation: GenerationSettings;
  try {
    generation = generationSettings(e, production);
  } catch (error) {
    if (error instanceof ChoiceError) throw new SettingsError(`Invalid setting ${error.message}`);
    throw error;
  }
  const provider = (baseUrl: string, apiKey: string | undefined, model: string, timeoutSeconds: number): ProviderSettings => ({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey,
    model,
    timeoutMs: timeoutSeconds * 1000,
  });
  const storage: StorageSettings =
    e.STORAGE_DRIVER === 's3'
      ? {
          driver: 's3',
          bucket: e.S3_BUCKET as string,
          region: e.S3_REGION,
          endpoint: e.S3_ENDPOINT,
          credentials:
            e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
              : undefined,
          forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
        }
      : { driver: 'local' };
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
    extensionOrigins: e.EXTENSION_ORIGINS,
    webDistDir: e.WEB_DIST_DIR ? resolve(cwd, e.WEB_DIST_DIR) : join(REPO_ROOT, 'apps/web/dist'),
    role: e.ROLE,
    workerConcurrency: e.WORKER_CONCURRENCY,
    taskLeaseMs: e.TASK_LEASE_SECONDS * 1000,
    storage,
    fileUrlTtlSeconds: e.FILE_URL_TTL_MINUTES * 60,
    maxImageBytes: e.MAX_IMAGE_MB * 1024 * 1024,
    maxVideoBytes: e.MAX_VIDEO_MB * 1024 * 1024,
    storageQuotaBytes: e.STORAGE_QUOTA_MB * 1024 * 1024,
    importsPerUser: e.IMPORTS_PER_USER,
    importsPerProcess: e.IMPORTS_PER_PROCESS,
    ffmpegPath: e.FFMPEG_PATH,
    ffprobePath: e.FFPROBE_PATH,
    llm: e.LLM_BASE_URL ? provider(e.LLM_BASE_URL, e.LLM_API_KEY, e.LLM_MODEL as string, e.LLM_TIMEOUT_SECONDS) : undefined,
    tts: e.TTS_BASE_URL
      ? { ...provider(e.TTS_BASE_URL, e.TTS_API_KEY, e.TTS_MODEL as string, e.TTS_TIMEOUT_SECONDS), voices: e.TTS_VOICES }
      : undefined,
    generation,
    secureCookies: e.SECURE_COOKIES ?? e.PUBLIC_URL?.startsWith('https:') ?? false,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    metricsToken: e.METRICS_TOKEN,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    extraTasksModule: e.EXTRA_TASKS_MODULE ? resolve(cwd, e.EXTRA_TASKS_MODULE) : undefined,
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
