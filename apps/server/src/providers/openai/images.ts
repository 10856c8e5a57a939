// OpenAI's images API as text → image (`POST /images/generations`) and image → image (`POST /images/edits`,
// multipart). gpt-image models answer `b64_json`; DALL·E models are asked for it. Sizes are the model's own,
// the one closest in shape to the asked picture.
import { readFile } from 'node:fs/promises';
import { sniff } from '@reelsmith/media';
import type { Settings, VendorAccess } from '../../settings.js';
import { type Endpoint, sendJson } from '../http.js';
import type { ImageRequest } from '../provider.js';
import { nearestRatio, remoteProviders, type VendorShapes } from '../remote/adapters.js';

const SIZES: Record<string, Record<string, string>> = {
  'dall-e-2': { '1:1': '1024x1024' },
  'dall-e-3': { '1:1': '1024x1024', '4:7': '1024x1792', '7:4': '1792x1024' },
  default: { '1:1': '1024x1024', '2:3': '1024x1536', '3:2': '1536x1024' },
};
const sizesOf = (model: string) => SIZES[model] ?? (SIZES.default as Record<string, string>);

/** What our shapes hand the runner: the request itself, since the model (and so its sizes) is known only there. */
interface OpenAiInput {
  request: ImageRequest;
  count: number;
}

const shapes: VendorShapes = {
  image: async (request, count) => ({ request, count }) satisfies OpenAiInput,
  video: () => Promise.reject(new Error('OpenAI images make no videos')),
  tryOn: () => Promise.reject(new Error('OpenAI images do no try-on')),
  removeBackground: () => Promise.reject(new Error('OpenAI images do no cut-out')),
  upscale: () => Promise.reject(new Error('OpenAI images do no upscaling')),
};

export function openAiImagesProviders(settings: Settings, access: VendorAccess) {
  const endpoint: Endpoint = {
    baseUrl: access.baseUrl,
    headers: { authorization: `Bearer ${access.key}` },
    timeoutMs: settings.generation.timeoutMs,
  };
  return remoteProviders(
    settings,
    {
      vendor: 'openai',
      async run(model, input, job) {
        const { request, count } = input as OpenAiInput;
        const sizes = sizesOf(model);
        const size = sizes[nearestRatio(request.width, request.height, Object.keys(sizes))] as string;
        // DALL·E 3 makes one picture a request; the adapter asks again for the rest.
        const n = model === 'dall-e-3' ? 1 : count;
        const dalle = model.startsWith('dall-e');
        const prompt = request.negativePrompt ? `${request.prompt}\nAvoid: ${request.negativePrompt}` : request.prompt;
        await job.progress('animating');
        if (!request.image) {
          return sendJson(endpoint, '/images/generations', {
            json: {
              model,
              prompt,
              n,
              size,
              ...(dalle && { response_format: 'b64_json' }),
              ...(!dalle && request.quality === 'high' && { quality: 'high' }),
            },
            signal: job.signal,
          });
        }
        const form = new FormData();
        form.set('model', model);
        form.set('prompt', prompt);
        form.set('n', String(n));
        form.set('size', size);
        if (dalle) form.set('response_format', 'b64_json');
        const mime = (await sniff(request.image))?.mime ?? 'image/png';
        form.set('image', new Blob([await readFile(request.image)], { type: mime }), `image.${mime.split('/')[1]}`);
        return sendJson(endpoint, '/images/edits', { form, signal: job.signal });
      },
    },
    shapes,
  );
}
