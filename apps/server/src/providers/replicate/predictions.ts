// Replicate's predictions API: `POST /v1/models/{owner}/{name}/predictions {input}` for a model's latest version
// (or `POST /v1/predictions {version, input}` for `owner/name:version`), then `GET /v1/predictions/{id}` until
// it succeeded, failed or was canceled; `POST /v1/predictions/{id}/cancel` to stop.
import { z } from 'zod';
import type { GenerationSettings, VendorAccess } from '../../settings.js';
import { type Endpoint, ProviderError, send, sendJson } from '../http.js';
import type { GenerationJob } from '../provider.js';
import { waitFor } from '../remote/job.js';

const Prediction = z.object({
  id: z.string().min(1),
  status: z.enum(['starting', 'processing', 'succeeded', 'failed', 'canceled', 'aborted']),
  output: z.unknown().optional(),
  error: z.unknown().optional(),
});
type Prediction = z.infer<typeof Prediction>;

function parsePrediction(answer: unknown, model: string): Prediction {
  const parsed = Prediction.safeParse(answer);
  if (!parsed.success)
    throw new ProviderError(`replicate ${model} answered something that is not a prediction`, undefined, { cause: parsed.error });
  return parsed.data;
}

export function replicateRun(access: VendorAccess, settings: GenerationSettings) {
  const endpoint: Endpoint = {
    baseUrl: access.baseUrl,
    headers: { authorization: `Bearer ${access.key}` },
    timeoutMs: settings.requestTimeoutMs,
  };
  return async (model: string, input: object, job: GenerationJob): Promise<unknown> => {
    const { signal } = job;
    const [name, version] = model.split(':') as [string, string | undefined];
    const created = parsePrediction(
      version
        ? await sendJson(endpoint, '/v1/predictions', { json: { version, input }, signal })
        : await sendJson(endpoint, `/v1/models/${name}/predictions`, { json: { input }, signal }),
      model,
    );
    const path = `/v1/predictions/${encodeURIComponent(created.id)}`;
    let current = created;
    const done = await waitFor(
      settings,
      signal,
      async () => {
        if (current.status === 'starting') await job.progress('initialFrames');
        else if (current.status === 'processing') await job.progress('animating');
        else return current;
        current = parsePrediction(await sendJson(endpoint, path, { signal }), model);
        return ['succeeded', 'failed', 'canceled', 'aborted'].includes(current.status) ? current : undefined;
      },
      () => send(endpoint, `${path}/cancel`, { method: 'POST' }),
    );
    if (done.status !== 'succeeded') {
      const why = typeof done.error === 'string' ? done.error : JSON.stringify(done.error ?? null);
      throw new ProviderError(`replicate ${model} ${done.status}: ${why}`);
    }
    return { output: done.output };
  };
}
