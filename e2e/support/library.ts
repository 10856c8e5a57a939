// Putting pictures into a user's assets library the way the web app does, for tests that need some there.
import type { ApiClient } from './api.js';

/** Uploads a picture as the web app does: put-url, the bytes PUT to the signed URL, then registration. */
export async function uploadPicture(api: ApiClient, fileName: string, png: Buffer): Promise<{ fileId: string; resKey: string }> {
  const target = await api.ok<{ uploadUrl: string; resKey: string; headers: Record<string, string> }>('GET', '/file/user/put-url', {
    query: { format: 'png' },
  });
  const put = await fetch(new URL(target.uploadUrl, api.base), { method: 'PUT', headers: target.headers, body: new Uint8Array(png) });
  if (!put.ok) throw new Error(`PUT ${put.status}: ${await put.text()}`);
  return api.ok('POST', '/assert/uploadFileWithUrl', { body: { resKey: target.resKey, fileName } });
}
