// The server process: settings, database and migrations, then by ROLE the HTTP app with the admin token file,
// and the task worker with the sweep of expired credits; in every role the sweep of work dead processes left;
// graceful shutdown. Any problem found before the process serves (a setting, the database, the storage) is one
// line on stderr and exit code 1.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { warmMusic, warmSpeech } from '@reelsmith/media';
import { buildApp } from './app.js';
import { adminFileOf } from './cli/admin-file.js';
import { createContext, TASK_DEFINITIONS } from './composition.js';
import type { AppContext } from './context.js';
import { openDatabase, pgliteDirOf } from './db/client.js';
import { migrate } from './db/migrate.js';
import { ADMIN_RPC_PATH } from './modules/admin/routes.js';
import { startBatchDriver } from './modules/batches/driver.js';
import { startStorageSweeps } from './modules/files/storageSweep.js';
import { cacheDirOf, mediaToolsOf, sweepRenderCache, sweepStaleWork, tmpDirOf, WORK_SWEEP_INTERVAL_MS } from './modules/files/workDir.js';
import { starterInviteCode } from './modules/invites/service.js';
import { startExpirySweeps } from './modules/points/expiry.js';
import { type AnyTaskDefinition, needsOf } from './modules/tasks/definition.js';
import { startWorker } from './modules/tasks/worker.js';
import { startDispatcher } from './modules/webhooks/dispatcher.js';
import { startDeliverySweeps } from './modules/webhooks/retention.js';
import { PART_NAMES, type PartCheck, Parts } from './parts.js';
import { runPeriodically } from './periodic.js';
import { isSandbox } from './providers/provider.js';
import { apiBase, loadSettings, type Settings, SettingsError } from './settings.js';

/** A start-up failure told in one line, without a stack: the operator fixes a setting, not the code. */
class StartError extends Error {}

/**
 * The task kinds this process runs: the product's, and outside production those of EXTRA_TASKS_MODULE (the
 * multi-process tests' own kinds; settings refuse it in production), replacing kinds of the same name.
 */
async function taskDefinitionsOf(settings: Settings): Promise<readonly AnyTaskDefinition[]> {
  if (!settings.extraTasksModule || settings.production) return TASK_DEFINITIONS;
  const { taskDefinitions } = (await import(settings.extraTasksModule)) as { taskDefinitions: AnyTaskDefinition[] };
  const extra = new Set(taskDefinitions.map((d) => d.kind));
  return [...TASK_DEFINITIONS.filter((d) => !extra.has(d.kind)), ...taskDefinitions];
}

/** One line per missing part: what it is, what is wrong, how to get it, and the task kinds it disables. */
function missingLines(missing: readonly PartCheck[], definitions: readonly AnyTaskDefinition[], ctx: AppContext): string[] {
  return missing.flatMap((check) => {
    if (check.ok) return [];
    const disabled = definitions.filter((d) => needsOf(d, ctx).includes(check.part)).map((d) => d.kind);
    return [
      `  - ${PART_NAMES[check.part]}: ${check.problem}. To fix: ${check.fix}.`,
      `    Disables: ${disabled.length ? disabled.join(', ') : 'no task kind of this server'}.`,
    ];
  });
}

const causeOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0];

/** The address the CLI on this machine reaches the server at, whatever interface it listens on. */
const localHost = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host);

async function main() {
  const settings = loadSettings();
  mkdirSync(settings.dataDir, { recursive: true });
  // The media engine's temporary files (render pieces, caption samples) go beside the work directories, on the
  // data disk: what a killed process leaves there is found by the sweep of stale work below.
  process.env.TMPDIR = tmpDirOf(settings.dataDir);
  mkdirSync(process.env.TMPDIR, { recursive: true });
  // Every part a task needs, checked before anything else (decision "Start-up checks"): what is missing is said
  // at start, with the tools it disables, instead of each task failing later; production refuses to start without
  // ffmpeg, which every video, upload or task, needs.
  const parts = new Parts(settings);
  const missing = (await parts.all()).filter((c) => !c.ok);
  const ffmpegMissing = missing.find((c) => c.part === 'ffmpeg');
  if (settings.production && ffmpegMissing && !ffmpegMissing.ok)
    throw new StartError(`Production needs ffmpeg: ${ffmpegMissing.problem}. To fix: ${ffmpegMissing.fix}.`);
  const database = await openDatabase({ databaseUrl: settings.databaseUrl, pgliteDir: pgliteDirOf(settings.dataDir) });
  await migrate(database).catch((error: unknown) => {
    throw new StartError(`The database cannot be reached or migrated: ${causeOf(error)}`);
  });
  const taskDefinitions = await taskDefinitionsOf(settings);
  const ctx = createContext({
    settings,
    db: database.db,
    adminToken: randomBytes(32).toString('base64url'),
    tasks: taskDefinitions,
    parts,
  });
  await ctx.sessions.purgeExpired();
  const inviteCode = await starterInviteCode(database.db);
  await ctx.storage.check().catch((error: unknown) => {
    throw new StartError(`The file storage (${settings.storage.driver}) cannot be written: ${causeOf(error)}`);
  });
  // A worker-only process answers only probes (health and /metrics) on its port.
  const app = await buildApp(ctx);
  const runsApi = settings.role !== 'worker';
  const runsWorker = settings.role !== 'api';

  const adminFile = adminFileOf(settings.dataDir);
  await app.listen({ host: settings.host, port: settings.port });
  // The admin CLI goes through the server only to reach an embedded database (one process may open it); on
  // PostgreSQL it connects itself, and API processes sharing a DATA_DIR would race for the one file.
  const writesAdminFile = runsApi && !settings.databaseUrl;
  if (writesAdminFile) {
    const rpcUrl = `http://${localHost(settings.host)}:${settings.port}${apiBase(settings)}${ADMIN_RPC_PATH}`;
    // Removed first: the mode of a file left by a server that died would otherwise be kept.
    rmSync(adminFile, { force: true });
    writeFileSync(adminFile, JSON.stringify({ url: rpcUrl, token: ctx.adminToken }), { mode: 0o600, flag: 'wx' });
  }
  const worker = runsWorker
    ? startWorker(ctx, taskDefinitions, { concurrency: settings.workerConcurrency, leaseMs: settings.taskLeaseMs, log: app.log })
    : undefined;
  // Webhook deliveries are sent where tasks run (decision "Webhooks").
  const dispatcher = runsWorker ? startDispatcher(ctx, { log: app.log }) : undefined;
  // Batches advance where tasks run, through the same task kinds (decision "Batch").
  const batchDriver = runsWorker
    ? startBatchDriver(ctx, taskDefinitions, { concurrencyPerUser: settings.batchConcurrencyPerUser, log: app.log })
    : undefined;
  const stopExpirySweeps = runsWorker ? startExpirySweeps(database.db, app.log) : async () => {};
  // Uploads never registered and captured pages done with (docs/decisions, "Storage quota"): one sweep per worker.
  const stopStorageSweeps = runsWorker ? startStorageSweeps(ctx, app.log) : async () => {};
  // The webhook delivery log, kept 30 days (decision "Fair webhook delivery").
  const stopDeliverySweeps = runsWorker ? startDeliverySweeps(database.db, app.log) : async () => {};
  const stopWorkSweeps = runPeriodically(
    () => Promise.all([sweepStaleWork(settings.dataDir), sweepRenderCache(settings.dataDir)]),
    WORK_SWEEP_INTERVAL_MS,
    app.log,
    'removing stale work failed',
  );

  // The music loops a first preview would otherwise wait for, rendered once per cache version on the synthesiser's
  // thread while the server already serves (decision "SoundFont music"); a part they need that is missing was
  // reported by the start-up checks.
  if (runsWorker && settings.musicWarmUp && !missing.some((c) => c.part === 'music' || c.part === 'ffmpeg')) {
    warmMusic(cacheDirOf(settings.dataDir, 'music'), mediaToolsOf(settings)).catch((error: unknown) =>
      app.log.warn({ err: error }, 'rendering the music loops at start failed'),
    );
  }

  // The local voice's engine compiled and its first instance made, so the first preview does not wait for them
  // (decision "Voices and word timings").
  if (runsWorker) warmSpeech().catch((error: unknown) => app.log.warn({ err: error }, 'preparing the local voice at start failed'));

  app.log.info({ role: settings.role, url: settings.publicUrl, port: settings.port, production: settings.production }, 'started');
  if (runsApi) console.log(`Reelsmith is running at ${settings.publicUrl}`);
  else console.log(`Reelsmith worker is running (${settings.workerConcurrency} at a time)`);
  // Told to the operator, never to users (decision "Stand-ins are free"): what runs on the free, marked stand-ins.
  const standIns = Object.entries(ctx.providers).flatMap(([capability, provider]) => (isSandbox(provider) ? [capability] : []));
  if (standIns.length) {
    app.log.info({ standIns }, 'the sandbox stands in for these capabilities, free');
    console.log(
      `Sandbox stand-ins (free, marked SANDBOX) for: ${standIns.join(', ')}. Set PROVIDER_* to a vendor for real results (README, Settings).`,
    );
  }
  // The editor tells users the built-in voices sound synthetic; the way to natural ones is the operator's to know.
  if (runsWorker && ctx.voice.offline) {
    console.log('Voices: the built-in offline voices (eSpeak NG). Set TTS_BASE_URL or TTS_PROVIDER for natural voices (README, Voices).');
  }
  if (inviteCode) console.log(`Invitation code: ${inviteCode}`);
  if (missing.length) {
    app.log.warn({ missing: missing.map(({ part, problem }) => ({ part, problem })) }, 'parts the tools need are missing');
    console.warn(
      [
        'Warning: this server lacks parts some tools need; those tools answer "not available" until the part is installed and the server restarted:',
        ...missingLines(missing, taskDefinitions, ctx),
      ].join('\n'),
    );
  }

  let stopping = false;
  /**
   * SIGTERM: the HTTP server stops accepting and finishes the requests in flight, while the worker stops claiming
   * and gives its running tasks back to the queue for another worker. Past SHUTDOWN_TIMEOUT_SECONDS the process
   * exits anyway (a task left running then is picked up again when its lease lapses).
   */
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.error({ timeoutMs: settings.shutdownTimeoutMs }, 'shutdown took too long; exiting');
      process.exit(1);
    }, settings.shutdownTimeoutMs).unref();
    if (writesAdminFile) rmSync(adminFile, { force: true });
    await Promise.all([app.close(), worker?.stop(), dispatcher?.stop(), batchDriver?.stop()]);
    await Promise.all([stopExpirySweeps(), stopStorageSweeps(), stopDeliverySweeps(), stopWorkSweeps()]);
    await database.close();
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof SettingsError || error instanceof StartError ? error.message : error);
  process.exit(1);
});
