// API keys and the public API (decisions "API keys" and "Public API"): a key's life, bearer access on every public
// call and on nothing else, keys that stop working, the per-key limit, and the OpenAPI document.
import { readFileSync } from 'node:fs';
import type { Call } from '@reelsmith/contract';
import { PUBLIC_API_BASE, PUBLIC_API_DOCUMENT_PATH, PUBLIC_CALLS, publicApiDocument } from '@reelsmith/contract/public-api';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { apiKeys, apiKeyWindows } from '../src/db/schema.js';
import { runAdminCommand } from '../src/modules/admin/commands.js';
import { linkAnalysisTask } from '../src/modules/link-video/analysis/task.js';
import { documentText, OPENAPI_FILE } from '../src/modules/public-api/document.js';
import { startWorker, type Worker } from '../src/modules/tasks/worker.js';
import { type Answer, API, appOn, Browser, testApp } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, fixtureServer } from './support/files.js';

interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createTime: string;
  expireTime: string | null;
  lastUsedTime: string | null;
  revokeTime: string | null;
}

const RATE_LIMIT = 40;

describe.each(testDatabases())('API keys and the public API on $name', (testDb) => {
  const shop = fixtureServer();
  const t = appOn(testDb, () => ({ OUTBOUND_ALLOW_HOSTS: shop.host, API_KEY_RATE_LIMIT: String(RATE_LIMIT) }));
  let worker: Worker;
  beforeAll(async () => {
    const photo = await sharp({ create: { width: 900, height: 1200, channels: 3, background: { r: 200, g: 90, b: 60 } } })
      .png()
      .toBuffer();
    shop.routes.set('/shirt.png', { type: 'image/png', body: photo });
    shop.routes.set('/shirt.html', {
      type: 'text/html; charset=utf-8',
      body: Buffer.from(
        `<!doctype html><html lang="en"><head><title>Harbor Linen Shirt</title><script type="application/ld+json">${JSON.stringify({
          '@type': 'Product',
          name: 'Harbor Linen Shirt',
          description: 'A relaxed shirt in washed linen.',
          image: [`${shop.base}/shirt.png`],
        })}</script></head><body><h1>Harbor Linen Shirt</h1></body></html>`,
      ),
    });
    worker = startWorker(t.ctx, [linkAnalysisTask], { concurrency: 1, pollMs: 25, log: { info() {}, warn() {}, error() {} } });
  });
  afterAll(() => worker.stop());

  /** A public API call as a script makes it: no cookie, no `client` header, no Origin; the key, if any. */
  const api = async (
    method: string,
    path: string,
    key: string | undefined,
    options: { query?: Record<string, string>; body?: unknown; headers?: Record<string, string> } = {},
    app = t.app,
  ): Promise<Answer> => {
    const res = await app.inject({
      method: method as 'GET' | 'POST',
      url: `${API}${PUBLIC_API_BASE}${path}`,
      query: options.query,
      headers: { ...(key && { authorization: `Bearer ${key}` }), ...options.headers },
      ...(options.body !== undefined && { payload: options.body as object }),
    });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };

  const createKey = async (browser: Browser, name = 'catalogue sync', expiresInDays?: number) =>
    (await browser.ok('POST', '/apiKey/create', { body: { name, ...(expiresInDays && { expiresInDays }) } })) as {
      key: string;
      apiKey: ApiKeyView;
    };
  const listKeys = async (browser: Browser) => ((await browser.ok('GET', '/apiKey/list')) as { list: ApiKeyView[] }).list;

  it('shows a new key once, lists it by name and prefix only, records its last use, and revokes it for good', async () => {
    const { browser, userId } = await activeMember(t, 'keys');
    const { key, apiKey } = await createKey(browser);
    expect(key).toMatch(/^rsk_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toMatchObject({ name: 'catalogue sync', prefix: key.slice(0, 12), lastUsedTime: null, revokeTime: null });

    const listed = await listKeys(browser);
    expect(listed).toEqual([apiKey]);
    expect(JSON.stringify(listed)).not.toContain(key.slice(12));
    // Only the hash is stored.
    const [row] = await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(JSON.stringify(row)).not.toContain(key.slice(12));

    const me = await api('GET', '/users/me', key);
    expect(me.body).toMatchObject({ code: 0, data: { userId, status: 'ACTIVE' } });
    expect((await listKeys(browser))[0]?.lastUsedTime).not.toBeNull();

    const revoked = (await browser.ok('POST', '/apiKey/revoke', { body: { id: apiKey.id } })) as ApiKeyView;
    expect(revoked.revokeTime).not.toBeNull();
    const refused = await api('GET', '/users/me', key);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('The API key is missing, unknown, revoked or expired.');
    // Revoking again keeps the first time; another user cannot revoke (or see) the key.
    expect(((await browser.ok('POST', '/apiKey/revoke', { body: { id: apiKey.id } })) as ApiKeyView).revokeTime).toBe(revoked.revokeTime);
    const other = await activeMember(t, 'other');
    expect((await other.browser.call('POST', '/apiKey/revoke', { body: { id: apiKey.id } })).body.code).toBe(404);
    expect(await listKeys(other.browser)).toEqual([]);
  });

  it('refuses an expired key, and the keys of a blocked user until the block is lifted', async () => {
    const { browser } = await activeMember(t, 'expiry');
    const email = ((await browser.ok('GET', '/users/me')) as { email: string }).email;
    const { key, apiKey } = await createKey(browser, 'thirty days', 30);
    expect(Date.parse(apiKey.expireTime as string) - Date.parse(apiKey.createTime)).toBe(30 * 86_400_000);
    expect((await api('GET', '/points/account', key)).body.code).toBe(0);

    await runAdminCommand(t.ctx, { command: 'users status', email, status: 'INACTIVE' });
    expect((await api('GET', '/points/account', key)).status).toBe(401);
    await runAdminCommand(t.ctx, { command: 'users status', email, status: 'ACTIVE' });
    expect((await api('GET', '/points/account', key)).body.code).toBe(0);

    await t.ctx.db.update(apiKeys).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(apiKeys.id, apiKey.id));
    expect((await api('GET', '/points/account', key)).status).toBe(401);
  });

  it('a user who has not activated cannot make keys', async () => {
    const browser = new Browser(t.app);
    await browser.devLogin('inactive-keys@example.com');
    expect((await browser.call('POST', '/apiKey/create', { body: { name: 'x' } })).body.code).toBe(403);
  });

  it('holds at most 20 usable keys per user; a revoked one makes room', async () => {
    const { browser } = await activeMember(t, 'many');
    const made = await Promise.all(Array.from({ length: 20 }, (_, i) => createKey(browser, `key ${i}`)));
    const over = await browser.call('POST', '/apiKey/create', { body: { name: 'one more' } });
    expect(over.body).toMatchObject({
      code: 40050,
      message: 'You can have at most 20 active API keys. Revoke one you no longer use first.',
    });
    await browser.ok('POST', '/apiKey/revoke', { body: { id: made[0]?.apiKey.id } });
    expect((await createKey(browser, 'one more')).key).toMatch(/^rsk_/);
  });

  it('guards every public call with the key alone: none without it, none with the session cookie, all with it', async () => {
    const { browser } = await activeMember(t, 'every');
    const { key } = await createKey(browser);
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const reached: string[] = [];
    for (const call of PUBLIC_CALLS as Call[]) {
      const label = `${call.method} ${call.path}`;
      const without = await api(call.method, call.path, undefined, { body: call.method === 'POST' ? {} : undefined });
      expect([label, without.status, without.body.code]).toEqual([label, 401, 401]);
      // A browser's cookie does not stand in for a key, even with the web app's own headers.
      const withCookie = await api(call.method, call.path, undefined, {
        headers: { cookie, client: 'WEB', origin: 'http://127.0.0.1:3000' },
        body: call.method === 'POST' ? {} : undefined,
      });
      expect([label, withCookie.status]).toEqual([label, 401]);
      // With the key the call runs: an empty input may be invalid (400) or name nothing (404), never unauthorised.
      const withKey = await api(call.method, call.path, key, { body: call.method === 'POST' ? {} : undefined });
      expect([label, withKey.status]).not.toEqual([label, 401]);
      expect([label, withKey.status]).not.toEqual([label, 403]);
      if (withKey.status < 500) reached.push(label);
    }
    expect(reached).toHaveLength(PUBLIC_CALLS.length);
  });

  it('serves only the public calls under the public base: key management and activation stay with the web app', async () => {
    const { browser } = await activeMember(t, 'surface');
    const { key } = await createKey(browser);
    for (const [method, path] of [
      ['POST', '/apiKey/create'],
      ['GET', '/apiKey/list'],
      ['POST', '/users/activate'],
      ['POST', '/brand-kit/save'],
    ] as const) {
      expect((await api(method, path, key, { body: {} })).status).toBe(404);
    }
    // And the web app's paths still want the web app's headers: a key is no way around them.
    const direct = await t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: { authorization: `Bearer ${key}` } });
    expect(direct.json()).toMatchObject({ code: 40006 });
  });

  it('limits calls per key per minute, and tells how many are left', async () => {
    const { browser } = await activeMember(t, 'limit');
    const first = await createKey(browser, 'first');
    const second = await createKey(browser, 'second');
    const statuses: number[] = [];
    let last: Answer | undefined;
    for (let i = 0; i < RATE_LIMIT + 1; i++) {
      last = await api('GET', '/points/account', first.key);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, RATE_LIMIT).every((s) => s === 200)).toBe(true);
    expect(last?.status).toBe(429);
    expect(last?.headers['retry-after']).toEqual(expect.any(String));
    expect(last?.headers['x-ratelimit-remaining']).toBe('0');
    // The other key of the same user has its own allowance.
    const other = await api('GET', '/points/account', second.key);
    expect(other.status).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe(String(RATE_LIMIT - 1));
  });

  it('counts a key’s calls over every API process on the database, and keeps one row per key', async () => {
    const { browser } = await activeMember(t, 'processes');
    const { key, apiKey } = await createKey(browser, 'behind a balancer');
    // A second API process: its own app and, on PostgreSQL, its own connections to the same database.
    const database = t.database.url ? await openDatabase({ databaseUrl: t.database.url }) : t.database;
    const second = await testApp(database.db, { API_KEY_RATE_LIMIT: String(RATE_LIMIT) });
    try {
      const answers: Answer[] = [];
      for (let i = 0; i < RATE_LIMIT + 2; i++) answers.push(await api('GET', '/points/account', key, {}, i % 2 ? second.app : t.app));
      expect(answers.map((a) => a.status)).toEqual([...Array(RATE_LIMIT).fill(200), 429, 429]);
      // One count: what is left goes down by one at each call, whichever process answers it.
      expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(
        [...Array.from({ length: RATE_LIMIT }, (_, i) => RATE_LIMIT - 1 - i), 0, 0].map(String),
      );
      for (const refused of answers.slice(RATE_LIMIT)) {
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      }
      const rows = await t.ctx.db.select().from(apiKeyWindows).where(eq(apiKeyWindows.keyId, apiKey.id));
      expect(rows).toHaveLength(1);
      // When the window has passed, the next call opens a new one in the same row, from 1.
      await t.ctx.db
        .update(apiKeyWindows)
        .set({ windowStart: sql`now() - interval '61 seconds'` })
        .where(eq(apiKeyWindows.keyId, apiKey.id));
      const again = await api('GET', '/points/account', key, {}, second.app);
      expect(again.status).toBe(200);
      expect(again.headers['x-ratelimit-remaining']).toBe(String(RATE_LIMIT - 1));
      expect(await t.ctx.db.select().from(apiKeyWindows).where(eq(apiKeyWindows.keyId, apiKey.id))).toMatchObject([{ used: 1 }]);
    } finally {
      await second.app.close();
      if (database !== t.database) await database.close();
    }
  });

  it('runs a catalogue flow with a key alone: a project from a link, its analysis, its pictures, the balance', async () => {
    const { browser } = await activeMember(t, 'flow');
    const { key } = await createKey(browser);
    const created = await api('POST', '/project/createProject', key, { body: {} });
    const { projectId } = created.body.data as { projectId: string };
    const productLink = `${shop.base}/shirt.html`;
    const submitted = await api('POST', '/task/v1/link-analysis/submit', key, {
      body: { projectId, productLink },
      headers: { 'idempotency-key': 'row-1' },
    });
    expect(submitted.body.code).toBe(0);
    const { taskId } = submitted.body.data as { taskId: string };
    // The same Idempotency-Key submits once.
    const again = await api('POST', '/task/v1/link-analysis/submit', key, {
      body: { projectId, productLink },
      headers: { 'idempotency-key': 'row-1' },
    });
    expect((again.body.data as { taskId: string }).taskId).toBe(taskId);

    let state: { status: string; productName?: string; productImages?: { fileId: string }[] } = { status: 'SUBMITTED' };
    for (const until = Date.now() + 30_000; Date.now() < until && !['SUCCESS', 'FAILURE'].includes(state.status); ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = (await api('GET', '/task/v1/link-analysis/query', key, { query: { taskId } })).body.data as typeof state;
    }
    expect(state).toMatchObject({ status: 'SUCCESS', productName: 'Harbor Linen Shirt' });
    const fileIds = state.productImages?.map((image) => image.fileId) ?? [];
    expect(fileIds).toHaveLength(1);
    const urls = (await api('POST', '/assert/urls', key, { body: { fileIds } })).body.data as Record<string, string>;
    const picture = await t.app.inject({ method: 'GET', url: urls[fileIds[0] as string] as string });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toMatch(/^image\//);
    const project = await api('GET', '/project/getProjectById', key, { query: { projectId } });
    expect(project.body.data).toMatchObject({ projectName: 'Harbor Linen Shirt' });
    expect((await api('GET', '/points/account', key)).body.data).toMatchObject({ availablePoints: expect.any(Number) });
  });

  it('serves its OpenAPI 3.1 document to anyone, with this server as its server and every public call in it', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API}${PUBLIC_API_DOCUMENT_PATH}` });
    expect(res.statusCode).toBe(200);
    const document = res.json() as { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers[0]?.url).toBe(`http://127.0.0.1:3000${API}${PUBLIC_API_BASE}`);
    for (const call of PUBLIC_CALLS) expect(document.paths[call.path]?.[call.method.toLowerCase()]).toBeDefined();
  });
});

describe('the OpenAPI document', () => {
  const document = publicApiDocument('http://api.example') as {
    paths: Record<
      string,
      Record<
        string,
        {
          operationId: string;
          requestBody?: { content: { 'application/json': { example?: unknown } } };
          responses: { '200': { content: { 'application/json': { example?: { data: unknown } } } } };
        }
      >
    >;
  };

  it('is checked in as docs/openapi.json, up to date with the contract (`npm run openapi:docs` writes it)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(documentText());
  });

  it('gives every operation its own id, and examples the calls themselves accept and answer', () => {
    const ids = new Set<string>();
    let examples = 0;
    for (const call of PUBLIC_CALLS) {
      const operation = document.paths[call.path]?.[call.method.toLowerCase()];
      if (!operation) throw new Error(`${call.path} is missing`);
      expect(ids.has(operation.operationId)).toBe(false);
      ids.add(operation.operationId);
      const request = operation.requestBody?.content['application/json'].example;
      if (request !== undefined) {
        expect(call.body?.safeParse(request).success, `${call.path} request example`).toBe(true);
        examples++;
      }
      const answer = operation.responses['200'].content['application/json'].example;
      if (answer !== undefined) {
        expect(call.data.safeParse(answer.data).success, `${call.path} answer example`).toBe(true);
        examples++;
      }
    }
    expect(examples).toBeGreaterThanOrEqual(10);
  });
});
