// The server process: settings, database and migrations, then by ROLE the HTTP app with the admin token file,
// and the task worker with the sweep of expired credits; shutdown.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { buildApp } from './app.js';
import { adminFileOf } from './cli/admin-file.js';
import { openDatabase, pgliteDirOf } from './db/client.js';
import { migrate } from './db/migrate.js';
import { ADMIN_RPC_PATH } from './modules/admin/routes.js';
import { SessionStore } from './modules/auth/sessions.js';
import { createStorage } from './modules/files/storage/index.js';
import { starterInviteCode } from './modules/invites/service.js';
import { startExpirySweeps } from './modules/points/expiry.js';
import { TASK_DEFINITIONS } from './modules/tasks/registry.js';
import { startWorker } from './modules/tasks/worker.js';
import { generationProviders } from './providers/registry.js';
import { apiBase, loadSettings, SettingsError } from './settings.js';

/** The address the CLI on this machine reaches the server at, whatever interface it listens on. */
const localHost = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host);

async function main() {
  const settings = loadSettings();
  mkdirSync(settings.dataDir, { recursive: true });
  const database = await openDatabase({ databaseUrl: settings.databaseUrl, pgliteDir: pgliteDirOf(settings.dataDir) });
  await migrate(database);
  const sessions = new SessionStore(database.db);
  await sessions.purgeExpired();
  const inviteCode = await starterInviteCode(database.db);

  const adminToken = randomBytes(32).toString('base64url');
  const storage = createStorage(settings);
  const providers = generationProviders(settings);
  const ctx = { settings, db: database.db, sessions, storage, adminToken, tasks: TASK_DEFINITIONS, providers };
  // A worker-only process builds the app too, for its logger and services, but answers no requests.
  const app = await buildApp(ctx);
  const runsApi = settings.role !== 'worker';
  const runsWorker = settings.role !== 'api';

  const adminFile = adminFileOf(settings.dataDir);
  if (runsApi) {
    await app.listen({ host: settings.host, port: settings.port });
    const rpcUrl = `http://${localHost(settings.host)}:${settings.port}${apiBase(settings)}${ADMIN_RPC_PATH}`;
    // Removed first: the mode of a file left by a server that died would otherwise be kept.
    rmSync(adminFile, { force: true });
    writeFileSync(adminFile, JSON.stringify({ url: rpcUrl, token: adminToken }), { mode: 0o600, flag: 'wx' });
  }
  const worker = runsWorker ? startWorker(ctx, TASK_DEFINITIONS, { concurrency: settings.workerConcurrency, log: app.log }) : undefined;
  const stopExpirySweeps = runsWorker ? startExpirySweeps(database.db, app.log) : async () => {};

  if (runsApi) console.log(`Reelsmith is running at ${settings.publicUrl}`);
  else console.log(`Reelsmith worker is running (${settings.workerConcurrency} at a time)`);
  if (inviteCode) console.log(`Invitation code: ${inviteCode}`);

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    if (runsApi) rmSync(adminFile, { force: true });
    await app.close();
    await worker?.stop();
    await stopExpirySweeps();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof SettingsError ? error.message : error);
  process.exit(1);
});
