// Migration 0006 (identity) on a database of users from before it: their Google subject is kept without an issuer
// (the configured issuer adopts it at the next sign-in, identity.test.ts), no e-mail is taken as verified, nobody is
// blocked, and every session ends once, so one obtained through the holes it closes does not outlive them.
import { rmSync } from 'node:fs';
import { asc, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate.js';
import { sessions, users } from '../src/db/schema.js';
import { testDatabases } from './support/databases.js';
import { migrateWith, migrationsBefore } from './support/migrations.js';

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
