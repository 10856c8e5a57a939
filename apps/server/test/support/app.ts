import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createContext, TASK_DEFINITIONS } from '../../src/composition.js';
import type { AppContext } from '../../src/context.js';
import type { Db } from '../../src/db/client.js';
import type { AnyTaskDefinition } from '../../src/modules/tasks/definition.js';
import { loadSettings } from '../../src/settings.js';
import type { TestDatabase, TestDb } from './databases.js';

export const PUBLIC_URL = 'http://127.0.0.1:3000';
export const ADMIN_TOKEN = 'test-admin-token';
/** Where the API of a test app lives (API_PREFIX left at its default). */
export const API = '/reelsmith/api';

/** The server as `main` builds it, on a given database, with a fresh data dir (gone when the app closes) and no web build unless told. */
export async function testApp(
  db: Db,
  env: Record<string, string> = {},
  tasks: readonly AnyTaskDefinition[] = TASK_DEFINITIONS,
): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-test-'));
  const settings = loadSettings({
    DATA_DIR: dataDir,
    PUBLIC_URL,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    ...env,
  });
  const ctx = createContext({ settings, db, adminToken: ADMIN_TOKEN, tasks });
  const app = await buildApp(ctx);
  app.addHook('onClose', async () => rmSync(dataDir, { recursive: true, force: true }));
  await app.ready();
  return { app, ctx };
}

/**
 * A test app on a fresh database for the tests of the calling describe block. The fields are filled in
 * before its tests run; `env` is read then too, so it may use what earlier hooks set up.
 */
export function appOn(
  testDb: TestDatabase,
  env: () => Record<string, string> = () => ({}),
  tasks: readonly AnyTaskDefinition[] = TASK_DEFINITIONS,
) {
  const t = {} as { database: TestDb; app: FastifyInstance; ctx: AppContext };
  beforeAll(async () => {
    t.database = await testDb.open();
    Object.assign(t, await testApp(t.database.db, env(), tasks));
  });
  afterAll(async () => {
    await t.app.close();
    await t.database.close();
  });
  return t;
}

export interface Answer {
  status: number;
  /** The parsed envelope. */
  body: { code: number; message: string; data: unknown };
  headers: Record<string, unknown>;
}

/**
 * A browser of the web app: sends `client: WEB`, our Origin and its cookies, and keeps the cookies it is
 * given. `headers` overrides or (with undefined) removes any of them.
 */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly locale = 'en',
  ) {}

  async call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    options: {
      query?: Record<string, string>;
      body?: unknown;
      headers?: Record<string, string | undefined>;
      /** The address the request comes from (127.0.0.1 by default). */
      remoteAddress?: string;
    } = {},
  ): Promise<Answer> {
    const headers: Record<string, string | undefined> = {
      client: 'WEB',
      origin: PUBLIC_URL,
      'accept-language': this.locale,
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') || undefined,
      ...options.headers,
    };
    const request: InjectOptions = {
      method,
      url: `${API}${path}`,
      query: options.query,
      headers: Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>,
      ...(options.body !== undefined && { payload: options.body as string | object }),
      ...(options.remoteAddress && { remoteAddress: options.remoteAddress }),
    };
    const res = await this.app.inject(request);
    for (const c of res.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      const cleared = c.maxAge === 0 || (c.expires && c.expires.getTime() <= Date.now());
      if (cleared) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  }

  /** Calls and answers `data`, failing the test on an error envelope. */
  async ok(method: 'GET' | 'POST', path: string, options: Parameters<Browser['call']>[2] = {}): Promise<unknown> {
    const { body } = await this.call(method, path, options);
    if (body.code !== 0) throw new Error(`${method} ${path} answered ${body.code}: ${body.message}`);
    return body.data;
  }

  async devLogin(email: string, username?: string) {
    return this.ok('POST', '/auth/dev-login', { body: { email, ...(username && { username }) } }) as Promise<{
      userId: string;
      status: string;
    }>;
  }
}
