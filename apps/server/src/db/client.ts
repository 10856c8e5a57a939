import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';

/** The one database type the services see, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction handed out by `db.transaction`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything a query can run on: the database or an open transaction. */
export type Queryable = Db | Tx;

export type Database =
  | { driver: 'pglite'; db: Db; client: PGlite; close(): Promise<void> }
  | { driver: 'postgres'; db: Db; client: pg.Pool; close(): Promise<void> };

export interface DatabaseLocation {
  /** postgres://… for a PostgreSQL server. */
  databaseUrl?: string | undefined;
  /** A PGlite data directory; neither this nor a URL means an in-memory PGlite (tests). */
  pgliteDir?: string | undefined;
  /**
   * An in-memory PGlite starts from this dumped data directory (PGlite's `dumpDataDir`) instead of an empty one:
   * the tests start each database from one migrated image, a quarter of the time of a fresh one migrated.
   */
  pgliteImage?: Blob | undefined;
}

export const pgliteDirOf = (dataDir: string) => join(dataDir, 'pg');

/**
 * The rows of a raw SQL statement, for what the query builder cannot say (a statement of several data-changing
 * parts). Both drivers answer `{ rows }`; values come as the driver gives them (bigint as a string on pg).
 */
export async function queryRows<T>(db: Queryable, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export async function openDatabase(location: DatabaseLocation): Promise<Database> {
  if (location.databaseUrl) {
    const client = new pg.Pool({ connectionString: location.databaseUrl, max: 10 });
    // An idle connection the server closes (a restart, a dropped database) is reported here; unheard, the
    // event would end the process. The pool has already let the connection go and opens a new one when needed.
    client.on('error', () => {});
    // A connection that breaks while it is checked out (between the statements of a transaction) reports it on its
    // own client, which the pool does not listen to then: unheard, that too ended the process when the database
    // restarted. The transaction's next statement fails instead, and the pool drops the broken client on release.
    client.on('connect', (connection) => connection.on('error', () => {}));
    return { driver: 'postgres', client, db: drizzlePg(client) as unknown as Db, close: () => client.end() };
  }
  const client = location.pgliteImage
    ? await PGlite.create({ loadDataDir: location.pgliteImage })
    : await PGlite.create(location.pgliteDir);
  return { driver: 'pglite', client, db: drizzlePglite(client) as unknown as Db, close: () => client.close() };
}
