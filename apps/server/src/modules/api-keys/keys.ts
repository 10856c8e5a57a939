// API keys (decision "API keys"): a random key shown once, only its SHA-256 kept; the first characters stay in
// the clear so lists and logs can name a key without holding it.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { API_KEY_PREFIX, API_KEY_SHOWN_CHARACTERS, API_KEYS_MAX, type ApiKey, type User } from '@reelsmith/contract';
import { and, count, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type ApiKeyRow, apiKeys, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { toUser } from '../users/service.js';

/** `rsk_` and 32 random bytes in base64url. Anything else is not one of our keys and needs no database look-up. */
const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`);
/** Last-used times are written at most this often per key, so a busy key does not write on every call. */
const LAST_USED_RESOLUTION_MS = 60_000;

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

const iso = (date: Date | null) => date?.toISOString() ?? null;

export const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createTime: row.createdAt.toISOString(),
  expireTime: iso(row.expiresAt),
  lastUsedTime: iso(row.lastUsedAt),
  revokeTime: iso(row.revokedAt),
});

/** Not revoked and not expired at `now`. */
const usable = (now: Date) => and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)));

export async function createApiKey(
  db: Db,
  userId: string,
  name: string,
  expiresInDays: number | null | undefined,
): Promise<{ key: string; apiKey: ApiKey }> {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const now = new Date();
  const row = await db.transaction(async (tx) => {
    // The count and the insert in one transaction under the user's row lock, so two creations at once cannot pass the cap together.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [held] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), usable(now)));
    if ((held?.n ?? 0) >= API_KEYS_MAX) throw new AppError('apiKeyLimit', { max: API_KEYS_MAX });
    const [inserted] = await tx
      .insert(apiKeys)
      .values({
        id: randomUUID(),
        userId,
        name,
        prefix: key.slice(0, API_KEY_SHOWN_CHARACTERS),
        keyHash: hashKey(key),
        createdAt: now,
        expiresAt: expiresInDays ? new Date(now.getTime() + expiresInDays * 86_400_000) : null,
      })
      .returning();
    return inserted as ApiKeyRow;
  });
  return { key, apiKey: toApiKey(row) };
}

export async function listApiKeys(db: Db, userId: string): Promise<ApiKey[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(toApiKey);
}

/** Revokes one of the user's keys; another user's key is not found. The first revocation's time is kept. */
export async function revokeApiKey(db: Db, userId: string, id: string): Promise<ApiKey> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
    .returning();
  if (!row) throw new AppError('notFound');
  return toApiKey(row);
}

export interface KeyHolder {
  user: User;
  keyId: string;
  prefix: string;
}

/**
 * The user a key acts as, or null: an unknown, revoked or expired key, or one whose user is not ACTIVE (an
 * INACTIVE or blocked user's keys stop working at once, decision "API keys"). Read from the database on every
 * call, so a revocation or block needs no cache to expire.
 */
export async function resolveApiKey(db: Db, key: string): Promise<KeyHolder | null> {
  if (!KEY_SHAPE.test(key)) return null;
  const now = new Date();
  const [row] = await db
    .select({ user: users, id: apiKeys.id, prefix: apiKeys.prefix, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.keyHash, hashKey(key)), usable(now), eq(users.status, 'ACTIVE'), isNull(users.blockedAt)))
    .limit(1);
  if (!row) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, stale))));
  }
  return { user: toUser(row.user), keyId: row.id, prefix: row.prefix };
}
