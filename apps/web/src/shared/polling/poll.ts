/**
 * The one polling helper (spec "States and transitions", design "Layout and style"): every screen that waits for a task polls through it.
 *
 * It asks at once, then 2 s after each answer (POLL_INTERVAL_MS), at most 10000 times (POLL_MAX_ATTEMPTS).
 * A request error or an empty answer is simply asked again. The promise
 * - resolves with the answer on SUCCESS, after `onSuccess`;
 * - rejects with a PollError on FAILURE, after `onFailure`: the server's message, or "Failed";
 * - rejects with a PollError "Timed out" when the attempts run out;
 * - resolves with undefined when the caller aborts `signal` (the user stopped it; nothing is shown).
 *
 * Task screens use `pollTask` and keep the project's task status from `onStatus`; the asset URL import
 * uses `pollAssetUrlTask`, which leaves the project's task status alone (spec "States and transitions"). The query is injected,
 * usually the API client with the poll's signal and `silent: true`, so a failing request is retried
 * rather than toasted every 2 s:
 *
 *     pollTask({ query: (signal) => api(taskQuery('link-analysis'), { query: { taskId }, signal, silent: true }), onStatus, signal })
 */
import {
  ASSET_URL_TASK_FAILURE,
  ASSET_URL_TASK_SUCCESS,
  type assetUrlTaskQuery,
  type CallData,
  POLL_INTERVAL_MS,
  POLL_MAX_ATTEMPTS,
  type TaskStatus,
} from '@reelsmith/contract';
import { i18n } from '../i18n/i18n';
import { logClient } from '../logs/clientLog';

/** The abort reason the query's signal carries when the user stops polling. */
export const POLL_STOPPED_BY_USER = 'Polling stopped by user';

export type PollErrorReason = 'failed' | 'timedOut';

/** Why polling ended without a result; the message is ready to show (the server's own, or translated). */
export class PollError extends Error {
  constructor(
    readonly reason: PollErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'PollError';
  }
}

export interface PollOptions<D> {
  /** One poll; `signal` aborts when polling stops. An error or an empty answer is asked again. */
  query: (signal: AbortSignal) => Promise<D | null | undefined>;
  onSuccess?: (data: D) => void;
  onFailure?: (error: PollError, data: D) => void;
  /** Aborting it stops polling: the promise resolves with undefined. */
  signal?: AbortSignal;
  intervalMs?: number;
  maxAttempts?: number;
}

/** What a task query answers, as far as polling cares (design "Contract details"). */
export interface TaskAnswer {
  status: TaskStatus;
  /** On FAILURE, JSON text `{"message": …}`. */
  error?: string;
}

export interface TaskPollOptions<D extends TaskAnswer> extends PollOptions<D> {
  /** Called with the status of every answer, to keep the project's task status current. */
  onStatus?: (status: TaskStatus) => void;
}

export type AssetUrlTaskAnswer = CallData<typeof assetUrlTaskQuery>;

export function pollTask<D extends TaskAnswer>({ onStatus, ...options }: TaskPollOptions<D>): Promise<D | undefined> {
  return poll(options, (data) => {
    onStatus?.(data.status);
    return { status: data.status, message: messageOf(data.error) };
  });
}

export function pollAssetUrlTask(options: PollOptions<AssetUrlTaskAnswer>): Promise<AssetUrlTaskAnswer | undefined> {
  return poll(options, (data) => ({ status: assetUrlTaskStatus(data.status), message: data.errorMsg || undefined }));
}

/** The asset URL task's numeric status as a task status (spec "States and transitions"): -1 failure, 4 success, else submitted. */
export function assetUrlTaskStatus(status: number): TaskStatus {
  if (status === ASSET_URL_TASK_FAILURE) return 'FAILURE';
  if (status === ASSET_URL_TASK_SUCCESS) return 'SUCCESS';
  return 'SUBMITTED';
}

/** An answer as polling sees it: where the task stands, and the server's message should it have failed. */
interface Reading {
  status: TaskStatus;
  message: string | undefined;
}

async function poll<D>(
  { query, onSuccess, onFailure, signal, intervalMs = POLL_INTERVAL_MS, maxAttempts = POLL_MAX_ATTEMPTS }: PollOptions<D>,
  read: (data: D) => Reading,
): Promise<D | undefined> {
  const stop = new AbortController();
  const stopByUser = () => stop.abort(POLL_STOPPED_BY_USER);
  if (signal?.aborted) stopByUser();
  signal?.addEventListener('abort', stopByUser, { once: true });
  try {
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (attempt > 1) await pause(intervalMs, stop.signal);
      if (stop.signal.aborted) return undefined;
      const data = await query(stop.signal).catch(() => undefined);
      if (stop.signal.aborted) return undefined;
      if (data === null || data === undefined) continue;
      const { status, message } = read(data);
      if (status === 'SUCCESS') {
        onSuccess?.(data);
        return data;
      }
      if (status === 'FAILURE') {
        const error = new PollError('failed', message ?? i18n.t('polling:failed'));
        logClient({ kind: 'taskFailed', message: error.message });
        onFailure?.(error, data);
        throw error;
      }
    }
    logClient({ kind: 'taskFailed', message: 'timedOut' });
    throw new PollError('timedOut', i18n.t('polling:timedOut'));
  } finally {
    signal?.removeEventListener('abort', stopByUser);
  }
}

/** The `message` of a task's JSON error text, if it has a usable one. */
export function messageOf(error: string | undefined): string | undefined {
  if (!error) return undefined;
  try {
    const parsed: unknown = JSON.parse(error);
    const message = typeof parsed === 'object' && parsed !== null ? (parsed as { message?: unknown }).message : undefined;
    return typeof message === 'string' && message ? message : undefined;
  } catch {
    return undefined;
  }
}

/** Waits `ms`, or less if polling stops meanwhile. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
