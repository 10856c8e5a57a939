/**
 * Following a task through the query cache (decision "Server data in queries"): each task's answers live under
 * its query key, asked again every POLL_INTERVAL_MS while the task runs (`refetchInterval`), so a page reads the
 * same answers the follower acts on. Outside React, for a project's controller: the polling belongs to the open
 * project, not to a page, and goes on as the user moves between its pages.
 *
 * Its answers are read as `poll` reads them (spec "States and transitions"): asked at once, then 2 s after each
 * answer, at most POLL_MAX_ATTEMPTS times; a request error or an empty answer is asked again. The promise resolves
 * with the answer on SUCCESS, rejects with a PollError on FAILURE or when the attempts run out, and resolves with
 * undefined when `signal` aborts (the observer is removed: a request under way is cancelled, nothing more is asked).
 */
import { POLL_INTERVAL_MS, POLL_MAX_ATTEMPTS, type TaskStatus } from '@reelsmith/contract';
import { type QueryClient, type QueryFunctionContext, type QueryKey, QueryObserver } from '@tanstack/react-query';
import { i18n } from '../i18n/i18n';
import { logClient } from '../logs/clientLog';
import { PollError } from './poll';

/** What an answer says, as far as following cares: where the task stands, and the server's message should it have failed. */
export interface TaskReading {
  status: TaskStatus;
  message: string | undefined;
}

export const hasEnded = (status: TaskStatus | undefined): boolean => status === 'SUCCESS' || status === 'FAILURE';

export interface FollowOptions<D> {
  queryClient: QueryClient;
  queryKey: QueryKey;
  /** One question to the service; `signal` aborts when following stops. */
  queryFn: (context: QueryFunctionContext) => Promise<D | null | undefined>;
  read: (data: D) => TaskReading;
  /** Every answer, before it is judged. */
  onAnswer?: (data: D) => void;
  signal: AbortSignal;
  intervalMs?: number;
  maxAttempts?: number;
}

export function followTask<D>({
  queryClient,
  queryKey,
  queryFn,
  read,
  onAnswer,
  signal,
  intervalMs = POLL_INTERVAL_MS,
  maxAttempts = POLL_MAX_ATTEMPTS,
}: FollowOptions<D>): Promise<D | undefined> {
  return new Promise<D | undefined>((resolve, reject) => {
    if (signal.aborted) return resolve(undefined);
    let attempts = 0;
    const observer = new QueryObserver<D | null | undefined>(queryClient, {
      queryKey,
      queryFn,
      // A cached answer may be old (the task was followed before the page was reloaded or left): asked at once.
      staleTime: 0,
      retry: false,
      refetchInterval: (query) => {
        const data = query.state.data;
        return data && hasEnded(read(data).status) ? false : intervalMs;
      },
      // As before the queries: a task is followed while the tab is hidden, so its result is there on return.
      refetchIntervalInBackground: true,
    });
    const stop = () => {
      unsubscribe();
      signal.removeEventListener('abort', stopped);
    };
    const stopped = () => {
      stop();
      resolve(undefined);
    };
    // Answers are told apart from other changes (a request leaving) by the query's counts; one already cached when
    // following starts is old, and is not judged.
    const counts = () => observer.getCurrentQuery().state;
    let { dataUpdateCount: answers, errorUpdateCount: errors } = counts();
    const unsubscribe = observer.subscribe((result) => {
      if (signal.aborted) return;
      const { dataUpdateCount, errorUpdateCount } = counts();
      const answered = dataUpdateCount > answers;
      if (!answered && errorUpdateCount === errors) return;
      answers = dataUpdateCount;
      errors = errorUpdateCount;
      attempts++;
      const data = result.data;
      if (answered && data !== null && data !== undefined) {
        onAnswer?.(data);
        const { status, message } = read(data);
        if (status === 'SUCCESS') {
          stop();
          return resolve(data);
        }
        if (status === 'FAILURE') {
          stop();
          const error = new PollError('failed', message ?? i18n.t('polling:failed'));
          logClient({ kind: 'taskFailed', message: error.message });
          return reject(error);
        }
      }
      if (attempts >= maxAttempts) {
        stop();
        logClient({ kind: 'taskFailed', message: 'timedOut' });
        reject(new PollError('timedOut', i18n.t('polling:timedOut')));
      }
    });
    signal.addEventListener('abort', stopped, { once: true });
  });
}
