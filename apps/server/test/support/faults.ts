// What the fault tests share: waiting for a condition, members signed up over real HTTP, uploads through the put-url
// flow, a task's row and ledger rows read from the database, and the files a local store holds.
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { sleep, waitFor } from '../../../../test-support/wait.js';
import { type Db, openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { files, pointsLedger, tasks } from '../../src/db/schema.js';
import { createInviteCodes } from '../../src/modules/invites/service.js';
import { auditLedger } from '../../src/modules/points/audit.js';
import { readAccount } from '../../src/modules/points/queries.js';
import { type TestDb, testDatabases } from './databases.js';
import { HttpClient } from './httpClient.js';
import { startPrivatePostgres } from './privatePostgres.js';

/**
 * A fresh, migrated PostgreSQL database for a fault test's server processes: beside the shared server's when
 * TEST_DATABASE_URL is set, else in a private cluster of its own (so these tests always run). `close` drops it.
 */
export async function faultDatabase(): Promise<TestDb> {
  const shared = testDatabases().find((d) => d.name === 'postgres');
  if (shared) return shared.open();
  const cluster = await startPrivatePostgres();
  const database: TestDb = Object.assign(await openDatabase({ databaseUrl: cluster.url }), { url: cluster.url });
  await migrate(database);
  const close = database.close;
  database.close = async () => {
    await close();
    await cluster.destroy();
  };
  return database;
}

/** The environment of a server process here: one database, one data directory, JSON logs, no web build. */
export const serverEnv = (databaseUrl: string, dataDir: string, extra: Record<string, string> = {}): Record<string, string> => ({
  DATABASE_URL: databaseUrl,
  DATA_DIR: dataDir,
  SESSION_SECRET: 's'.repeat(32),
  WEB_DIST_DIR: join(dataDir, 'no-web-build'),
  LOG_LEVEL: 'info',
  ...extra,
});

/** What a fault test measured, printed as one block (afterAll) so the run's output shows the figures. */
export const printFigures = (title: string, figures: Record<string, string | number>) =>
  console.log(
    `faults: ${title}\n${Object.entries(figures)
      .map(([name, value]) => `  ${name}: ${value}`)
      .join('\n')}`,
  );

export { sleep, waitFor };

/** A signed-in, activated member of the web app on an API process (dev sign-in, an invitation code made in the database). */
export async function signUp(db: Db, base: string, email: string): Promise<{ client: HttpClient; userId: string }> {
  const client = new HttpClient(base);
  const { userId } = await client.ok<{ userId: string }>('POST', '/auth/dev-login', { body: { email } });
  const [code] = await createInviteCodes(db, { count: 1, maxUses: 1 });
  await client.ok('POST', '/users/activate', { query: { inviteCode: code as string } });
  return { client, userId };
}

export interface PutAnswer {
  status: number;
  body: { code: number; message: string; data: unknown };
}

/** The browser's upload: a put-url, then the PUT of the bytes to it. Answers the key and the PUT's answer. */
export async function putFile(client: HttpClient, bytes: Buffer, format: string): Promise<{ resKey: string; put: PutAnswer }> {
  const target = await client.ok<{ uploadUrl: string; resKey: string; headers: Record<string, string> }>('GET', '/file/user/put-url', {
    query: { format },
  });
  const res = await fetch(`${client.base}${target.uploadUrl}`, { method: 'PUT', headers: target.headers, body: bytes });
  return { resKey: target.resKey, put: { status: res.status, body: (await res.json()) as PutAnswer['body'] } };
}

/** The whole upload: put-url, PUT, register. Answers the new file's id. */
export async function uploadFile(client: HttpClient, bytes: Buffer, format: string, fileName: string): Promise<string> {
  const { resKey, put } = await putFile(client, bytes, format);
  if (put.body.code !== 0) throw new Error(`PUT answered ${put.status}: ${put.body.message}`);
  const { fileId } = await client.ok<{ fileId: string }>('POST', '/assert/uploadFileWithUrl', { body: { resKey, fileName } });
  return fileId;
}

export const taskRow = async (db: Db, taskId: string) => (await db.select().from(tasks).where(eq(tasks.id, taskId)))[0];

/** Waits until the task has ended (SUCCESS or FAILURE) and answers its row. */
export const taskEnded = (db: Db, taskId: string, timeoutMs = 60_000) =>
  waitFor(
    async () => {
      const row = await taskRow(db, taskId);
      return (row?.status === 'SUCCESS' || row?.status === 'FAILURE') && row;
    },
    `task ${taskId} to end`,
    timeoutMs,
  );

/** The task's ledger rows as changes: [-price] when charged, then +price when refunded. */
export const ledgerOf = async (db: Db, taskId: string) =>
  (await db.select().from(pointsLedger).where(eq(pointsLedger.taskId, taskId)).orderBy(pointsLedger.createdAt)).map((r) => ({
    change: r.pointsChange,
    type: r.operationType,
  }));

export const availableOf = async (db: Db, userId: string) => (await readAccount(db, userId)).availablePoints;

/** The ledger adds up for every account: balances equal the sum of their rows, and no task is refunded twice. */
export async function expectLedgerConsistent(db: Db) {
  expect(await auditLedger(db)).toEqual([]);
}

/** Every file under a directory, as paths relative to it. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/**
 * The local store under `filesDir` holds exactly the objects of the user's asset rows (each file and its thumbnail)
 * and nothing half-written. Answers the keys it holds.
 */
export async function expectStoreMatchesAssets(db: Db, filesDir: string, userId: string): Promise<string[]> {
  const held = filesUnder(filesDir).filter((path) => path.startsWith(`u/${userId}/`));
  expect(held.filter((path) => path.endsWith('.part'))).toEqual([]);
  const rows = await db.select().from(files).where(eq(files.userId, userId));
  const expected = rows.flatMap((r) => [r.resKey, r.thumbKey].filter((k): k is string => Boolean(k)));
  expect(held.sort()).toEqual(expected.sort());
  return held;
}
