import type { ClientLogEntry } from '@reelsmith/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logClient, startClientLogs } from './clientLog';

let sent: ClientLogEntry[][];
let stop: () => void;

beforeEach(() => {
  vi.useFakeTimers();
  sent = [];
  window.history.replaceState(null, '', '/tools/link-to-video?inputLink=https%3A%2F%2Fshop.example%2Fp%3Fcoupon%3DSECRET');
});
afterEach(() => {
  stop();
  vi.useRealTimers();
});

describe('client logs', () => {
  it('sends entries in one batch a few seconds later, with the page path but not its query', async () => {
    stop = startClientLogs(async (entries) => sent.push(entries));
    logClient({ kind: 'callFailed', message: 'envelope', call: '/task/v1/link-video/submit', code: 40060 });
    logClient({ kind: 'taskFailed', message: 'Generation failed' });
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(3000);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual([
      {
        kind: 'callFailed',
        message: 'envelope',
        call: '/task/v1/link-video/submit',
        code: 40060,
        route: '/tools/link-to-video',
        at: expect.any(String),
      },
      { kind: 'taskFailed', message: 'Generation failed', route: '/tools/link-to-video', at: expect.any(String) },
    ]);
  });

  it('reports script errors and unhandled rejections of the page', async () => {
    stop = startClientLogs(async (entries) => sent.push(entries));
    window.dispatchEvent(new ErrorEvent('error', { message: 'x is not a function' }));
    const rejection = new Event('unhandledrejection') as PromiseRejectionEvent;
    Object.defineProperty(rejection, 'reason', { value: new Error('quota exceeded') });
    window.dispatchEvent(rejection);
    await vi.advanceTimersByTimeAsync(3000);
    expect(sent.flat().map(({ kind, message }) => [kind, message])).toEqual([
      ['error', 'x is not a function'],
      ['unhandledRejection', 'quota exceeded'],
    ]);
  });

  it('sends at most 30 a minute in batches of 20, and ignores a failure to send', async () => {
    const attempts: number[] = [];
    stop = startClientLogs(async (entries) => {
      attempts.push(entries.length);
      throw new Error('offline');
    });
    for (let i = 0; i < 50; i++) logClient({ kind: 'error', message: `boom ${i}` });
    await vi.advanceTimersByTimeAsync(3000);
    expect(attempts).toEqual([20, 10]);
    await vi.advanceTimersByTimeAsync(60_000);
    logClient({ kind: 'error', message: 'a minute later' });
    await vi.advanceTimersByTimeAsync(3000);
    expect(attempts).toEqual([20, 10, 1]);
  });

  it('sends what is queued when the page is left, and nothing of the calls the leaving cuts short', async () => {
    stop = startClientLogs(async (entries) => sent.push(entries));
    logClient({ kind: 'error', message: 'before leaving' });
    window.dispatchEvent(new Event('pagehide'));
    expect(sent.flat().map((entry) => entry.message)).toEqual(['before leaving']);
    logClient({ kind: 'callFailed', message: 'network', call: '/points/account' });
    await vi.advanceTimersByTimeAsync(3000);
    expect(sent).toHaveLength(1);
  });

  it('cuts long messages to what the endpoint takes', async () => {
    stop = startClientLogs(async (entries) => sent.push(entries));
    logClient({ kind: 'error', message: 'x'.repeat(2000) });
    await vi.advanceTimersByTimeAsync(3000);
    expect(sent[0]?.[0]?.message).toHaveLength(500);
  });
});
