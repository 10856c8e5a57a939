import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

const MIGRATIONS = join(import.meta.dirname, '../../src/db/migrations');

/**
 * A migrated PGlite's data directory, dumped once for every test process: a fresh PGlite makes its cluster (about
 * 1.7 s) and migrates it, one started from the dump takes about 0.4 s. Kept in the temp directory under the hash
 * of the migrations and PGlite's version, so a changed migration makes a new one; written whole, then renamed, as
 * test files in other workers may read it at the same moment.
 */
let image: Promise<Blob> | undefined;
function migratedImage(): Promise<Blob> {
  image ??= (async () => {
    const hash = createHash('sha256');
    // PGlite's own version too: another release may lay out its data directory differently.
    const pgliteMain = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
    const pglitePackage = join(pgliteMain.slice(0, pgliteMain.lastIndexOf('/dist/')), 'package.json');
    hash.update(readFileSync(pglitePackage));
    for (const name of readdirSync(MIGRATIONS, { recursive: true }).map(String).sort()) {
      if (name.endsWith('.sql') || name.endsWith('.json')) hash.update(name).update(readFileSync(join(MIGRATIONS, name)));
    }
    const file = join(tmpdir(), `reelsmith-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
    const kept = await readFile(file).catch(() => undefined);
    if (kept) return new Blob([kept]);
    const database = await openDatabase({});
    if (database.driver !== 'pglite') throw new Error('an in-memory database is a PGlite');
    await migrate(database);
    const dumped = await database.client.dumpDataDir('none');
    await database.close();
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, Buffer.from(await dumped.arrayBuffer()));
    await rename(partial, file);
    return dumped;
  })();
  return image;
}

/** In-memory PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. Every test file runs on each. */
export function testDatabases(): TestDatabase[] {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const migrated = async (database: TestDb) => {
    await migrate(database);
    return database;
  };
  return [
    { name: 'pglite', open: async () => openDatabase({ pgliteImage: await migratedImage() }), openEmpty: () => openDatabase({}) },
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
