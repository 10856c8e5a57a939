// Property-based test of the ledger: random sequences of grants (expiring or not), charges (some beyond the
// balance), refunds (repeated too), expiry sweeps on a clock that moves, and replays of idempotency keys.
// After every step the ledger's invariants must hold, and each step must have done exactly what it should.
import { GrantType, type PointsAccount, SkuCode } from '@reelsmith/contract';
import { and, eq, gt, isNull, lte, or } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.js';
import { type PointsLedgerRow, pointsLedgerLots, pointsLots } from '../src/db/schema.js';
import { AppError } from '../src/errors.js';
import { auditLedger } from '../src/modules/points/audit.js';
import { sweepExpiredCredits } from '../src/modules/points/expiry.js';
import { charge, grant, refund } from '../src/modules/points/ledger.js';
import { priceOf } from '../src/modules/points/prices.js';
import { readAccount } from '../src/modules/points/queries.js';
import { testDatabases } from './support/databases.js';
import { databaseOn, days, newUser } from './support/points.js';

const HOUR_MS = 3_600_000;

const Step = fc.oneof(
  fc.record({
    kind: fc.constant('grant' as const),
    amount: fc.integer({ min: 1, max: 150 }),
    type: fc.constantFrom(...GrantType.options),
    expiresInDays: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('charge' as const), sku: fc.constantFrom(...SkuCode.options), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('refund' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('replay' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('tick' as const), hours: fc.integer({ min: 1, max: 15 * 24 }) }),
  fc.record({ kind: fc.constant('sweep' as const) }),
);
type Step = typeof Step extends fc.Arbitrary<infer S> ? S : never;

/** What a step did, kept so later steps can replay or refund it. */
type Done =
  | { kind: 'grant'; step: Extract<Step, { kind: 'grant' }>; key: string; row: PointsLedgerRow }
  | { kind: 'charge'; step: Extract<Step, { kind: 'charge' }>; key: string; taskId: string; row: PointsLedgerRow };

const spendableLots = (db: Db, userId: string, now: Date) =>
  db
    .select()
    .from(pointsLots)
    .where(
      and(eq(pointsLots.userId, userId), gt(pointsLots.remaining, 0), or(isNull(pointsLots.expiresAt), gt(pointsLots.expiresAt, now))),
    );

const dueCredits = async (db: Db, userId: string, now: Date) => {
  const due = await db
    .select()
    .from(pointsLots)
    .where(and(eq(pointsLots.userId, userId), gt(pointsLots.remaining, 0), lte(pointsLots.expiresAt, now)));
  return due.reduce((sum, lot) => sum + lot.remaining, 0);
};

const sum = (lots: Array<{ remaining: number }>) => lots.reduce((s, l) => s + l.remaining, 0);

async function runSteps(db: Db, steps: Step[]) {
  const user = await newUser(db);
  let now = new Date('2031-01-01T00:00:00Z');
  const done: Done[] = [];
  const refunded = new Map<string, PointsLedgerRow>();
  let n = 0;
  for (const step of steps) {
    n += 1;
    // The balance's four figures; which grants expire when is checked by the HTTP tests.
    const balance = async (): Promise<Omit<PointsAccount, 'expiring'>> => {
      const { totalPoints, availablePoints, usedPoints, expiredPoints } = await readAccount(db, user);
      return { totalPoints, availablePoints, usedPoints, expiredPoints };
    };
    const before = await balance();
    const after = balance;
    switch (step.kind) {
      case 'grant': {
        const key = `grant-${n}`;
        const expiresAt = step.expiresInDays ? days(now, step.expiresInDays) : undefined;
        const row = await grant(db, user, step.amount, step.type, { key, expiresAt, now });
        expect(await after()).toEqual({
          ...before,
          totalPoints: before.totalPoints + step.amount,
          availablePoints: before.availablePoints + step.amount,
        });
        done.push({ kind: 'grant', step, key, row });
        break;
      }
      case 'charge': {
        const key = `charge-${n}`;
        const taskId = `${user}-task-${n}`;
        const needed = (await priceOf(db, step.sku)) * step.count;
        const spendable = await spendableLots(db, user, now);
        const result = await charge(db, user, step.sku, step.count, { taskId, key, now }).catch((e: unknown) => e);
        if (sum(spendable) < needed) {
          expect(result).toBeInstanceOf(AppError);
          expect(result).toMatchObject({ key: 'notEnoughCredits', params: { needed, available: sum(spendable) } });
          expect(await after()).toEqual(before);
          break;
        }
        if (!(result && 'id' in (result as object))) throw new Error(`charge failed: ${String(result)}`);
        const row = result as PointsLedgerRow;
        expect(row.pointsChange).toBe(-needed);
        const a = await after();
        expect(a.availablePoints).toBe(before.availablePoints - needed);
        expect(a.usedPoints).toBe(before.usedPoints + needed);
        // Earliest expiry first: no lot that expires before one this charge drew from still holds credits.
        const drawn = await db.select().from(pointsLedgerLots).where(eq(pointsLedgerLots.ledgerId, row.id));
        const drawnIds = new Set(drawn.map((d) => d.lotId));
        const order = (l: { expiresAt: Date | null; id: number }) => [l.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY, l.id] as const;
        const lastDrawn = spendable
          .filter((l) => drawnIds.has(l.id))
          .map(order)
          .sort((x, y) => x[0] - y[0] || x[1] - y[1])
          .at(-1);
        const left = await spendableLots(db, user, now);
        if (lastDrawn) {
          for (const lot of left.filter((l) => !drawnIds.has(l.id))) {
            const [e, id] = order(lot);
            expect(e > lastDrawn[0] || (e === lastDrawn[0] && id > lastDrawn[1])).toBe(true);
          }
        }
        done.push({ kind: 'charge', step, key, taskId, row });
        break;
      }
      case 'refund': {
        const charges = done.filter((d) => d.kind === 'charge');
        const target = charges[step.pick % Math.max(charges.length, 1)];
        if (!target) {
          expect(await refund(db, `${user}-never-charged`, now)).toBeNull();
          break;
        }
        const row = await refund(db, target.taskId, now);
        const first = refunded.get(target.taskId);
        if (first) {
          expect(row).toEqual(first);
          expect(await after()).toEqual(before);
        } else {
          expect(row).toMatchObject({ operationType: 'REFUND_TASK', pointsChange: -target.row.pointsChange });
          const a = await after();
          expect(a.usedPoints).toBe(before.usedPoints + target.row.pointsChange);
          expect(a.totalPoints).toBe(before.totalPoints);
          if (row) refunded.set(target.taskId, row);
        }
        break;
      }
      case 'replay': {
        const target = done[step.pick % Math.max(done.length, 1)];
        if (!target) break;
        const row =
          target.kind === 'grant'
            ? await grant(db, user, target.step.amount, target.step.type, { key: target.key, now })
            : await charge(db, user, target.step.sku, target.step.count, { taskId: target.taskId, key: target.key, now });
        expect(row).toEqual(target.row);
        expect(await after()).toEqual(before);
        break;
      }
      case 'tick':
        now = new Date(now.getTime() + step.hours * HOUR_MS);
        break;
      case 'sweep': {
        const due = await dueCredits(db, user, now);
        await sweepExpiredCredits(db, now);
        expect(await dueCredits(db, user, now)).toBe(0);
        const a = await after();
        expect(a.availablePoints).toBe(before.availablePoints - due);
        expect(a.expiredPoints).toBe(before.expiredPoints + due);
        break;
      }
    }
    expect(await auditLedger(db, user)).toEqual([]);
  }
}

describe.each(testDatabases())('ledger properties on $name', (testDb) => {
  const t = databaseOn(testDb);
  const runs = testDb.name === 'pglite' ? 50 : 25;

  it(`keeps its invariants over ${runs} random sequences of up to 30 steps`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(Step, { minLength: 1, maxLength: 30 }), (steps) => runSteps(t.db, steps)),
      { numRuns: runs },
    );
  });
});
