// What the remote adapters share: the pictures they send (as data URIs, so no public link to our files is needed),
// the outputs they copy into the job's work directory at once (bounded in size and time), and the wait between
// two looks at a queued generation.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sniff } from '@reelsmith/media';
import type { GenerationSettings } from '../../settings.js';
import { ProviderError, ProviderTimeoutError } from '../http.js';

/** A local picture as a data URI, the form every vendor here accepts for an image input. */
export async function dataUri(path: string): Promise<string> {
  const mime = (await sniff(path))?.mime ?? 'application/octet-stream';
  return `data:${mime};base64,${(await readFile(path)).toString('base64')}`;
}

export interface OutputLimits {
  maxBytes: number;
  timeoutMs: number;
}

/** The bytes of a data: URI; null when `url` is not one. */
function dataUriBytes(url: string): Buffer | null {
  const match = /^data:[^,]*?(;base64)?,(.*)$/s.exec(url);
  if (!match) return null;
  return match[1] ? Buffer.from(match[2] as string, 'base64') : Buffer.from(decodeURIComponent(match[2] as string));
}

/** Reads a body, refusing it as soon as it grows past `maxBytes`. */
async function boundedBody(res: Response, maxBytes: number, url: string): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new ProviderError(`output ${url} is ${declared} bytes, more than ${maxBytes}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > maxBytes) throw new ProviderError(`output ${url} is more than ${maxBytes} bytes`);
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

/**
 * Copies one output the vendor made (a link to its storage, or a data URI) into `dir` as `name`, at once: vendor
 * links expire, and every output ends in our storage. Bounded by the size limit of its kind and a time limit.
 */
export async function saveOutput(url: string, dir: string, name: string, limits: OutputLimits, signal: AbortSignal): Promise<string> {
  const path = join(dir, name);
  const inline = dataUriBytes(url);
  if (inline) {
    if (inline.length > limits.maxBytes) throw new ProviderError(`an inline output is more than ${limits.maxBytes} bytes`);
    await writeFile(path, inline);
    return path;
  }
  if (!/^https?:\/\//.test(url)) throw new ProviderError(`the provider answered an output that is not a link: ${url.slice(0, 100)}`);
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  try {
    const res = await fetch(url, { signal: AbortSignal.any([signal, timeout]) });
    if (!res.ok) throw new ProviderError(`output ${url} answered ${res.status}`, res.status);
    const bytes = await boundedBody(res, limits.maxBytes, url);
    if (bytes.length === 0) throw new ProviderError(`output ${url} is empty`);
    await writeFile(path, bytes);
    return path;
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    if (signal.aborted) throw signal.reason;
    if (timeout.aborted)
      throw new ProviderTimeoutError(`output ${url} did not download within ${limits.timeoutMs / 1000} s`, undefined, { cause: error });
    throw new ProviderError(`output ${url} failed: ${(error as Error).message}`, undefined, { cause: error });
  }
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Polls `look` every `pollMs` until it answers a value, within the generation's time limit; past it, or when the
 * task stops, `cancel` asks the vendor to stop too (so it does not keep working, and billing, for nothing).
 */
export async function waitFor<T>(
  settings: Pick<GenerationSettings, 'pollMs' | 'timeoutMs'>,
  signal: AbortSignal,
  look: () => Promise<T | undefined>,
  cancel: () => Promise<unknown>,
): Promise<T> {
  const deadline = Date.now() + settings.timeoutMs;
  try {
    for (;;) {
      const value = await look();
      if (value !== undefined) return value;
      if (Date.now() + settings.pollMs > deadline) {
        throw new ProviderTimeoutError(`the generation did not finish within ${settings.timeoutMs / 1000} s`);
      }
      await pause(settings.pollMs, signal);
    }
  } catch (error) {
    if (signal.aborted || error instanceof ProviderTimeoutError) {
      // Best effort: the task fails or stops either way, and a vendor that cannot cancel only wastes its own work.
      await cancel().catch((cancelError: unknown) => {
        (error as Error & { cancelError?: unknown }).cancelError = cancelError;
      });
    }
    throw error;
  }
}

/** The limits of an output of this kind: the largest file the service keeps of it, and the download time. */
export const limitsOf = (
  settings: { maxImageBytes: number; maxVideoBytes: number; generation: GenerationSettings },
  kind: 'image' | 'video',
): OutputLimits => ({
  maxBytes: kind === 'image' ? settings.maxImageBytes : settings.maxVideoBytes,
  timeoutMs: settings.generation.downloadTimeoutMs,
});
