import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings, SettingsError, sessionSecret } from '../src/settings.js';

const google = { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' };
/** A production environment that passes every check. */
const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://reelsmith@db/reelsmith',
  SESSION_SECRET: 'p'.repeat(32),
  PUBLIC_URL: 'https://studio.example',
  METRICS_TOKEN: 'm'.repeat(16),
  ...google,
};

describe('settings', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const s = loadSettings({}, '/srv/reelsmith');
    expect(s).toMatchObject({
      production: false,
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://127.0.0.1:3000',
      dataDir: '/srv/reelsmith/data',
      databaseUrl: undefined,
      apiPrefix: 'reelsmith',
      sessionSecret: undefined,
      google: undefined,
      devLogin: true,
      logLevel: 'info',
      authRateLimitPerMinute: 30,
      activateRateLimit: 10,
      signupCredits: 100,
      outboundAllowHosts: [],
      extensionOrigins: [],
    });
    expect(s.webDistDir).toBe(resolve(import.meta.dirname, '../../web/dist'));
  });

  it('follows PORT in the default PUBLIC_URL and trims a trailing slash from a given one', () => {
    expect(loadSettings({ PORT: '4100' }).publicUrl).toBe('http://127.0.0.1:4100');
    expect(loadSettings({ PUBLIC_URL: 'https://studio.example/' }).publicUrl).toBe('https://studio.example');
  });

  it('turns dev sign-in on by default only without Google and outside production', () => {
    expect(loadSettings({ ...google }).devLogin).toBe(false);
    expect(loadSettings(PRODUCTION).devLogin).toBe(false);
    expect(loadSettings({ DEV_LOGIN: 'off' }).devLogin).toBe(false);
    expect(loadSettings({ ...google, GOOGLE_ISSUER: 'http://127.0.0.1:9000' }).google).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
      issuer: 'http://127.0.0.1:9000',
    });
  });

  it('parses OUTBOUND_ALLOW_HOSTS and the rate limits', () => {
    const s = loadSettings({
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1:4000, shop.local:8080',
      AUTH_RATE_LIMIT_PER_MINUTE: '5',
      ACTIVATE_RATE_LIMIT: '3',
    });
    expect(s.outboundAllowHosts).toEqual(['127.0.0.1:4000', 'shop.local:8080']);
    expect(s.authRateLimitPerMinute).toBe(5);
    expect(s.activateRateLimit).toBe(3);
  });

  it('reads EXTENSION_ORIGINS as extension ids or origins, answering origins, and refuses anything else', () => {
    const id = 'abcdefghijklmnopabcdefghijklmnop';
    expect(loadSettings({ EXTENSION_ORIGINS: `${id}, chrome-extension://${'p'.repeat(32)}` }).extensionOrigins).toEqual([
      `chrome-extension://${id}`,
      `chrome-extension://${'p'.repeat(32)}`,
    ]);
    expect(() => loadSettings({ EXTENSION_ORIGINS: 'https://evil.example' })).toThrow(/EXTENSION_ORIGINS/);
  });

  it('takes SIGNUP_CREDITS as a whole number, 0 meaning no sign-up grant', () => {
    expect(loadSettings({ SIGNUP_CREDITS: '250' }).signupCredits).toBe(250);
    expect(loadSettings({ SIGNUP_CREDITS: '0' }).signupCredits).toBe(0);
  });

  it('runs API and worker together by default; a split role needs PostgreSQL', () => {
    expect(loadSettings({})).toMatchObject({ role: 'all', workerConcurrency: 2 });
    expect(loadSettings({ ROLE: 'worker', DATABASE_URL: 'postgres://db/x', WORKER_CONCURRENCY: '8' })).toMatchObject({
      role: 'worker',
      workerConcurrency: 8,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PUBLIC_URL: 'ftp://files.example' }, 'PUBLIC_URL'],
    [{ DATABASE_URL: 'mysql://db' }, 'DATABASE_URL'],
    [{ API_PREFIX: 'my/api' }, 'API_PREFIX'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ DEV_LOGIN: 'maybe' }, 'DEV_LOGIN'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ AUTH_RATE_LIMIT_PER_MINUTE: '0' }, 'AUTH_RATE_LIMIT_PER_MINUTE'],
    [{ OUTBOUND_ALLOW_HOSTS: 'no-port-here' }, 'OUTBOUND_ALLOW_HOSTS'],
    [{ ROLE: 'worker' }, 'ROLE'],
    [{ ROLE: 'api' }, 'ROLE'],
    [{ ROLE: 'both' }, 'ROLE'],
    [{ WORKER_CONCURRENCY: '0' }, 'WORKER_CONCURRENCY'],
    [{ STORAGE_DRIVER: 's3' }, 'S3_BUCKET'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'only-the-id' }, 'S3_ACCESS_KEY_ID'],
    [{ GOOGLE_CLIENT_ID: 'only-the-id' }, 'GOOGLE_CLIENT_ID'],
    [{ SIGNUP_CREDITS: '-5' }, 'SIGNUP_CREDITS'],
    [{ SIGNUP_CREDITS: '12.5' }, 'SIGNUP_CREDITS'],
  ])('stops on a bad setting and names it: %o', (env, name) => {
    expect(() => loadSettings(env)).toThrow(SettingsError);
    expect(() => loadSettings(env)).toThrow(new RegExp(`^Invalid setting ${name}`));
  });

  it('starts in production mode with PostgreSQL, a secret, https and Google sign-in; cookies are Secure', () => {
    expect(loadSettings(PRODUCTION)).toMatchObject({
      production: true,
      devLogin: false,
      secureCookies: true,
      trustProxy: false,
      metricsToken: 'm'.repeat(16),
      extraTasksModule: undefined,
    });
    expect(loadSettings({ ...PRODUCTION, PUBLIC_URL: 'http://10.0.0.5:3000', SECURE_COOKIES: 'true' })).toMatchObject({
      publicUrl: 'http://10.0.0.5:3000',
      secureCookies: true,
    });
  });

  it.each([
    [{ DATABASE_URL: '' }, 'Invalid setting DATABASE_URL: required in production'],
    [{ SESSION_SECRET: undefined }, 'Invalid setting SESSION_SECRET: required in production'],
    [{ PUBLIC_URL: 'http://studio.example' }, 'Invalid setting PUBLIC_URL: must be https in production'],
    [{ PUBLIC_URL: undefined }, 'Invalid setting PUBLIC_URL: must be https in production'],
    [{ SECURE_COOKIES: 'false' }, 'Invalid setting SECURE_COOKIES: cannot be false in production'],
    [{ DEV_LOGIN: 'true' }, 'Invalid setting DEV_LOGIN: dev sign-in is refused in production'],
    [{ GOOGLE_CLIENT_ID: undefined, GOOGLE_CLIENT_SECRET: undefined }, 'Invalid setting GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET: required'],
    [{ GOOGLE_ISSUER: 'http://127.0.0.1:9000' }, 'Invalid setting GOOGLE_ISSUER: must be https in production'],
    [{ EXTRA_TASKS_MODULE: 'test/support/scaleTasks.ts' }, 'Invalid setting EXTRA_TASKS_MODULE: test task kinds are refused'],
    [{ METRICS_TOKEN: undefined }, 'Invalid setting METRICS_TOKEN: required in production'],
  ])('refuses to start in production with %o', (change, message) => {
    const env = { ...PRODUCTION, ...change };
    expect(() => loadSettings(env)).toThrow(SettingsError);
    expect(() => loadSettings(env)).toThrow(message);
  });

  it('lists every production problem, one line each', () => {
    let message = '';
    try {
      loadSettings({ NODE_ENV: 'production', DEV_LOGIN: 'on' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split('\n')).toEqual([
      expect.stringMatching(/^Invalid setting DATABASE_URL: /),
      expect.stringMatching(/^Invalid setting SESSION_SECRET: /),
      expect.stringMatching(/^Invalid setting PUBLIC_URL: /),
      expect.stringMatching(/^Invalid setting DEV_LOGIN: /),
      expect.stringMatching(/^Invalid setting GOOGLE_CLIENT_ID \/ GOOGLE_CLIENT_SECRET: /),
      expect.stringMatching(/^Invalid setting METRICS_TOKEN: /),
    ]);
  });

  it('reads the operations settings: proxy trust, metrics token, shutdown time, test task module', () => {
    expect(loadSettings({ TRUST_PROXY: 'true', METRICS_TOKEN: 'm'.repeat(16), SHUTDOWN_TIMEOUT_SECONDS: '40' }, '/srv')).toMatchObject({
      trustProxy: true,
      metricsToken: 'm'.repeat(16),
      shutdownTimeoutMs: 40_000,
    });
    expect(loadSettings({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
    expect(loadSettings({ EXTRA_TASKS_MODULE: 'test/x.ts' }, '/srv').extraTasksModule).toBe('/srv/test/x.ts');
    expect(loadSettings({ SECURE_COOKIES: 'false', PUBLIC_URL: 'https://studio.example' }).secureCookies).toBe(false);
    expect(() => loadSettings({ METRICS_TOKEN: 'short' })).toThrow(/^Invalid setting METRICS_TOKEN/);
    expect(() => loadSettings({ TRUST_PROXY: 'everyone' })).toThrow(/^Invalid setting TRUST_PROXY/);
  });

  it('keeps a generated session secret in the data dir, private, across restarts', () => {
    const parent = mkdtempSync(join(tmpdir(), 'reelsmith-secret-'));
    const dataDir = join(parent, 'data');
    const first = sessionSecret(loadSettings({ DATA_DIR: dataDir }));
    expect(first).toMatch(/^[\w-]{43}$/);
    expect(sessionSecret(loadSettings({ DATA_DIR: dataDir }))).toBe(first);
    expect(statSync(join(dataDir, 'session-secret')).mode & 0o777).toBe(0o600);
    const given = 's'.repeat(32);
    expect(sessionSecret(loadSettings({ DATA_DIR: dataDir, SESSION_SECRET: given }))).toBe(given);
    rmSync(parent, { recursive: true });
  });
});
