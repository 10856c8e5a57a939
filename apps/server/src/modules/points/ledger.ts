// The credits ledger: the one way credits are granted, charged, refunded and expired (design "Credits"). No other
// code writes the points tables. Every write goes through the database function points_post, and a charge is
// the function points_charge (both in migration 0002), so the hot path is one round trip.
//
// Every change first locks the user's points account row (SELECT … FOR UPDATE), so one user's changes are
// serialised and different users' run in parallel. A change locks one account; the one transaction that
// changes two (an activation: the friend's grant, then the inviter's reward) always locks them in that order,
// so no two wait for each other. On PGlite (one connection) PGlite itself queues transactions. Called with an
// open transaction, a change runs inside it (grants and refunds as a savepoint; a failed charge fails it).
import { randomUUID } from 'node:crypto';
import type { GrantType, OperationType, SkuCode } from '@reelsmith/contract';
import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { type Db, type Queryable, queryRows, type Tx } from '../../db/client.js';
import { fromColumns, toColumns } from '../../db/rows.js';
import {
  type NewTaskRow,
  type PointsLedgerRow,
  type PointsLotRow,
  pointsAccounts,
  pointsLedger,
  pointsLedgerLots,
  pointsLots,
  type TaskRow,
  tasks,
} from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { type ChargeItem, chargeInGroup } from './groupCommit.js';
import { operationTypeOfSku } from './prices.js';

export interface GrantOptions {
  /** A retried grant with the same key is a replay: it answers the first grant and changes nothing. */
  key: string;
  /** When the granted credits expire; never when absent. */
  expiresAt?: Date | undefined;
  /** What the grant refers to (an order, a referral); a new id when absent. */
  referenceId?: string | undefined;
  now?: Date | undefined;
}

export interface ChargeOptions {
  /** The task the credits pay for: the record's referenceId, and what a refund names. */
  taskId: string;
  /** A retried charge with the same key is a replay: it answers the first charge and changes nothing. */
  key: string;
  now?: Date | undefined;
}

/** How much one ledger row takes from (negative) or adds to (positive) one lot. */
interface LotChange {
  lot: Pick<PointsLotRow, 'id'>;
  pointsChange: number;
}

/** Changes to the account's figures; the total stays the sum of the other three by construction. */
interface AccountDelta {
  total?: number;
  available?: number;
  used?: number;
  expired?: number;
}

/** Locks the user's account row; undefined when the user has never had credits. */
async function lockAccount(tx: Tx, userId: string) {
  const [account] = await tx.select().from(pointsAccounts).where(eq(pointsAccounts.userId, userId)).for('update');
  return account;
}

async function findByKey(tx: Tx, userId: string, key: string) {
  const [row] = await tx
    .select()
    .from(pointsLedger)
    .where(and(eq(pointsLedger.userId, userId), eq(pointsLedger.idempotencyKey, key)))
    .limit(1);
  return row;
}

/**
 * A replay answers the first row as it was (a price or amount changed since does not matter). The same key
 * for another kind of operation or another task is a caller's bug, not a retry.
 */
function replayOf(row: PointsLedgerRow, operationType: OperationType, taskId: string | null) {
  if (row.operationType !== operationType || row.taskId !== taskId) throw new AppError('conflict');
  return row;
}

/**
 * Writes one ledger row with the lot changes it is made of, and moves the lots and the account's figures with
 * it (points_post). Answers undefined, writing nothing, when the user already has a row with this key.
 */
async function post(
  tx: Tx,
  row: Pick<PointsLedgerRow, 'userId' | 'referenceId' | 'operationType' | 'idempotencyKey' | 'taskId' | 'createdAt'>,
  changes: LotChange[],
  { total = 0, available = 0, used = 0, expired = 0 }: AccountDelta,
): Promise<PointsLedgerRow | undefined> {
  const [entry] = await queryRows<Record<string, unknown>>(
    tx,
    sql`select * from points_post(${row.userId}, ${row.referenceId}, ${row.operationType}, ${row.idempotencyKey}, ${row.taskId},
      ${row.createdAt.toISOString()}::timestamptz, ${sql.param(changes.map((c) => c.lot.id))}::bigint[],
      ${sql.param(changes.map((c) => c.pointsChange))}::int[], ${total}, ${available}, ${used}, ${expired})`,
  );
  return entry && fromColumns(pointsLedger, entry);
}

/** For writes whose key cannot be taken (checked under the lock, or unique by construction). */
function written(entry: PointsLedgerRow | undefined): PointsLedgerRow {
  if (!entry) throw new Error('a ledger key expected to be new was already taken');
  return entry;
}

/**
 * Writes an EXPIRATION row for what is left in each of these lots. `cause` keeps the key unique when a lot
 * expires a second time: a refund into a lot that has already expired (see `refund`).
 */
async function expireLots(tx: Tx, userId: string, lots: PointsLotRow[], now: Date, cause?: string) {
  for (const lot of lots) {
    if (lot.remaining === 0) continue;
    written(
      await post(
        tx,
        {
          userId,
          referenceId: String(lot.id),
          operationType: 'EXPIRATION',
          idempotencyKey: cause ? `expiration:${lot.id}:${cause}` : `expiration:${lot.id}`,
          taskId: null,
          createdAt: now,
        },
        [{ lot, pointsChange: -lot.remaining }],
        { available: -lot.remaining, expired: lot.remaining },
      ),
    );
  }
}

/** Grants credits as a new lot. */
export function grant(db: Queryable, userId: string, amount: number, type: GrantType, options: GrantOptions): Promise<PointsLedgerRow> {
  if (!Number.isInteger(amount) || amount <= 0) throw new RangeError(`a grant must be a positive whole number, not ${amount}`);
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    await tx.insert(pointsAccounts).values({ userId }).onConflictDoNothing();
    await lockAccount(tx, userId);
    // Checked before the lot is made, so a replay leaves no empty lot behind.
    const replay = await findByKey(tx, userId, options.key);
    if (replay) return replayOf(replay, type, null);
    const [lot] = await tx
      .insert(pointsLots)
      .values({ userId, operationType: type, amount, remaining: 0, expiresAt: options.expiresAt ?? null, createdAt: now })
      .returning({ id: pointsLots.id });
    if (!lot) throw new Error('lot insert returned nothing');
    const referenceId = options.referenceId ?? randomUUID();
    const row = { userId, referenceId, operationType: type, idempotencyKey: options.key, taskId: null, createdAt: now };
    return written(await post(tx, row, [{ lot, pointsChange: amount }], { total: amount, available: amount }));
  });
}

/** What points_charge refuses with (by SQLSTATE), as the AppError callers see; undefined for anything else. */
function refusal(code: string | undefined, detail: string | null | undefined, sku: SkuCode): AppError | undefined {
  switch (code) {
    case 'RS402':
      return new AppError('notEnoughCredits', JSON.parse(detail ?? '{}') as { needed: number; available: number });
    case 'RS404':
      return new AppError('unknownSku', { sku });
    case 'RS409':
      return new AppError('conflict');
    default:
      return undefined;
  }
}

/** A refused charge of a group commit as an error: the ledger's refusals as AppErrors, others keep their SQLSTATE. */
function refused(outcome: { code: string; message: string; detail: string | null }, sku: SkuCode): Error {
  return refusal(outcome.code, outcome.detail, sku) ?? Object.assign(new Error(outcome.message), { code: outcome.code });
}

function chargeItem(userId: string, sku: SkuCode, count: number, options: ChargeOptions): ChargeItem {
  if (!Number.isInteger(count) || count <= 0) throw new RangeError(`a charge is for a positive whole number of outputs, not ${count}`);
  const now = options.now ?? new Date();
  return { userId, sku, count, operationType: operationTypeOfSku(sku), taskId: options.taskId, key: options.key, now: now.toISOString() };
}

/**
 * Charges `count` outputs of a SKU at its current price (points_charge), drawing from the unexpired lots that
 * expire first. Answers the ledger row (its pointsChange is negative; a replayed key answers the first row),
 * or null when the SKU is free. Fails with notEnoughCredits, changing nothing, when the unexpired credits do
 * not cover the price. Credits past their expiry are never spent; the sweep (or a refresh) expires them.
 * Outside a transaction the charge joins this process's group commit (groupCommit.ts); inside one it runs there.
 */
export async function charge(
  db: Queryable,
  userId: string,
  sku: SkuCode,
  count: number,
  options: ChargeOptions,
): Promise<PointsLedgerRow | null> {
  const item = chargeItem(userId, sku, count, options);
  if (!(db instanceof PgTransaction)) {
    const outcome = await chargeInGroup(db as Db, item);
    if ('code' in outcome) throw refused(outcome, sku);
    return outcome.entry && fromColumns(pointsLedger, outcome.entry);
  }
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select * from points_charge(${item.userId}, ${item.sku}, ${item.count}, ${item.operationType}, ${item.taskId}, ${item.key},
      ${item.now}::timestamptz)`,
  ).catch((error: unknown) => {
    const cause = ((error as { cause?: unknown }).cause ?? error) as { code?: string; detail?: string };
    throw refusal(cause.code, cause.detail, sku) ?? error;
  });
  const [entry] = rows;
  return entry ? fromColumns(pointsLedger, entry) : null;
}

/** A SKU and how many of it. */
export interface Priced {
  sku: SkuCode;
  count: number;
}

/**
 * Charges for a task and inserts the task's row in the same subtransaction of a group commit, so the task exists
 * exactly when it is paid for (decision "Group commit"). `also` are further SKUs the task pays for (an export with
 * a presenter: decision "Presenter in link to video"), each its own ledger row, all charged or none; short of
 * credits for any, the refusal names the whole price. Answers the inserted row and the credits charged in all (0
 * for free SKUs). A refusal writes nothing; a task id or idempotency key already taken fails with the database's
 * unique-violation code (23505) on the error. `entryId` is the first charge's ledger row (null for a free SKU).
 */
export async function chargeForTask(
  db: Db,
  task: NewTaskRow,
  price: Priced & { also?: readonly Priced[] | undefined },
  options: ChargeOptions,
): Promise<{ task: TaskRow; credits: number; entryId: number | null }> {
  const also = (price.also ?? []).map((extra) => {
    const { sku, count, operationType } = chargeItem(task.userId, extra.sku, extra.count, options);
    return { sku, count, operationType };
  });
  const outcome = await chargeInGroup(db, {
    ...chargeItem(task.userId, price.sku, price.count, options),
    task: toColumns(tasks, task),
    ...(also.length ? { also } : {}),
  });
  if ('code' in outcome) throw refused(outcome, price.sku);
  if (!outcome.task) throw new Error('points_charge_many inserted no task');
  const entry = outcome.entry && fromColumns(pointsLedger, outcome.entry);
  const credits = outcome.charged ?? (entry ? -entry.pointsChange : 0);
  return { task: fromColumns(tasks, outcome.task), credits, entryId: entry?.id ?? null };
}

/**
 * Gives a failed task its credits back: one REFUND_TASK row, whatever the number of calls, putting back into
 * each lot what the task's charges took from it. A share that returns to a lot that has expired meanwhile
 * expires again at once (decision "Refund into an expired lot"). Answers the refund row, or null for a task that was
 * never charged.
 */
export function refund(db: Queryable, taskId: string, now = new Date()): Promise<PointsLedgerRow | null> {
  return db.transaction(async (tx) => {
    const [any] = await tx.select({ userId: pointsLedger.userId }).from(pointsLedger).where(eq(pointsLedger.taskId, taskId)).limit(1);
    if (!any) return null;
    const { userId } = any;
    await lockAccount(tx, userId);
    // Read again under the lock: a refund that ran meanwhile is now visible.
    const rows = await tx.select().from(pointsLedger).where(eq(pointsLedger.taskId, taskId));
    const done = rows.find((r) => r.operationType === 'REFUND_TASK');
    if (done) return done;
    const charges = rows.filter((r) => r.pointsChange < 0).map((r) => r.id);
    const taken = await tx
      .select({ lotId: pointsLedgerLots.lotId, points: sql<number>`(-sum(${pointsLedgerLots.pointsChange}))::int` })
      .from(pointsLedgerLots)
      .where(inArray(pointsLedgerLots.ledgerId, charges))
      .groupBy(pointsLedgerLots.lotId);
    const total = taken.reduce((sum, t) => sum + t.points, 0);
    const row = {
      userId,
      referenceId: taskId,
      operationType: 'REFUND_TASK' as const,
      idempotencyKey: `refund:${taskId}`,
      taskId,
      createdAt: now,
    };
    const lotChanges = taken.map((t) => ({ lot: { id: t.lotId }, pointsChange: t.points }));
    const entry = written(await post(tx, row, lotChanges, { available: total, used: -total }));
    const lotIds = taken.map((t) => t.lotId);
    const due = await tx
      .select()
      .from(pointsLots)
      .where(and(inArray(pointsLots.id, lotIds), lte(pointsLots.expiresAt, now), gt(pointsLots.remaining, 0)));
    await expireLots(tx, userId, due, now, `refund:${taskId}`);
    return entry;
  });
}

/**
 * Takes back up to `amount` of what is left in one lot, as one DEDUCTION row (a purchase refunded or a dispute lost:
 * decision "Buying credits"). Only that lot is touched: credits bought since, or earned otherwise, are never taken
 * for it. Answers the credits taken (0 when the lot is spent; a replayed key answers what its row took).
 */
export function takeBack(db: Queryable, userId: string, lotId: number, amount: number, options: GrantOptions): Promise<number> {
  if (!Number.isInteger(amount) || amount < 0) throw new RangeError(`a take-back must be a whole number of credits, not ${amount}`);
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    if (!(await lockAccount(tx, userId))) return 0;
    const replay = await findByKey(tx, userId, options.key);
    if (replay) return -replayOf(replay, 'DEDUCTION', null).pointsChange;
    const [lot] = await tx
      .select()
      .from(pointsLots)
      .where(and(eq(pointsLots.id, lotId), eq(pointsLots.userId, userId)));
    const taken = Math.min(amount, lot?.remaining ?? 0);
    if (!lot || taken === 0) return 0;
    const row = {
      userId,
      referenceId: options.referenceId ?? String(lotId),
      operationType: 'DEDUCTION' as const,
      idempotencyKey: options.key,
      taskId: null,
      createdAt: now,
    };
    written(await post(tx, row, [{ lot, pointsChange: -taken }], { available: -taken, used: taken }));
    return taken;
  });
}

/** The lot a grant made (a grant's row has exactly one lot change). */
export async function lotOfGrant(db: Queryable, entry: Pick<PointsLedgerRow, 'id'>): Promise<number> {
  const [change] = await db.select({ lotId: pointsLedgerLots.lotId }).from(pointsLedgerLots).where(eq(pointsLedgerLots.ledgerId, entry.id));
  if (!change) throw new Error(`ledger row ${entry.id} has no lot`);
  return change.lotId;
}

/** Expires what is left in the user's lots whose expiry has passed; answers the credits expired. */
export function expireDueCredits(db: Queryable, userId: string, now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    if (!(await lockAccount(tx, userId))) return 0;
    const due = await tx
      .select()
      .from(pointsLots)
      .where(and(eq(pointsLots.userId, userId), lte(pointsLots.expiresAt, now), gt(pointsLots.remaining, 0)));
    await expireLots(tx, userId, due, now);
    return due.reduce((sum, lot) => sum + lot.remaining, 0);
  });
}
