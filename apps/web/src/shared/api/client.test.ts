import { projectRename, REQUEST_TIMEOUT_MS, usersActivate, usersMe } from '@reelsmith/contract';
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { toast } from '../ui/toast';
import { ApiError, api } from './client';

// A spy rather than a module mock: the web tests share modules between files (isolate: false), and the client
// may already hold the real toast module.

const USER = { userId: 'u1', username: 'ada', email: 'ada@example.com', avatarUrl: null, status: 'ACTIVE' };
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** What a toast answers, a closer that is also a promise of its closing: here one already closed. */
const closed = Promise.resolve(true);
const closedToast: ReturnType<typeof toast.error> = Object.assign(() => undefined, {
  // biome-ignore lint/suspicious/noThenProperty: antd's toast answer is a thenable on purpose.
  then: closed.then.bind(closed),
});

let fetchMock: Mock<typeof fetch>;
beforeEach(() => {
  vi.spyOn(toast, 'error').mockImplementation(() => closedToast);
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Resolves to the failure of a call that is expected to fail. */
const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => {
      throw new Error('the call succeeded');
    },
    (error: unknown) => error as ApiError,
  );

/** A fetch that never answers until its signal aborts, like a stalled network. */
const stalledFetch: typeof fetch = (_, init) =>
  new Promise((_resolve, reject) => {
    const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
    if (init?.signal?.aborted) abort();
    init?.signal?.addEventListener('abort', abort);
  });

describe('api', () => {
  it('unwraps the data of a success envelope', async () => {
    fetchMock.mockResolvedValue(json({ code: 0, message: 'ok', data: USER }));
    await expect(api(usersMe)).resolves.toEqual(USER);
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('sends credentials, client: WEB and the language, under /{prefix}/api', async () => {
    fetchMock.mockResolvedValue(json({ code: 0, message: 'ok', data: USER }));
    await api(usersMe);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/reelsmith/api/users/me');
    expect(init).toMatchObject({ method: 'GET', credentials: 'include', body: undefined });
    expect(init?.headers).toMatchObject({ client: 'WEB', 'Accept-Language': 'en' });
  });

  it('uses the prefix the server wrote into the page', async () => {
    const meta = document.createElement('meta');
    meta.name = 'api-prefix';
    meta.content = 'acme';
    document.head.append(meta);
    fetchMock.mockResolvedValue(json({ code: 0, message: 'ok', data: USER }));
    try {
      await api(usersMe);
      expect(fetchMock.mock.calls[0]?.[0]).toBe('/acme/api/users/me');
    } finally {
      meta.remove();
    }
  });

  it('puts the query in the address and sends no body when the call has none', async () => {
    fetchMock.mockResolvedValue(json({ code: 0, message: 'ok', data: true }));
    await expect(api(usersActivate, { query: { inviteCode: 'WELCOME-1' } })).resolves.toBe(true);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/reelsmith/api/users/activate?inviteCode=WELCOME-1');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBeUndefined();
  });

  it('sends the body as JSON, as the contract schema parses it', async () => {
    fetchMock.mockResolvedValue(json({ code: 0, message: 'ok', data: true }));
    await api(projectRename, { body: { projectId: 'p1', fileName: '  Summer sale ' } });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(JSON.parse(String(init?.body))).toEqual({ projectId: 'p1', fileName: 'Summer sale' });
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json' });
  });

  it('refuses input the contract rejects, without a request', async () => {
    const error = await failureOf(api(projectRename, { body: { projectId: 'p1', fileName: '   ' } }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.kind).toBe('invalid');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the server message of a non-zero envelope and rejects', async () => {
    fetchMock.mockResolvedValue(json({ code: 40003, message: 'Invalid invitation code', data: null }));
    const error = await failureOf(api(usersActivate, { query: { inviteCode: 'nope' } }));
    expect(error).toMatchObject({ kind: 'envelope', code: 40003, message: 'Invalid invitation code' });
    expect(toast.error).toHaveBeenCalledWith('Invalid invitation code');
  });

  it('shows the message of an HTTP error with a JSON body', async () => {
    fetchMock.mockResolvedValue(json({ code: 401, message: 'Please sign in first.', data: null }, 401));
    const error = await failureOf(api(usersMe));
    expect(error).toMatchObject({ kind: 'envelope', code: 401, message: 'Please sign in first.' });
    expect(toast.error).toHaveBeenCalledWith('Please sign in first.');
  });

  it('reads the message of an HTTP error body that is not an envelope', async () => {
    fetchMock.mockResolvedValue(json({ statusCode: 413, message: 'Request body is too large' }, 413));
    const error = await failureOf(api(usersMe));
    expect(error).toMatchObject({ kind: 'http', code: 413, message: 'Request body is too large' });
    expect(toast.error).toHaveBeenCalledWith('Request body is too large');
  });

  it('falls back to the unknown-error message when the answer is not JSON', async () => {
    fetchMock.mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = await failureOf(api(usersMe));
    expect(error).toMatchObject({ kind: 'http', code: 502, message: 'An unknown error occurred, please try again later' });
    expect(toast.error).toHaveBeenCalledWith('An unknown error occurred, please try again later');
  });

  it('reports a network failure as an unknown error', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await failureOf(api(usersMe));
    expect(error).toMatchObject({ kind: 'network', message: 'An unknown error occurred, please try again later' });
    expect(toast.error).toHaveBeenCalledWith('An unknown error occurred, please try again later');
  });

  it('gives up after the request timeout', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(stalledFetch);
    const failure = failureOf(api(usersMe));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(toast.error).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(await failure).toMatchObject({
      kind: 'timeout',
      message: 'Request timeout, please check your network or try again later',
    });
    expect(toast.error).toHaveBeenCalledWith('Request timeout, please check your network or try again later');
  });

  it('rejects a cancelled call without showing anything', async () => {
    fetchMock.mockImplementation(stalledFetch);
    const controller = new AbortController();
    const failure = failureOf(api(usersMe, { signal: controller.signal }));
    controller.abort();
    expect(await failure).toMatchObject({ kind: 'cancelled' });
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('treats a signal aborted before the call as a cancel', async () => {
    fetchMock.mockImplementation(stalledFetch);
    const error = await failureOf(api(usersMe, { signal: AbortSignal.abort() }));
    expect(error.kind).toBe('cancelled');
  });

  it('shows nothing for a silent call, but still rejects', async () => {
    fetchMock.mockResolvedValue(json({ code: 401, message: 'Please sign in first.', data: null }, 401));
    await expect(api(usersMe, { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(toast.error).not.toHaveBeenCalled();
  });
});
