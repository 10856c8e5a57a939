import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';

/** A test's database; `url` is set for PostgreSQL, for child processes that connect on their own. */
export type TestDb = Database & { url?: string };

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  /** A fresh, migrated database of its own; `close` also throws it away. */
  open(): Promise<TestDb>;
  /** The same, before any migration (tests of a migration). */
  openEmpty(): Promise<TestDb>;
}

/** A PostgreSQL database created for one test file and dropped after it, beside the one TEST_DATABASE_URL names. */
async function freshPostgres(serverUrl: string): Promise<TestDb> {
  const name = `reelsmith_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.href });
  const close = database.close;
  database.close = async () => {
    await close();
    const dropper = new pg.Client({ connectionString: serverUrl });
    await dropper.connect();
    await dropper.query(`drop database if exists ${name} with (force)`);
    await dropper.end();
  };
  return Object.assign(database, { url: url.href });
}

/** In-memory PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. Every test file runs on each. */
export function testDatabases(): TestDatabase[] {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const migrated = async (database: TestDb) => {
    await migrate(database);
    return database;
  };
  return [
    { name: 'pglite', open: async () => migrated(await openDatabase({})), openEmpty: () => openDatabase({}) },
    ...(serverUrl
      ? [
          {
            name: 'postgres' as const,
            open: async () => migrated(await freshPostgres(serverUrl)),
            openEmpty: () => freshPostgres(serverUrl),
          },
        ]
      : []),
  ];
}
