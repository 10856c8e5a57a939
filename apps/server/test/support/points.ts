import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { users } from '../../src/db/schema.js';
import { auditLedger } from '../../src/modules/points/audit.js';
import { readAccount } from '../../src/modules/points/queries.js';
import type { TestDatabase, TestDb } from './databases.js';

/** A fresh, migrated database for the tests of the calling describe block, without an app. */
export function databaseOn(testDb: TestDatabase) {
  const t = {} as { database: TestDb; db: Db };
  beforeAll(async () => {
    t.database = await testDb.open();
    t.db = t.database.db;
  });
  afterAll(() => t.database.close());
  return t;
}

/** A user row made directly, with a unique e-mail; answers its id. */
export async function newUser(db: Db, status: 'ACTIVE' | 'INACTIVE' = 'ACTIVE'): Promise<string> {
  const id = randomUUID();
  await db.insert(users).values({ id, email: `${id}@example.com`, username: `user-${id.slice(0, 8)}`, status });
  return id;
}

/** Fails the test with the list of broken ledger invariants, if any. */
export async function expectConsistent(db: Db) {
  expect(await auditLedger(db)).toEqual([]);
}

export const availableOf = async (db: Db, userId: string) => (await readAccount(db, userId)).availablePoints;

export const DAY_MS = 86_400_000;
export const days = (from: Date, n: number) => new Date(from.getTime() + n * DAY_MS);
