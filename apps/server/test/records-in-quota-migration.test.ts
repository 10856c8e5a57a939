// Migration 0023 (records in the quota) on drafts saved before drafts counted (finding F3): each draft becomes its
// project's record in the quota's ledger at its size in bytes, so a user's use includes what they saved before.
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { usedBytes } from '../src/modules/files/storedObjects.js';
import { testDatabases } from './support/databases.js';
import { migrateWith, migrationsBefore } from './support/migrations.js';

describe.each(testDatabases())('migration 0023 (records in the quota) on $name', (testDb) => {
  it('counts the drafts saved before it, in bytes, and nothing for a project without one', async () => {
    const database = await testDb.openEmpty();
    const before = migrationsBefore('0023_records_in_quota');
    try {
      await migrateWith(database, before);
      const { db } = database;
      await db.execute(sql`insert into users (id, email, username) values ('u1', 'u1@example.com', 'u1'), ('u2', 'u2@example.com', 'u2')`);
      await db.execute(sql`insert into stored_objects (key, user_id, kind, size) values ('u/u1/f1.png', 'u1', 'file', 1000)`);
      await db.execute(sql`
        insert into projects (id, user_id, name, draft) values
          ('p1', 'u1', 'a', ${'x'.repeat(5000)}),
          ('p2', 'u1', 'b', ${'草'.repeat(100)}),
          ('p3', 'u1', 'c', null),
          ('p4', 'u2', 'd', '{}')`);

      await migrate(database);

      expect(await usedBytes(db, 'u1')).toBe(1000 + 5000 + 300);
      expect(await usedBytes(db, 'u2')).toBe(2);
      expect(await queryRows(db, sql`select key, kind from stored_objects where kind = 'record' order by key`)).toEqual([
        { key: 'u/u1/db/draft/p1', kind: 'record' },
        { key: 'u/u1/db/draft/p2', kind: 'record' },
        { key: 'u/u2/db/draft/p4', kind: 'record' },
      ]);
    } finally {
      rmSync(before, { recursive: true, force: true });
      await database.close();
    }
  });
});
