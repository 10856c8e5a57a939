import { GrantType } from '@reelsmith/contract';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client.js';
import { pointsAccounts, pointsLedger, pointsLedgerLots, pointsLots } from '../../db/schema.js';

const sumWhere = (condition: ReturnType<typeof sql>) =>
  sql<number>`coalesce(sum(${pointsLedger.pointsChange}) filter (where ${condition}), 0)::int`;
const isGrant = sql`${pointsLedger.operationType} in (${sql.raw(GrantType.options.map((t) => `'${t}'`).join(', '))})`;
const isRefund = sql`${pointsLedger.operationType} = 'REFUND_TASK'`;
const isExpiration = sql`${pointsLedger.operationType} = 'EXPIRATION'`;
const isCharge = sql`${pointsLedger.pointsChange} < 0 and not ${isExpiration}`;

/**
 * Checks the ledger's invariants for every account (or one user's) and answers what does not hold (nothing when all is
 * well): the rows add up to the available points and so do the lots; total = available + used + expired,
 * with total the sum of grants, used the charges less their refunds, expired the expirations; each row is
 * the sum of its lot changes; a task is refunded at most once and never more than it was charged.
 */
export async function auditLedger(db: Queryable, userId?: string): Promise<string[]> {
  const problems: string[] = [];
  const ofUser = (column: AnyPgColumn) => (userId ? eq(column, userId) : undefined);
  const accounts = await db.select().from(pointsAccounts).where(ofUser(pointsAccounts.userId));
  const ledger = await db
    .select({
      userId: pointsLedger.userId,
      sum: sumWhere(sql`true`),
      granted: sumWhere(isGrant),
      charged: sumWhere(isCharge),
      refunded: sumWhere(isRefund),
      expired: sumWhere(isExpiration),
    })
    .from(pointsLedger)
    .where(ofUser(pointsLedger.userId))
    .groupBy(pointsLedger.userId);
  const lots = await db
    .select({ userId: pointsLots.userId, remaining: sql<number>`sum(${pointsLots.remaining})::int` })
    .from(pointsLots)
    .where(ofUser(pointsLots.userId))
    .groupBy(pointsLots.userId);
  const ledgerOf = new Map(ledger.map((l) => [l.userId, l]));
  const lotsOf = new Map(lots.map((l) => [l.userId, l.remaining]));
  for (const a of accounts) {
    const l = ledgerOf.get(a.userId) ?? { sum: 0, granted: 0, charged: 0, refunded: 0, expired: 0 };
    const expected = {
      availablePoints: [l.sum, lotsOf.get(a.userId) ?? 0],
      totalPoints: [l.granted, a.availablePoints + a.usedPoints + a.expiredPoints],
      usedPoints: [-l.charged - l.refunded],
      expiredPoints: [-l.expired],
    };
    for (const [field, values] of Object.entries(expected)) {
      const actual = a[field as keyof typeof expected];
      if (actual < 0 || values.some((v) => v !== actual))
        problems.push(`${a.userId}: ${field} ${actual}, expected ${values.join(' and ')}`);
    }
  }
  const unbalanced = await db
    .select({ id: pointsLedger.id })
    .from(pointsLedger)
    .leftJoin(pointsLedgerLots, eq(pointsLedgerLots.ledgerId, pointsLedger.id))
    .where(ofUser(pointsLedger.userId))
    .groupBy(pointsLedger.id)
    .having(sql`coalesce(sum(${pointsLedgerLots.pointsChange}), 0) <> ${pointsLedger.pointsChange}`);
  for (const { id } of unbalanced) problems.push(`ledger row ${id}: its lot changes do not add up to it`);
  const overRefunded = await db
    .select({ taskId: pointsLedger.taskId })
    .from(pointsLedger)
    .where(and(isNotNull(pointsLedger.taskId), ofUser(pointsLedger.userId)))
    .groupBy(pointsLedger.taskId)
    .having(sql`count(*) filter (where ${isRefund}) > 1 or ${sumWhere(isRefund)} > -${sumWhere(isCharge)}`);
  for (const { taskId } of overRefunded) problems.push(`task ${taskId}: refunded more than once or more than charged`);
  return problems;
}
