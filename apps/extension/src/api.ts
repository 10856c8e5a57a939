/**
 * The extension's one call to the app, from the service worker with the user's session cookie for the app
 * origin (the host permission lets the request carry it): the captured page goes up, a resKey comes back.
 */
import { CLIENT_HEADER, CLIENT_WEB, linkVideoPageUpload, OK_CODE } from '@reelsmith/contract';
import { z } from 'zod';
import type { Settings } from './settings';

// The contract's schemas check the answer; without eval, which the extension's CSP forbids (and reports on each probe).
z.config({ jitless: true });

export type UploadOutcome = { kind: 'stored'; resKey: string } | { kind: 'signedOut' } | { kind: 'failed'; message: string };

/** The envelope code of "Please sign in first." (an account not yet activated gets its own message instead). */
const NOT_SIGNED_IN = 401;

export async function uploadPage(settings: Settings, html: string, language: string): Promise<UploadOutcome> {
  const url = `${settings.appOrigin}/${settings.apiPrefix}/api${linkVideoPageUpload.path}`;
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json', [CLIENT_HEADER]: CLIENT_WEB, 'accept-language': language },
    body: JSON.stringify({ html }),
  });
  const envelope = (await response.json().catch(() => null)) as { code?: number; message?: string; data?: unknown } | null;
  if (!envelope || typeof envelope.code !== 'number') return { kind: 'failed', message: `HTTP ${response.status}` };
  if (envelope.code === NOT_SIGNED_IN) return { kind: 'signedOut' };
  if (envelope.code !== OK_CODE) return { kind: 'failed', message: envelope.message ?? `HTTP ${response.status}` };
  const data = linkVideoPageUpload.data.safeParse(envelope.data);
  return data.success ? { kind: 'stored', resKey: data.data.resKey } : { kind: 'failed', message: 'unexpected answer' };
}
