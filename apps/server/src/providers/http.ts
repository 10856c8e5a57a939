// One request to a provider's HTTP API (OpenAI-compatible servers, fal.ai, Replicate): the whole answer read within
// the provider's time limit. Provider URLs are the operator's own settings, so they do not go through the outbound
// fetcher that guards user-given links (an Ollama on 127.0.0.1 is a normal case).

/** A provider did not do the job: unreachable, too slow, an error status, or an answer we cannot use. For logs. */
export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    message: string,
    /** The HTTP status the provider answered, when it answered at all. */
    readonly status?: number,
    options?: ErrorOptions & { retryAfter?: number | undefined },
  ) {
    super(message, options);
    this.retryAfter = options?.retryAfter;
  }
  /** Seconds the provider asked to wait before trying again (a 429's or 503's Retry-After), when it said. */
  readonly retryAfter: number | undefined;
}

/** The provider gave no full answer within its time limit. */
export class ProviderTimeoutError extends ProviderError {
  override name = 'ProviderTimeoutError';
}

/**
 * The vendor's own explanation: OpenAI's and Azure's `{error: {message}}`, Ollama's `{error: "…"}`, fal's and
 * Replicate's `{detail: "…"}` (or fal's validation list `{detail: [{msg}]}`), ElevenLabs' `{detail: {status,
 * message}}`, else the start of the text.
 */
export function vendorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; detail?: unknown };
    const message = typeof body.error === 'string' ? body.error : body.error?.message;
    if (typeof message === 'string') return message;
    if (typeof body.detail === 'string') return body.detail;
    const detail = body.detail as { status?: unknown; message?: unknown } | undefined;
    if (typeof detail?.message === 'string')
      return typeof detail.status === 'string' ? `${detail.status}: ${detail.message}` : detail.message;
    if (Array.isArray(body.detail)) return body.detail.map((d) => (d as { msg?: unknown }).msg ?? JSON.stringify(d)).join('; ');
  } catch {
    // Not JSON: a proxy's HTML page or plain text, shown as it is.
  }
  return text.slice(0, 300);
}

export interface Endpoint {
  /** Without a trailing slash; a path is appended to it, an absolute URL is used as it is. */
  baseUrl: string;
  /** Authorization and the like, sent with every request. */
  headers: Record<string, string>;
  timeoutMs: number;
  /**
   * How many times an answer of 429 (rate limited) or 503 (busy) is tried again: after the wait its Retry-After
   * asks for, else after RETRY_BACKOFF; a wait over MAX_RETRY_WAIT fails at once. None unless given.
   */
  retries?: number | undefined;
}

/** The wait before trying again when the provider names none: doubled each time. */
export const RETRY_BACKOFF = 0.5;
/** The longest wait for a provider's Retry-After: beyond it, the task fails now rather than hold its worker. */
export const MAX_RETRY_WAIT = 20;

/** Retry-After's seconds or HTTP date, as seconds from now. */
export function retryAfterSeconds(header: string | null): number | undefined {
  if (!header) return undefined;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Number(header);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000);
}

const wait = (seconds: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, seconds * 1000);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

export interface ProviderRequest {
  method?: 'GET' | 'POST' | 'PUT';
  /** JSON to send; or a multipart form; or text of a type (Azure's SSML). */
  json?: object;
  form?: FormData;
  text?: { type: string; body: string };
  signal?: AbortSignal | undefined;
}

export interface ProviderAnswer {
  status: number;
  bytes: Uint8Array;
}

const urlOf = (endpoint: Endpoint, target: string) => (/^https?:\/\//.test(target) ? target : `${endpoint.baseUrl}${target}`);

/**
 * Sends one request and answers the 2xx body's bytes; anything else is a ProviderError naming the status. A 429 or
 * 503 is tried again as the endpoint's `retries` allow.
 */
export async function send(endpoint: Endpoint, target: string, request: ProviderRequest = {}): Promise<ProviderAnswer> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await sendOnce(endpoint, target, request);
    } catch (error) {
      const busy = error instanceof ProviderError && (error.status === 429 || error.status === 503);
      if (!busy || attempt >= (endpoint.retries ?? 0)) throw error;
      const seconds = error.retryAfter ?? RETRY_BACKOFF * 2 ** attempt;
      if (seconds > MAX_RETRY_WAIT) throw error;
      if (request.signal?.aborted) throw request.signal.reason;
      await wait(seconds, request.signal);
    }
  }
}

async function sendOnce(endpoint: Endpoint, target: string, request: ProviderRequest): Promise<ProviderAnswer> {
  const url = urlOf(endpoint, target);
  const method = request.method ?? (request.json || request.form || request.text ? 'POST' : 'GET');
  const { signal } = request;
  const timeout = AbortSignal.timeout(endpoint.timeoutMs);
  const headers: Record<string, string> = { ...endpoint.headers };
  if (request.json) headers['content-type'] = 'application/json';
  if (request.text) headers['content-type'] = request.text.type;
  try {
    const res = await fetch(url, {
      method,
      headers,
      ...(request.json
        ? { body: JSON.stringify(request.json) }
        : request.form
          ? { body: request.form }
          : request.text
            ? { body: request.text.body }
            : {}),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    // The body is read under the same time limit: a provider that stalls mid-answer is as slow as one that never answers.
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (!res.ok) {
      const retryAfter = retryAfterSeconds(res.headers.get('retry-after'));
      const said = vendorMessage(new TextDecoder().decode(bytes)) || res.statusText;
      throw new ProviderError(
        `${method} ${url} answered ${res.status}: ${said}${retryAfter === undefined ? '' : ` (Retry-After ${retryAfter} s)`}`,
        res.status,
        { retryAfter },
      );
    }
    return { status: res.status, bytes };
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    // The task was stopped: that is the task's business, not the provider's failure.
    if (signal?.aborted) throw signal.reason;
    if (timeout.aborted)
      throw new ProviderTimeoutError(`${method} ${url} gave no full answer within ${endpoint.timeoutMs / 1000} s`, undefined, {
        cause: error,
      });
    throw new ProviderError(`${method} ${url} failed: ${(error as Error).message}`, undefined, { cause: error });
  }
}

/** Sends one request and parses the answer as JSON; an answer that is not JSON is a ProviderError. */
export async function sendJson(endpoint: Endpoint, target: string, request: ProviderRequest = {}): Promise<unknown> {
  const { bytes } = await send(endpoint, target, request);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new ProviderError(`${urlOf(endpoint, target)} answered something that is not JSON`, undefined, { cause: error });
  }
}
