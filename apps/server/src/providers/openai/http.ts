// One request to an OpenAI-compatible API (OpenAI, Ollama, vLLM…): JSON in, the whole answer out, within the
// provider's time limit (providers/http.ts does the work).
import type { ProviderSettings } from '../../settings.js';
import { type Endpoint, send } from '../http.js';

export { ProviderError } from '../http.js';

/** The endpoint of an OpenAI-compatible API: a bearer key when there is one (Ollama and vLLM need none). */
export const bearerEndpoint = (api: Pick<ProviderSettings, 'baseUrl' | 'apiKey' | 'timeoutMs'>): Endpoint => ({
  baseUrl: api.baseUrl,
  headers: api.apiKey ? { authorization: `Bearer ${api.apiKey}` } : {},
  timeoutMs: api.timeoutMs,
});

/** POSTs `body` to `{baseUrl}{path}` and answers the 2xx body's bytes; anything else is a ProviderError. */
export async function post(api: ProviderSettings, path: string, body: object, signal?: AbortSignal): Promise<Uint8Array> {
  return (await send(bearerEndpoint(api), path, { json: body, signal })).bytes;
}
