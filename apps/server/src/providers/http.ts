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
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The provider gave no full answer within its time limit. */
export class ProviderTimeoutError extends ProviderError {
  override name = 'ProviderTimeoutError';
}

/**
 * The vendor's own explanation: OpenAI's `{error: {message}}`, Ollama's `{error: "…"}`, fal's and Replicate's
 * `{detail: "…"}` (or fal's validation list `{detail: [{msg}]}`), else the start of the text.
 */
export function vendorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; detail?: unknown };
    const message = typeof body.error === 'string' ? body.error : body.error?.message;
    if (typeof message === 'string') return message;
    if (typeof body.detail === 'string') return body.detail;
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
}

export interface ProviderRequest {
  method?: 'GET' | 'POST' | 'PUT';
  /** JSON to send; or a multipart form. */
  json?: object;
  form?: FormData;
  signal?: AbortSignal | undefined;
}

export interface ProviderAnswer {
  status: number;
  bytes: Uint8Array;
}

const urlOf = (endpoint: Endpoint, target: string) => (/^https?:\/\//.test(target) ? target : `${endpoint.baseUrl}${target}`);

/** Sends one request and answers the 2xx body's bytes; anything else is a ProviderError naming the status. */
export async function send(endpoint: Endpoint, target: string, request: ProviderRequest = {}): Promise<ProviderAnswer> {
  const url = urlOf(endpoint, target);
  const method = request.method ?? (request.json || request.form ? 'POST' : 'GET');
  const { signal } = request;
  const timeout = AbortSignal.timeout(endpoint.timeoutMs);
  const headers: Record<string, string> = { ...endpoint.headers };
  if (request.json) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(url, {
      method,
      headers,
      ...(request.json ? { body: JSON.stringify(request.json) } : request.form ? { body: request.form } : {}),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    // The body is read under the same time limit: a provider that stalls mid-answer is as slow as one that never answers.
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (!res.ok)
      throw new ProviderError(`${method} ${url} answered ${res.status}: ${vendorMessage(new TextDecoder().decode(bytes))}`, res.status);
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
