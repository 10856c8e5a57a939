import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newQueryClient } from '../api/queryClient';
import { followTask, type TaskReading } from './followTask';
import { PollError } from './poll';

type Answer = { status: TaskReading['status']; error?: string };

/** Follows a task whose answers are `answers` in turn (the last one repeated); counts the questions. */
function follow(answers: (Answer | Error)[], options: { signal?: AbortSignal; maxAttempts?: number; cached?: Answer } = {}) {
  const queryClient = newQueryClient();
  const queryKey = ['GET', '/task/v1/test/query', { taskId: 't1' }];
  if (options.cached) queryClient.setQueryData(queryKey, options.cached);
  let asked = 0;
  const promise = followTask<Answer>({
    queryClient,
    queryKey,
    queryFn: async () => {
      const answer = answers[Math.min(asked++, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      return answer;
    },
    read: (data) => ({ status: data.status, message: data.error }),
    signal: options.signal ?? new AbortController().signal,
    maxAttempts: options.maxAttempts,
  });
  return { promise, asked: () => asked, observers: () => queryClient.getQueryCache().find({ queryKey })?.getObserversCount() };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('followTask (decision "Server data in queries")', () => {
  it('asks at once and every 2 s while the task runs, through a request error, and stops when it ends', async () => {
    const { promise, asked, observers } = follow([
      { status: 'SUBMITTED' },
      new Error('offline'),
      { status: 'IN_PROGRESS' },
      { status: 'SUCCESS' },
    ]);
    await vi.advanceTimersByTimeAsync(0);
    expect(asked()).toBe(1);
    await vi.advanceTimersByTimeAsync(6000);
    await expect(promise).resolves.toEqual({ status: 'SUCCESS' });
    expect(asked()).toBe(4);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(asked()).toBe(4);
    expect(observers()).toBe(0);
  });

  it('rejects with the server’s message when the task fails, and asks no more', async () => {
    const { promise, asked } = follow([{ status: 'IN_PROGRESS' }, { status: 'FAILURE', error: 'No voice' }]);
    const failed = expect(promise).rejects.toEqual(new PollError('failed', 'No voice'));
    await vi.advanceTimersByTimeAsync(2000);
    await failed;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(asked()).toBe(2);
  });

  it('does not judge an answer cached before it started: it asks again', async () => {
    const { promise, asked } = follow([{ status: 'IN_PROGRESS' }, { status: 'SUCCESS' }], { cached: { status: 'FAILURE', error: 'old' } });
    await vi.advanceTimersByTimeAsync(2000);
    await expect(promise).resolves.toEqual({ status: 'SUCCESS' });
    expect(asked()).toBe(2);
  });

  it('gives up when the attempts run out, and resolves with nothing once stopped', async () => {
    const timedOut = follow([{ status: 'IN_PROGRESS' }], { maxAttempts: 3 });
    const rejected = expect(timedOut.promise).rejects.toMatchObject({ reason: 'timedOut' });
    await vi.advanceTimersByTimeAsync(10_000);
    await rejected;
    expect(timedOut.asked()).toBe(3);

    const stop = new AbortController();
    const stopped = follow([{ status: 'IN_PROGRESS' }], { signal: stop.signal });
    await vi.advanceTimersByTimeAsync(2000);
    stop.abort();
    await expect(stopped.promise).resolves.toBeUndefined();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(stopped.asked()).toBe(2);
    expect(stopped.observers()).toBe(0);
  });
});
