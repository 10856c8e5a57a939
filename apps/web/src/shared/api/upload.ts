import { CLIENT_HEADER, CLIENT_WEB, filePutUrl, OK_CODE } from '@reelsmith/contract';
import { i18n } from '../i18n/i18n';
import { toast } from '../ui/toast';
import { ApiError, api } from './client';

export interface UploadOptions {
  /** Called as bytes leave the browser, with 0–100. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

/**
 * The format the put-url call asks for: the file name's extension, else the MIME subtype (a pasted image
 * has no useful name). The service checks the content itself; this only names the stored file.
 */
export function formatOf(file: Pick<File, 'name' | 'type'>): string {
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1];
  return (extension ?? file.type.split('/')[1] ?? '').toLowerCase();
}

/**
 * Uploads one file from the computer to storage and answers its resKey: the put-url call, then the bytes
 * PUT straight to the upload URL with XHR, the one browser API that reports upload progress. Failures are
 * ApiErrors, toasted like every API failure (cancellation is silent).
 */
export async function uploadFile(file: File, { onProgress, signal }: UploadOptions = {}): Promise<string> {
  // The size reserves the file's room in the storage quota, and a bucket's upload URL takes no other length.
  const target = await api(filePutUrl, { query: { format: formatOf(file), size: file.size }, signal });
  try {
    await put(target.uploadUrl, { ...target.headers, ...ownHeaders(target.uploadUrl) }, file, onProgress, signal);
  } catch (error) {
    if (error instanceof ApiError && error.kind !== 'cancelled') toast.error(error.message);
    throw error;
  }
  return target.resKey;
}

/** The service's own upload endpoint wants the headers of every API call; a storage service's presigned URL does not. */
function ownHeaders(uploadUrl: string): Record<string, string> {
  const sameOrigin = new URL(uploadUrl, window.location.href).origin === window.location.origin;
  return sameOrigin ? { [CLIENT_HEADER]: CLIENT_WEB, 'Accept-Language': i18n.language } : {};
}

function put(
  url: string,
  headers: Record<string, string>,
  file: File,
  onProgress: UploadOptions['onProgress'],
  signal: AbortSignal | undefined,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ApiError('cancelled', ''));
    const xhr = new XMLHttpRequest();
    const cancel = () => xhr.abort();
    signal?.addEventListener('abort', cancel, { once: true });
    const settle = (error?: ApiError) => {
      signal?.removeEventListener('abort', cancel);
      if (error) reject(error);
      else resolve();
    };
    xhr.open('PUT', url);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => settle(refusal(xhr.status, xhr.responseText));
    xhr.onerror = () => settle(new ApiError('network', i18n.t('shared:messages.unknownError')));
    xhr.onabort = () => settle(new ApiError('cancelled', ''));
    xhr.send(file);
  });
}

/**
 * Why the upload URL refused the file, or undefined if it took it: the service answers its envelope (its
 * message says what is wrong with the file); a storage service answers a bare status.
 */
function refusal(status: number, text: string): ApiError | undefined {
  let envelope: { code?: unknown; message?: unknown } = {};
  try {
    envelope = JSON.parse(text) ?? {};
  } catch {
    // Not JSON: an empty 200 from storage, or an XML error document.
  }
  const code = typeof envelope.code === 'number' ? envelope.code : undefined;
  if (status >= 200 && status < 300 && (code === undefined || code === OK_CODE)) return undefined;
  const message = typeof envelope.message === 'string' && envelope.message ? envelope.message : i18n.t('shared:messages.unknownError');
  return new ApiError(code === undefined ? 'http' : 'envelope', message, code ?? status);
}
