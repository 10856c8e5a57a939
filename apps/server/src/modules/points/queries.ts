import type { HistoryTab, PointsAccount, PointsRecord } from '@reelsmith/contract';
import { and, desc, eq, gt, lt } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { pointsAccounts, pointsLedger } from '../../db/schema.js';

/** The user's balance; all zero for a user who has never had credits. */
export async function readAccount(db: Queryable, userId: string): Promise<PointsAccount> {
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
