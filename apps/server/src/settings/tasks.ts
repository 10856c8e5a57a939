// The task worker: which parts a process runs, how many tasks at once, how long a claim holds, and its programs.
import { resolve } from 'node:path';
import { z } from 'zod';
import { flag, optional, positiveInt, type SettingsContext, setting } from './fields.js';

export const TasksEnv = z.object({
  ROLE: setting(
    z.enum(['all', 'api', 'worker']).default('all'),
    '`all`: API and task worker in one process; `api`: only the API; `worker`: only the worker (split roles need `DATABASE_URL`)',
  ),
  WORKER_CONCURRENCY: setting(z.coerce.number().int().min(1).max(64).default(2), 'tasks one worker process runs at once'),
  TASK_LEASE_SECONDS: setting(
    positiveInt(30),
    "how long a worker's claim on a task holds without its heartbeat: the task of a worker that died runs again elsewhere after this",
  ),
  TASKS_WAITING_PER_USER: setting(
    z.coerce.number().int().min(1).max(1_000_000).default(8),
    "tasks of one kind one user may have waiting or running at once, free previews included (a batch's rows aside): past it a submit answers 429 with Retry-After, so no one user fills the queue",
  ),
  BATCH_CONCURRENCY_PER_USER: setting(
    z.coerce.number().int().min(1).max(64).default(2),
    "rows of one user's batches in flight at once: a batch never floods the task queue ahead of anyone's interactive task",
  ),
  WEBHOOK_CREDITS_LOW_THRESHOLD: setting(
    z.coerce.number().int().min(0).max(1_000_000).default(20),
    'the `credits.low` webhook event is sent when a charge takes available credits from at least this to below it (0: never)',
  ),
  MUSIC_WARM_UP: setting(
    flag,
    "a worker renders the music loops it has not cached at start, in the synthesiser's own process, so no first preview waits for its music (`true`/`false`; tests that start many servers turn it off)",
    'true',
  ),
  FFMPEG_PATH: setting(optional, 'the ffmpeg program', 'the npm-installed binary, else on PATH'),
  FFPROBE_PATH: setting(optional, 'the ffprobe program', 'the npm-installed binary, else on PATH'),
  EXTRA_TASKS_MODULE: setting(
    optional,
    'tests only (refused in production): a module whose `taskDefinitions` are added to the task kinds (replacing a kind of the same name)',
    'unset',
  ),
});

export function taskSettings(e: z.output<typeof TasksEnv>, { cwd }: SettingsContext) {
  return {
    /** Which parts this process runs: the API, the task worker, or both. */
    role: e.ROLE,
    workerConcurrency: e.WORKER_CONCURRENCY,
    /** How long a worker's claim on a task holds without a heartbeat (the heartbeat renews it every third of it). */
    taskLeaseMs: e.TASK_LEASE_SECONDS * 1000,
    /** Tasks of one kind one user may have waiting or running (decision "Fair share of the workers"). */
    tasksWaitingPerUser: e.TASKS_WAITING_PER_USER,
    /** Rows of one user's batches in flight at once (decision "Batch"). */
    batchConcurrencyPerUser: e.BATCH_CONCURRENCY_PER_USER,
    /** Available credits below which a charge sends `credits.low` (decision "Webhooks"); 0 turns the event off. */
    webhookCreditsLowThreshold: e.WEBHOOK_CREDITS_LOW_THRESHOLD,
    /** Whether a worker renders the uncached music loops at start (decision "SoundFont music"). */
    musicWarmUp: e.MUSIC_WARM_UP ?? true,
    /** Explicit program paths; undefined: the npm-installed binary, else one on PATH (decision "The bundled ffmpeg first"). */
    ffmpegPath: e.FFMPEG_PATH,
    ffprobePath: e.FFPROBE_PATH,
    /** Tests only (refused in production): a module adding task kinds. */
    extraTasksModule: e.EXTRA_TASKS_MODULE ? resolve(cwd, e.EXTRA_TASKS_MODULE) : undefined,
  };
}
