// Many clients at once against one balance: on PostgreSQL through several connection pools (so the account
// row lock is what keeps the balance right), on PGlite through its one connection (its queue does).
import { SkuCode } from '@reelsmith/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db, openDatabase } from '../src/db/client.js';
import type { AppError } from '../src/errors.js';
import { charge, grant, refund } from '../src/modules/points/ledger.js';
import { readAccount } from '../src/modules/points/queries.js';
import { type TestDb, testDatabases } from './support/databases.js';
import { expectConsistent, newUser } from './support/points.js';

const POOLS = 5;

describe.each(testDatabases())('credits under concurrency on $name', (testDb) => {
  const t = {} as { db: Db };
  let database: TestDb;
  /** Every way into this database: one on PGlite; on PostgreSQL several pools of 10 connections each. */
  const ways: Db[] = [];
  const extra: Database[] = [];

  beforeAll(async () => {
    database = await testDb.open();
    t.db = database.db;
    ways.push(t.db);
    for (let i = 1; database.url && i < POOLS; i++) extra.push(await openDatabase({ databaseUrl: database.url }));
    ways.push(...extra.map((d) => d.db));
  });
  // The extra pools close before the database is dropped, which would cut their connections.
  afterAll(async () => {
    await Promise.all(extra.map((d) => d.close()));
    await database.close();
  });

  const via = (i: number) => ways[i % ways.length] ?? t.db;

  it('200 simultaneous charges against a balance that covers exactly 50: 50 succeed, the balance ends at 0', async () => {
    const user = await newUser(t.db);
    // imageGen costs 4.
    await grant(t.db, user, 120, 'RECHARGE', { key: 'a' });
    await grant(t.db, user, 80, 'SIGNUP', { key: 'b', expiresAt: new Date(Date.now() + 86_400_000) });
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => charge(via(i), user, 'imageGen', 1, { taskId: `burst-${i}`, key: `burst-${i}` })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toHaveLength(50);
    expect(refused).toHaveLength(150);
    for (const r of refused) expect((r.reason as AppError).key).toBe('notEnoughCredits');
    expect(await readAccount(t.db, user)).toMatchObject({ totalPoints: 200, availablePoints: 0, usedPoints: 200, expiredPoints: 0 });
    await expectConsistent(t.db);
  });

  it('20 clients mixing grants, charges, replays and refunds on three accounts: the invariants hold', async () => {
    const users = [await newUser(t.db), await newUser(t.db), await newUser(t.db)];
    for (const user of users) await grant(t.db, user, 100, 'SIGNUP', { key: 'start', expiresAt: new Date(Date.now() + 86_400_000) });
    const charged: string[] = [];
    const client = async (c: number) => {
      const db = via(c);
      for (let i = 0; i < 15; i++) {
        const user = users[(c + i) % users.length] as string;
        const roll = (c * 31 + i * 17) % 10;
        if (roll < 2) await grant(db, user, 10 + roll, 'PROMOTION', { key: `g-${c}-${i}` });
        else if (roll < 7) {
          const sku = SkuCode.options[(c + i) % SkuCode.options.length] ?? 'imageGen';
          const taskId = `t-${c}-${i}`;
          // Sent twice, as a client retrying after a timeout would.
          const sent = await Promise.allSettled([0, 1].map(() => charge(db, user, sku, 1, { taskId, key: taskId })));
          for (const s of sent) if (s.status === 'rejected' && (s.reason as AppError).key !== 'notEnoughCredits') throw s.reason;
          if (sent.some((s) => s.status === 'fulfilled')) charged.push(taskId);
        } else {
          const taskId = charged[(c * 7 + i) % Math.max(charged.length, 1)];
          if (taskId) await Promise.all([refund(db, taskId), refund(via(c + 1), taskId)]);
        }
      }
    };
    await Promise.all(Array.from({ length: 20 }, (_, c) => client(c)));
    for (const user of users) expect((await readAccount(t.db, user)).availablePoints).toBeGreaterThanOrEqual(0);
    await expectConsistent(t.db);
  });
});
