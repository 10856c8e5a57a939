// Migration 0013 (project names from hosts) on projects made before decision "Projects named after the product":
// a project named exactly after its link's host, with or without "www.", takes its product's name or becomes untitled;
// a name the user chose is kept.
import { rmSync } from 'node:fs';
import { asc, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate.js';
import { projects } from '../src/db/schema.js';
import { getProjectSummary } from '../src/modules/projects/service.js';
import { testDatabases } from './support/databases.js';
import { migrateWith, migrationsBefore } from './support/migrations.js';

const TAG = '0013_project_names_from_hosts';

describe.each(testDatabases())('migration 0013 (project names from hosts) on $name', (testDb) => {
  it("renames projects named after their link's host to their product, or untitled, and keeps the user's names", async () => {
    const database = await testDb.openEmpty();
    const before = migrationsBefore(TAG);
    try {
      await migrateWith(database, before);
      const { db } = database;
      await db.execute(sql`insert into users (id, email, username) values ('u1', 'u1@example.com', 'u1'), ('u2', 'u2@example.com', 'u2')`);
      await db.execute(sql`
        insert into projects (id, user_id, name, product_link) values
          ('failed', 'u1', '127.0.0.1', null),
          ('analysed', 'u1', 'amazon.com', 'https://www.amazon.com/dp/B01'),
          ('typed', 'u1', 'www.amazon.com', 'https://www.amazon.com/dp/B02'),
          ('unknown', 'u1', 'shop.example', 'https://SHOP.example:8443/p/3?x=1'),
          ('chosen', 'u1', 'My Amazon picks', 'https://www.amazon.com/dp/B04'),
          ('other-host', 'u1', 'shop.example', 'https://other.example/p/5'),
          ('no-link', 'u1', '127.0.0.1', null),
          ('untitled', 'u1', '', 'https://shop.example/p/6'),
          ('others-task', 'u2', 'zalando.de', 'https://www.zalando.de/p/7')`);
      await db.execute(sql`
        insert into tasks (id, user_id, kind, project_id, input, status, result, created_at) values
          ('t1', 'u1', 'link-analysis', 'failed', '{"projectId":"failed","productLink":"http://127.0.0.1:5173/p/1"}', 'FAILURE', null, now() - interval '2 hours'),
          ('t2', 'u1', 'link-analysis', 'analysed', '{"projectId":"analysed","productLink":"https://www.amazon.com/dp/B01"}', 'SUCCESS',
            '{"productName":"  Linen   shirt, sand  "}', now() - interval '2 hours'),
          ('t3', 'u1', 'link-analysis', 'analysed', '{"projectId":"analysed","productLink":"https://www.amazon.com/dp/B01"}', 'SUCCESS',
            '{"productName":""}', now() - interval '1 hour'),
          ('t4', 'u1', 'link-analysis', 'typed', '{"projectId":"typed","productLink":"https://www.amazon.com/dp/B02"}', 'SUCCESS',
            '{"productName":""}', now() - interval '2 hours'),
          ('t5', 'u1', 'link-video', 'typed', '{"projectId":"typed","productName":"Desk lamp"}', 'SUCCESS', null, now() - interval '1 hour'),
          ('t6', 'u1', 'link-analysis', 'chosen', '{"projectId":"chosen","productLink":"https://www.amazon.com/dp/B04"}', 'SUCCESS',
            '{"productName":"Kettle"}', now()),
          ('t7', 'u2', 'link-analysis', null, '{"projectId":"others-task","productLink":"https://www.zalando.de/p/7"}', 'SUCCESS',
            '{"productName":"Sneaker"}', now()),
          ('t8', 'u1', 'link-analysis', 'others-task', '{"projectId":"others-task"}', 'SUCCESS', '{"productName":"Not theirs"}', now())`);

      await migrate(database);

      const rows = await db.select({ id: projects.id, name: projects.name }).from(projects).orderBy(asc(projects.id));
      expect(Object.fromEntries(rows.map((r) => [r.id, r.name]))).toEqual({
        // A failed analysis never stored the link on the project; the analysis's input names the host.
        failed: '',
        // The newest analysis that named the product, in projectNameOf's form.
        analysed: 'Linen shirt, sand',
        // No analysis named it; the name typed for the video does.
        typed: 'Desk lamp',
        // Host compared without case or port.
        unknown: '',
        chosen: 'My Amazon picks',
        'other-host': 'shop.example',
        // Nothing tells which host this was: kept.
        'no-link': '127.0.0.1',
        untitled: '',
        // Only the owner's tasks name a project.
        'others-task': 'Sneaker',
      });
      // An untitled project reads as one, in the reader's language.
      expect((await getProjectSummary(db, 'u1', 'failed', 'en')).projectName).toBe('Untitled project');
      expect((await getProjectSummary(db, 'u1', 'unknown', 'zh')).projectName).toBe('未命名项目');
    } finally {
      rmSync(before, { recursive: true, force: true });
      await database.close();
    }
  });
});
