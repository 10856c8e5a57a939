/**
 * Settings: the environment, read once and validated at start-up. A bad value stops the server with a message that
 * names the variable. Each concern declares its variables in one schema under settings/ (server, auth, storage,
 * tasks, providers, generation, billing), every variable documented beside its schema; the README's settings tables and
 * .env.example are written from those schemas (`npm run settings:docs`) and a test fails when they disagree.
 *
 * NODE_ENV=production adds checks (`productionProblems`): PostgreSQL, a session secret, https (or SECURE_COOKIES),
 * Google sign-in, a metrics token and no dev sign-in or test task kinds; each problem is one line of the error.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { AuthEnv, authSettings } from './settings/auth.js';
import { BillingEnv, billingSettings } from './settings/billing.js';
import { refuse, type SettingsContext, SettingsError } from './settings/fields.js';
import { GenerationEnv, generationSettings } from './settings/generation.js';
import { ProvidersEnv, providerSettings } from './settings/providers.js';
import { ServerEnv, serverSettings } from './settings/server.js';
import { StorageEnv, storageSettings } from './settings/storage.js';
import { TasksEnv, taskSettings } from './settings/tasks.js';

export type { StripeSettings } from './settings/billing.js';
export { SettingsError } from './settings/fields.js';
export type { GenerationSettings, ProviderChoice, RemoteCapability, Vendor, VendorAccess } from './settings/generation.js';
export type { ProviderSettings } from './settings/providers.js';
export type { StorageSettings } from './settings/storage.js';

/** Every concern, in the order the docs list them. */
export const CONCERNS = [
  { title: 'Server', env: ServerEnv },
  { title: 'Sign-in and accounts', env: AuthEnv },
  { title: 'Storage and limits', env: StorageEnv },
  { title: 'Tasks', env: TasksEnv },
  { title: 'Script writer and voice', env: ProvidersEnv },
  { title: 'Generation providers', env: GenerationEnv },
  { title: 'Buying credits', env: BillingEnv },
] as const;

/** The whole environment the server reads: every concern's variables. */
export const SettingsEnv = z.object({
  ...ServerEnv.shape,
  ...AuthEnv.shape,
  ...StorageEnv.shape,
  ...TasksEnv.shape,
  ...ProvidersEnv.shape,
  ...GenerationEnv.shape,
  ...BillingEnv.shape,
});
type Env = z.output<typeof SettingsEnv>;

export interface Settings
  extends ReturnType<typeof serverSettings>,
    ReturnType<typeof authSettings>,
    ReturnType<typeof storageSettings>,
    ReturnType<typeof taskSettings>,
    ReturnType<typeof providerSettings>,
    ReturnType<typeof generationSettings>,
    ReturnType<typeof billingSettings> {
  production: boolean;
}

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

/** Reads the settings from an environment; relative paths are taken from `cwd`. */
export function loadSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Settings {
  const parsed = SettingsEnv.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new SettingsError(`Invalid setting ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const context: SettingsContext = { cwd, production: e.NODE_ENV === 'production' };
  const auth = authSettings(e, context);
  if (context.production) {
    const problems = productionProblems(e);
    if (problems.length) throw new SettingsError(problems.join('\n'));
  }
  // Rules across concerns are checked here, where every variable is known.
  if (e.ROLE !== 'all' && !e.DATABASE_URL) refuse(`ROLE: ${e.ROLE} needs DATABASE_URL (the embedded database serves one process)`);
  return {
    production: context.production,
    ...serverSettings(e, context),
    ...auth,
    ...storageSettings(e),
    ...taskSettings(e, context),
    ...providerSettings(e),
    ...generationSettings(e, context),
    ...billingSettings(e),
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
