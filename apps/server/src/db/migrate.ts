import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from './client.js';

/** The advisory lock that makes processes starting together on one PostgreSQL migrate one after another. */
const MIGRATION_LOCK = 72_616_873;

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Applies the SQL migrations that drizzle-kit generated and this database has not seen yet. On PostgreSQL, API and
 * worker processes that start at once (a deploy) would race to create the same tables: each waits for a session
 * advisory lock, held on a connection of its own, so the first migrates and the others find nothing left to do.
 */
export async function migrate(database: Database): Promise<void> {
  if (database.driver === 'pglite') {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  const lock = await database.client.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder });
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).finally(() => lock.release());
  }
}
