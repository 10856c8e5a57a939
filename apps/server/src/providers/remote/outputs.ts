// The output links in a vendor's answer, whatever the model: fal's `images: [{url}]`, `image: {url}` and
// `video: {url}`, Replicate's `output` (a link or a list of links), OpenAI's `data: [{b64_json | url}]`.
import { ProviderError } from '../http.js';

const urlOf = (item: unknown): string | undefined => {
  if (typeof item === 'string') return item;
  if (item && typeof item === 'object') {
    const { url, b64_json: b64 } = item as { url?: unknown; b64_json?: unknown };
    if (typeof b64 === 'string' && b64) return `data:application/octet-stream;base64,${b64}`;
    if (typeof url === 'string') return url;
  }
  return undefined;
};

/** The output links of an answer, in order; an answer with none is a ProviderError (the vendor made nothing). */
export function outputUrls(answer: unknown, what: string): string[] {
  const body = (answer ?? {}) as Record<string, unknown>;
  const candidates: unknown[] = [];
  for (const field of ['images', 'data', 'output']) {
    const value = body[field];
    if (Array.isArray(value)) candidates.push(...value);
    else if (value !== undefined && value !== null) candidates.push(value);
  }
  for (const field of ['image', 'video']) if (body[field]) candidates.push(body[field]);
  const urls = candidates.map(urlOf).filter((u): u is string => typeof u === 'string' && u.length > 0);
  if (urls.length === 0) throw new ProviderError(`${what} answered no output`);
  return urls;
}
