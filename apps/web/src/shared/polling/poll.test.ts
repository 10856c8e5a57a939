import { POLL_INTERVAL_MS, POLL_MAX_ATTEMPTS, type TaskStatus } from '@reelsmith/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/i18n';
import {
  type AssetUrlTaskAnswer,
  assetUrlTaskStatus,
  POLL_STOPPED_BY_USER,
  PollError,
  pollAssetUrlTask,
  pollTask,
  type TaskAnswer,
} from './poll';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const task = (status: TaskStatus, error?: string): TaskAnswer & { taskId: string } => ({ taskId: 't1', status, error });
const assetUrl = (status: number, errorMsg: string | null = null): AssetUrlTaskAnswer => ({
  status,
  fileKey: status === 4 ? 'files/a.jpg' : null,
  fileUrl: status === 4 ? 'https://cdn.example/a.jpg' : null,
  errorMsg,
});

/** A query that gives the answers in turn, repeating the last; an Error is a failed request. */
function answers<D>(...list: (D | Error | null | undefined)[]) {
  return vi.fn(async (_signal: AbortSignal): Promise<D | null | undefined> => {
    const next = list.length > 1 ? list.shift() : list[0];
    if (next instanceof Error) throw next;
    return next;
  });
}

/** Lets a bounded poll run to its end under fake timers and says how it ended. */
async function settle<T>(polling: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  const outcome = polling.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await vi.runAllTimersAsync();
  return outcome;
}

describe('pollTask', () => {
  it('uses the constants of spec "Business constants"', () => {
    expect(POLL_INTERVAL_MS).toBe(2000);
    expect(POLL_MAX_ATTEMPTS).toBe(10_000);
  });

  it('asks at once, then every 2 s, and resolves with the answer on SUCCESS after the success callback', async () => {
    const done = task('SUCCESS');
    const query = answers(task('SUBMITTED'), task('IN_PROGRESS'), done);
    const onSuccess = vi.fn();
    const polling = pollTask({ query, onSuccess });
    await vi.advanceTimersByTimeAsync(0);
    expect(query).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS - 1);
    expect(query).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(query).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(query).toHaveBeenCalledTimes(3);
    await expect(polling).resolves.toBe(done);
    expect(onSuccess).toHaveBeenCalledWith(done);
  });

  it('waits and asks again after a request error and after an empty answer', async () => {
    const query = answers(new Error('offline'), undefined, null, task('SUCCESS'));
    const { value } = await settle(pollTask({ query }));
    expect(value).toEqual(task('SUCCESS'));
    expect(query).toHaveBeenCalledTimes(4);
    expect(Date.now()).toBe(3 * POLL_INTERVAL_MS);
  });

  it('on FAILURE runs the failure callback and rejects with the message of the JSON error', async () => {
    const failed = task('FAILURE', '{"message":"Page has no product"}');
    const onSuccess = vi.fn();
    const onFailure = vi.fn();
    const { error } = await settle(pollTask({ query: answers(task('IN_PROGRESS'), failed), onSuccess, onFailure }));
    expect(error).toBeInstanceOf(PollError);
    expect(error).toMatchObject({ reason: 'failed', message: 'Page has no product' });
    expect(onFailure).toHaveBeenCalledWith(error, failed);
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it.each([
    ['no error', undefined],
    ['an empty error', ''],
    ['an error that is not JSON', 'Page has no product'],
    ['JSON without a message', '{"code":500}'],
    ['an empty message', '{"message":""}'],
    ['JSON that is not an object', 'null'],
  ])('on FAILURE with %s rejects with "Failed"', async (_, json) => {
    const { error } = await settle(pollTask({ query: answers(task('FAILURE', json)) }));
    expect(error).toMatchObject({ reason: 'failed', message: 'Failed' });
  });

  it('runs out of attempts with "Timed out"', async () => {
    const query = answers(task('IN_PROGRESS'));
    const { error } = await settle(pollTask({ query, maxAttempts: 3 }));
    expect(error).toBeInstanceOf(PollError);
    expect(error).toMatchObject({ reason: 'timedOut', message: 'Timed out' });
    expect(query).toHaveBeenCalledTimes(3);
    expect(Date.now()).toBe(2 * POLL_INTERVAL_MS);
  });

  it('says "Failed" and "Timed out" in the chosen language', async () => {
    await i18n.changeLanguage('pt');
    try {
      expect((await settle(pollTask({ query: answers(task('FAILURE')) }))).error).toMatchObject({ message: 'Falhou' });
      expect((await settle(pollTask({ query: answers(task('SUBMITTED')), maxAttempts: 1 }))).error).toMatchObject({
        message: 'Tempo esgotado',
      });
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('reports the status of every answer', async () => {
    const onStatus = vi.fn();
    await settle(
      pollTask({ query: answers(task('SUBMITTED'), new Error('offline'), undefined, task('IN_PROGRESS'), task('SUCCESS')), onStatus }),
    );
    expect(onStatus.mock.calls).toEqual([['SUBMITTED'], ['IN_PROGRESS'], ['SUCCESS']]);
  });

  it('stops when the user stops it: resolves with nothing and asks no more', async () => {
    const stop = new AbortController();
    const query = answers(task('IN_PROGRESS'));
    const polling = pollTask({ query, signal: stop.signal });
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS + 500);
    expect(query).toHaveBeenCalledTimes(2);
    stop.abort();
    await expect(polling).resolves.toBeUndefined();
    await vi.advanceTimersByTimeAsync(10 * POLL_INTERVAL_MS);
    expect(query).toHaveBeenCalledTimes(2);
  });

  it('cancels the request in flight when stopped, with the reason "Polling stopped by user"', async () => {
    const stop = new AbortController();
    let seen: AbortSignal | undefined;
    const onSuccess = vi.fn();
    const polling = pollTask({
      // Like the API client: a cancelled request rejects.
      query: (signal) => {
        seen = signal;
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled'))));
      },
      onSuccess,
      signal: stop.signal,
    });
    await vi.advanceTimersByTimeAsync(0);
    stop.abort();
    await expect(polling).resolves.toBeUndefined();
    expect(seen?.reason).toBe(POLL_STOPPED_BY_USER);
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it('does not ask at all when stopped before it starts', async () => {
    const query = answers(task('SUCCESS'));
    await expect(pollTask({ query, signal: AbortSignal.abort() })).resolves.toBeUndefined();
    expect(query).not.toHaveBeenCalled();
  });
});

describe('pollAssetUrlTask', () => {
  it('reads -1 as failure, 4 as success and any other status as submitted', () => {
    expect(assetUrlTaskStatus(-1)).toBe('FAILURE');
    expect(assetUrlTaskStatus(4)).toBe('SUCCESS');
    for (const other of [0, 1, 2, 3, 5]) expect(assetUrlTaskStatus(other)).toBe('SUBMITTED');
  });

  it('keeps asking while the status is neither, and resolves with the stored file on 4', async () => {
    const query = answers(assetUrl(0), assetUrl(1), new Error('offline'), assetUrl(3), assetUrl(4));
    const onSuccess = vi.fn();
    const { value } = await settle(pollAssetUrlTask({ query, onSuccess }));
    expect(value).toEqual(assetUrl(4));
    expect(onSuccess).toHaveBeenCalledWith(assetUrl(4));
    expect(query).toHaveBeenCalledTimes(5);
  });

  it('rejects on -1 with the error message, or "Failed" without one', async () => {
    const onFailure = vi.fn();
    const { error } = await settle(pollAssetUrlTask({ query: answers(assetUrl(-1, 'The file is not an image')), onFailure }));
    expect(error).toMatchObject({ reason: 'failed', message: 'The file is not an image' });
    expect(onFailure).toHaveBeenCalledWith(error, assetUrl(-1, 'The file is not an image'));
    for (const errorMsg of [null, '']) {
      expect((await settle(pollAssetUrlTask({ query: answers(assetUrl(-1, errorMsg)) }))).error).toMatchObject({ message: 'Failed' });
    }
  });

  it('leaves the project task status alone', async () => {
    const onStatus = vi.fn();
    // @ts-expect-error: asset URL polls take no onStatus (spec "States and transitions"), and one slipped in is not called either.
    await settle(pollAssetUrlTask({ query: answers(assetUrl(1), assetUrl(4)), onStatus }));
    expect(onStatus).not.toHaveBeenCalled();
  });
});
