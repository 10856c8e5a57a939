import { EXPIRING_SHOWN, type ExpiringCredits, type HistoryTab, type PointsAccount, type PointsRecord } from '@reelsmith/contract';
import { and, asc, desc, eq, gt, isNotNull, lt } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { pointsAccounts, pointsLedger, pointsLots } from '../../db/schema.js';

/** The user's balance and what of it expires when; all zero for a user who has never had credits. */
export async function readAccount(db: Queryable, userId: string, now = new Date()): Promise<PointsAccount> {
  const [balance, expiring] = await Promise.all([readBalance(db, userId), readExpiring(db, userId, now)]);
  return { ...balance, expiring };
}

async function readBalance(db: Queryable, userId: string) {
  const [row] = await db
    .select({
      totalPoints: pointsAccounts.totalPoints,
      availablePoints: pointsAccounts.availablePoints,
      usedPoints: pointsAccounts.usedPoints,
      expiredPoints: pointsAccounts.expiredPoints,
    })
    .from(pointsAccounts)
    .where(eq(pointsAccounts.userId, userId));
  return row ?? { totalPoints: 0, availablePoints: 0, usedPoints: 0, expiredPoints: 0 };
}

/** The grants with credits left that will expire, soonest first: a user is told before sign-up credits go. */
async function readExpiring(db: Queryable, userId: string, now: Date): Promise<ExpiringCredits[]> {
  const rows = await db
    .select({ operationType: pointsLots.operationType, points: pointsLots.remaining, expiresAt: pointsLots.expiresAt })
    .from(pointsLots)
    .where(and(eq(pointsLots.userId, userId), gt(pointsLots.remaining, 0), isNotNull(pointsLots.expiresAt), gt(pointsLots.expiresAt, now)))
    .orderBy(asc(pointsLots.expiresAt), asc(pointsLots.id))
    .limit(EXPIRING_SHOWN);
  return rows.map((row) => ({ operationType: row.operationType, points: row.points, expiresAt: (row.expiresAt as Date).toISOString() }));
}

export interface HistoryPage {
  page: number;
  pageSize: number;
  operationType: HistoryTab;
}

/**
 * One page of the credit history: 'gained' is every increase (grants, refunds), 'used' every decrease
 * (charges, expirations). Newest first, ties broken by the ledger's sequence, so pages neither repeat nor skip.
 */
export async function listHistory(db: Queryable, userId: string, { page, pageSize, operationType }: HistoryPage): Promise<PointsRecord[]> {
  const rows = await db
    .select({
      referenceId: pointsLedger.referenceId,
      operationType: pointsLedger.operationType,
      pointsChange: pointsLedger.pointsChange,
      createdAt: pointsLedger.createdAt,
    })
    .from(pointsLedger)
    .where(
      and(
        eq(pointsLedger.userId, userId),
        operationType === 'gained' ? gt(pointsLedger.pointsChange, 0) : lt(pointsLedger.pointsChange, 0),
      ),
    )
    .orderBy(desc(pointsLedger.createdAt), desc(pointsLedger.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return rows.map(({ createdAt, ...record }) => ({ ...record, createTime: createdAt.toISOString() }));
}
