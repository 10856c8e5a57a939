/** Helpers of the files and assets tests: members, uploads through the real put-url flow, what is on disk, a fixture web server. */
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { AppContext } from '../../src/context.js';
import { filesDirOf } from '../../src/modules/files/storage/index.js';
import { tmpDirOf } from '../../src/modules/files/workDir.js';
import { createInviteCodes } from '../../src/modules/invites/service.js';
import { type Answer, Browser } from './app.js';

type TestApp = { app: FastifyInstance; ctx: AppContext };

let members = 0;
/** A signed-in, activated user, as the web app would have it. */
export async function activeMember(t: TestApp, name = 'member'): Promise<{ browser: Browser; userId: string }> {
  const browser = new Browser(t.app);
  const { userId } = await browser.devLogin(`${name}-${members++}@example.com`);
  const [code] = await createInviteCodes(t.ctx.db, { count: 1, maxUses: 1 });
  await browser.ok('POST', '/users/activate', { query: { inviteCode: code as string } });
  return { browser, userId };
}

export interface PutTarget {
  uploadUrl: string;
  resKey: string;
  method: 'PUT';
  headers: Record<string, string>;
}

/** A put-url; with `size`, the file's declared size (required with S3, optional with the local driver). */
export const putUrl = async (browser: Browser, format: string, size?: number) =>
  (await browser.ok('GET', '/file/user/put-url', { query: { format, ...(size !== undefined && { size: String(size) }) } })) as PutTarget;

/** PUTs bytes to a local upload URL as a browser would: no cookie, no client header. */
export const putTo = (t: TestApp, target: PutTarget, bytes: Buffer) =>
  t.app.inject({ method: 'PUT', url: target.uploadUrl, headers: target.headers, payload: bytes });

/** The whole upload of the web app: put-url, PUT, register. Answers the register call's envelope. */
export async function upload(t: TestApp, browser: Browser, bytes: Buffer, format: string, fileName = `file.${format}`): Promise<Answer> {
  const target = await putUrl(browser, format);
  const put = await putTo(t, target, bytes);
  if (put.statusCode !== 200) throw new Error(`PUT answered ${put.statusCode}: ${put.body}`);
  return browser.call('POST', '/assert/uploadFileWithUrl', { body: { resKey: target.resKey, fileName } });
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** The keys of the local store that belong to a user. */
export const objectsOf = (ctx: AppContext, userId: string) => walk(join(filesDirOf(ctx.settings.dataDir), 'u', userId));

/** Files left in the work directories of ingest: there must never be any once a call has answered. */
export const workFiles = (ctx: AppContext) => walk(tmpDirOf(ctx.settings.dataDir));

/**
 * A web server on 127.0.0.1 serving fixed bodies by path, or redirecting (404 otherwise), for URL imports. Listed
 * in OUTBOUND_ALLOW_HOSTS.
 */
export function fixtureServer() {
  const routes = new Map<string, { type: string; body: Buffer; heldUntil?: Promise<unknown>; status?: number } | { redirect: string }>();
  /** Requests received, by path: an import is known to be running once its request has arrived. */
  const arrivals = new Map<string, number>();
  const fixture = { routes, arrivals, host: '', base: '' };
  let server: Server;
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const found = routes.get(req.url ?? '');
      arrivals.set(req.url ?? '', (arrivals.get(req.url ?? '') ?? 0) + 1);
      if (!found) return res.writeHead(404).end('not here');
      if ('redirect' in found) return res.writeHead(302, { location: found.redirect }).end();
      // A body held back answers when the test lets it: an import that is under way for as long as it needs.
      await found.heldUntil;
      res.writeHead(found.status ?? 200, { 'content-type': found.type, 'content-length': found.body.length }).end(found.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fixture.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    fixture.base = `http://${fixture.host}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return fixture;
}
