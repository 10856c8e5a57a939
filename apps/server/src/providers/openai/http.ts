// One request to an OpenAI-compatible API (OpenAI, Ollama, vLLM…): JSON in, the whole answer out, within the
// provider's time limit. The base URL is the operator's own setting, so it does not go through the outbound fetcher
// that guards user-given links (an Ollama on 127.0.0.1 is the normal case).
import type { ProviderSettings } from '../../settings.js';

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

/** The provider's own explanation: OpenAI's `{error: {message}}`, Ollama's `{error: "…"}`, else the start of the text. */
function vendorMessage(text: string): string {
  try {
    const { error } = JSON.parse(text) as { error?: { message?: unknown } | string };
    const message = typeof error === 'string' ? error : error?.message;
    if (typeof message === 'string') return message;
  } catch {
    // Not JSON: a proxy's HTML page or plain text, shown as it is.
  }
  return text.slice(0, 300);
}

/** POSTs `body` to `{baseUrl}{path}` and answers the 2xx body's bytes; anything else is a ProviderError. */
export async function post(api: ProviderSettings, path: string, body: object, signal?: AbortSignal): Promise<Uint8Array> {
  const url = `${api.baseUrl}${path}`;
  const timeout = AbortSignal.timeout(api.timeoutMs);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (api.apiKey) headers.authorization = `Bearer ${api.apiKey}`;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    // The body is read under the same time limit: a provider that stalls mid-answer is as slow as one that never answers.
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (!res.ok)
      throw new ProviderError(`POST ${url} answered ${res.status}: ${vendorMessage(new TextDecoder().decode(bytes))}`, res.status);
    return bytes;
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    // The task was stopped: that is the task's business, not the provider's failure.
    if (signal?.aborted) throw signal.reason;
    if (timeout.aborted)
      throw new ProviderError(`POST ${url} gave no full answer within ${api.timeoutMs / 1000} s`, undefined, { cause: error });
    throw new ProviderError(`POST ${url} failed: ${(error as Error).message}`, undefined, { cause: error });
  }
}
