// fal.ai's queue API: submit `POST {base}/{model}`, then `GET …/requests/{id}/status` until COMPLETED, then
// `GET …/requests/{id}` for the output; `PUT …/requests/{id}/cancel` to stop. Status, result and cancel live under
// the model's owner and app only (without the endpoint path); the submit answer names them, and is trusted only
// on the base URL's own origin, so the key is never sent elsewhere.
import { z } from 'zod';
import type { GenerationSettings, VendorAccess } from '../../settings.js';
import { type Endpoint, ProviderError, send, sendJson } from '../http.js';
import type { GenerationJob } from '../provider.js';
import { waitFor } from '../remote/job.js';

const Submitted = z.object({
  request_id: z.string().min(1),
  status_url: z.string().optional(),
  response_url: z.string().optional(),
  cancel_url: z.string().optional(),
});
const Status = z.object({ status: z.string(), error: z.string().nullish() });

export interface FalQueue {
  /** Runs `model` with `input` and answers its output JSON. */
  run(model: string, input: object, job: GenerationJob): Promise<unknown>;
}

export function falQueue(access: VendorAccess, settings: GenerationSettings): FalQueue {
  const endpoint: Endpoint = {
    baseUrl: access.baseUrl,
    headers: { authorization: `Key ${access.key}` },
    timeoutMs: settings.requestTimeoutMs,
  };
  const origin = new URL(access.baseUrl).origin;
  const sameOrigin = (url: string | undefined) => {
    try {
      return url !== undefined && new URL(url).origin === origin ? url : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    async run(model, input, job) {
      const { signal } = job;
      let submitted: z.infer<typeof Submitted>;
      try {
        submitted = Submitted.parse(await sendJson(endpoint, `/${model}`, { json: input, signal }));
      } catch (error) {
        if (error instanceof z.ZodError)
          throw new ProviderError(`fal ${model} answered a submission without a request id`, undefined, { cause: error });
        throw error;
      }
      const app = model.split('/').slice(0, 2).join('/');
      const requestPath = `/${app}/requests/${encodeURIComponent(submitted.request_id)}`;
      const statusUrl = sameOrigin(submitted.status_url) ?? `${requestPath}/status`;
      const responseUrl = sameOrigin(submitted.response_url) ?? requestPath;
      const cancelUrl = sameOrigin(submitted.cancel_url) ?? `${requestPath}/cancel`;
      await waitFor(
        settings,
        signal,
        async () => {
          const parsed = Status.safeParse(await sendJson(endpoint, statusUrl, { signal }));
          if (!parsed.success) throw new ProviderError(`fal ${model} answered a status without one`, undefined, { cause: parsed.error });
          const { status, error } = parsed.data;
          if (error) throw new ProviderError(`fal ${model} failed: ${error}`);
          if (status === 'IN_QUEUE') await job.progress('initialFrames');
          else if (status === 'IN_PROGRESS') await job.progress('animating');
          else if (status === 'COMPLETED') return true;
          else throw new ProviderError(`fal ${model} ended ${status}`);
          return undefined;
        },
        () => send(endpoint, cancelUrl, { method: 'PUT' }),
      );
      return sendJson(endpoint, responseUrl, { signal });
    },
  };
}
