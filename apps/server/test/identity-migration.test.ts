// Migration 0006 (identity) on a database of users from before it: their Google subject is kept without an issuer
// (the configured issuer adopts it at the next sign-in, identity.test.ts), no e-mail is taken as verified, nobody is
// blocked, and every session ends once, so one obtained through the holes it closes does not outlive them.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc, sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate.js';
import { sessions, users } from '../src/db/schema.js';
import { type TestDb, testDatabases } from './support/databases.js';

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), '../src/db/migrations');

/** A copy of the migrations that ends just before the one tagged `tag`. */
function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'reelsmith-migrations-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalFile = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

async function migrateWith(database: TestDb, migrationsFolder: string) {
  if (database.driver === 'pglite') await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
  else await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder });
}

describe.each(testDatabases())('migration 0006 (identity) on $name', (testDb) => {
  it('keeps the users from before, issuer unknown and e-mail unverified, and signs everyone out once', async () => {
    const database = await testDb.openEmpty();
    const before = migrationsBefore('0006_identity');
    try {
      await migrateWith(database, before);
      await database.db.execute(sql`
        insert into users (id, email, username, status, google_sub) values
          ('google-user', 'g@example.com', 'g', 'ACTIVE', 'sub-g'),
          ('dev-user', 'd@example.com', 'd', 'INACTIVE', null)`);
      await database.db.execute(sql`
        insert into sessions (token_hash, user_id, expires_at) values
          ('hash-g', 'google-user', now() + interval '1 day'),
          ('hash-d', 'dev-user', now() + interval '1 day')`);

      await migrate(database);

      const rows = await database.db.select().from(users).orderBy(asc(users.id));
      expect(rows).toEqual([
        expect.objectContaining({
          id: 'dev-user',
          status: 'INACTIVE',
          oidcIssuer: null,
          oidcSubject: null,
          emailVerified: false,
          blockedAt: null,
        }),
        expect.objectContaining({
          id: 'google-user',
          status: 'ACTIVE',
          oidcIssuer: null,
          oidcSubject: 'sub-g',
          emailVerified: false,
          blockedAt: null,
        }),
      ]);
      expect(await database.db.select().from(sessions)).toEqual([]);
      // A blocked user is never ACTIVE, whatever writes the row.
      await expect(database.db.execute(sql`update users set blocked_at = now() where id = 'google-user'`)).rejects.toThrow();
      // Subjects from before stay unique among themselves.
      await expect(
        database.db.execute(sql`insert into users (id, email, username, oidc_subject) values ('twin', 't@example.com', 't', 'sub-g')`),
      ).rejects.toThrow();
    } finally {
      rmSync(before, { recursive: true, force: true });
      await database.close();
    }
  });
});
