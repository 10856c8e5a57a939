/**
 * The storage quota's ledger (docs/decisions, "Storage quota"): one `stored_objects` row per object under a user's
 * prefix, with its size. A row is written before the bytes are stored, in a transaction that takes the owner's
 * advisory lock and checks the owner's sum against the quota, so two puts at once cannot both squeeze into the
 * last room; it is removed once the object is deleted. A user's use is the sum of their rows: exact by
 * construction, and read from the index alone.
 */
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { type StoredObjectRow, storedObjects } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { megabytes } from './formats.js';

export type ObjectKind = StoredObjectRow['kind'];

const KIND_OF_FOLDER: Record<string, ObjectKind> = { upload: 'upload', pages: 'page', db: 'record' };

/** The owner and kind of a key under `u/<userId>/`, or undefined for a key of no user (the health check's). */
export function ownerOf(key: string): { userId: string; kind: ObjectKind } | undefined {
  const match = /^u\/([^/]+)\/(?:(upload|pages|db)\/)?/.exec(key);
  if (!match?.[1]) return undefined;
  return { userId: match[1], kind: KIND_OF_FOLDER[match[2] ?? ''] ?? 'file' };
}

/**
 * The quota's key of a record: a row of the database that a user's data fills (decision "Storage quota"), under
 * `u/<userId>/db/`, a folder no stored object is ever put in.
 */
export const recordKey = (userId: string, what: 'draft', id: string) => `u/${userId}/db/${what}/${id}`;

/** The bytes a user holds (and has reserved for uploads under way). */
export async function usedBytes(db: Queryable, userId: string): Promise<number> {
  const [row] = await db
    .select({ used: sql<number>`coalesce(sum(${storedObjects.size}), 0)`.mapWith(Number) })
    .from(storedObjects)
    .where(eq(storedObjects.userId, userId));
  return row?.used ?? 0;
}

/** The refusal of a put that does not fit, saying how full the storage is. */
export const quotaExceeded = (usedBytes: number, quotaBytes: number) =>
  new AppError('storageQuotaExceeded', { usedMb: megabytes(usedBytes), quotaMb: megabytes(quotaBytes) });

/** What a key held before a `hold`, so a put that then fails can put it back. */
export type Previous = Pick<StoredObjectRow, 'size' | 'pending'> | null;

/**
 * Records `size` bytes at `key` if its owner's quota has room (the key's own earlier size does not count), or
 * throws storageQuotaExceeded. Answers what the key held before.
 */
export async function hold(db: Queryable, quotaBytes: number, key: string, size: number, { pending = false } = {}): Promise<Previous> {
  const owner = ownerOf(key);
  if (!owner) throw new Error(`Not a user's key: ${key}`);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`stored_objects:${owner.userId}`}, 0))`);
    const [previous] = await tx
      .select({ size: storedObjects.size, pending: storedObjects.pending })
      .from(storedObjects)
      .where(eq(storedObjects.key, key));
    const [others] = await tx
      .select({ used: sql<number>`coalesce(sum(${storedObjects.size}), 0)`.mapWith(Number) })
      .from(storedObjects)
      .where(and(eq(storedObjects.userId, owner.userId), ne(storedObjects.key, key)));
    const used = others?.used ?? 0;
    if (used + size > quotaBytes) throw quotaExceeded(used, quotaBytes);
    await tx
      .insert(storedObjects)
      .values({ key, userId: owner.userId, kind: owner.kind, size, pending })
      .onConflictDoUpdate({ target: storedObjects.key, set: { size, pending } });
    return previous ?? null;
  });
}

/** Puts a key back as it was before a `hold` whose object was not stored after all. */
export async function restore(db: Queryable, key: string, previous: Previous): Promise<void> {
  if (previous) await db.update(storedObjects).set(previous).where(eq(storedObjects.key, key));
  else await db.delete(storedObjects).where(eq(storedObjects.key, key));
}

/** Sets a key to the size its object measured (less than or equal to what it held), no longer pending. */
export async function settle(db: Queryable, key: string, size: number): Promise<void> {
  await db.update(storedObjects).set({ size, pending: false }).where(eq(storedObjects.key, key));
}

/** Forgets keys whose objects are gone. */
export async function release(db: Queryable, keys: readonly string[]): Promise<void> {
  if (keys.length) await db.delete(storedObjects).where(inArray(storedObjects.key, [...keys]));
}

/** The row of a key, or undefined. */
export async function heldAt(db: Queryable, key: string): Promise<StoredObjectRow | undefined> {
  const [row] = await db.select().from(storedObjects).where(eq(storedObjects.key, key));
  return row;
}
