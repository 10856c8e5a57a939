import { createHash, randomBytes } from 'node:crypto';
import type { User } from '@reelsmith/contract';
import { and, eq, gt, isNull, lte } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { sessions, users } from '../../db/schema.js';
import { toUser } from '../users/service.js';

const SESSION_DAYS = 30;

/**
 * How long a looked-up session is trusted without asking the database again. Every signed-in call needs the
 * session, and a database round trip per call would dominate its cost. Sign-out and status changes made in
 * this process clear the cache at once; a change made elsewhere (another API process on the same PostgreSQL,
 * the admin CLI opening the database itself) is seen within this time.
 */
export const SESSION_CACHE_TTL_MS = 5_000;
/** Bounds memory under a flood of distinct valid tokens; the oldest entries go first. */
const CACHE_MAX_ENTRIES = 10_000;

/** 32 random bytes in base64url. Anything else is not one of our tokens and needs no database look-up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

interface CachedSession {
  user: User;
  until: number;
}

/**
 * Signs a user out everywhere, inside the caller's transaction. The caller drops the user's cached sessions with
 * `forgetUser` once that transaction has committed, so no look-up caches what the transaction deleted.
 */
export async function endSessionsOf(tx: Db | Tx, userId: string): Promise<void> {
  await tx.delete(sessions).where(eq(sessions.userId, userId));
}

/** Sessions: a random token in the browser's cookie, only its hash in the database. */
export class SessionStore {
  readonly #cache = new Map<string, CachedSession>();
  /** Look-ups on their way to the database: when a cached session lapses under load, one query serves all callers. */
  readonly #loading = new Map<string, Promise<User | null>>();
  /** Bumped by every change to sessions or users, so a look-up that read the database before it is not cached. */
  #generation = 0;

  constructor(
    private readonly db: Db,
    private readonly cacheTtlMs = SESSION_CACHE_TTL_MS,
  ) {}

  async create(userId: string): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000);
    await this.db.insert(sessions).values({ tokenHash: hashToken(token), userId, expiresAt });
    return { token, expiresAt };
  }

  /** The user a token signs in, or null when the token is unknown or its session has expired. */
  async resolve(token: string | undefined): Promise<User | null> {
    if (!token || !TOKEN_SHAPE.test(token)) return null;
    const tokenHash = hashToken(token);
    const cached = this.#cache.get(tokenHash);
    if (cached && cached.until > Date.now()) return cached.user;
    const pending = this.#loading.get(tokenHash);
    if (pending) return pending;
    const loading = this.#load(tokenHash).finally(() => {
      if (this.#loading.get(tokenHash) === loading) this.#loading.delete(tokenHash);
    });
    this.#loading.set(tokenHash, loading);
    return loading;
  }

  async #load(tokenHash: string): Promise<User | null> {
    const now = Date.now();
    const generation = this.#generation;
    this.#cache.delete(tokenHash);
    const [row] = await this.db
      .select({ user: users, expiresAt: sessions.expiresAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      // A blocked user's sessions are deleted with the block; one a sign-in inserted while the block committed is
      // refused here (docs/decisions, "An operator's block").
      .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, new Date(now)), isNull(users.blockedAt)))
      .limit(1);
    if (!row) return null;
    const user = toUser(row.user);
    if (generation !== this.#generation) return user;
    if (this.#cache.size >= CACHE_MAX_ENTRIES) this.#cache.delete(this.#cache.keys().next().value as string);
    this.#cache.set(tokenHash, { user, until: Math.min(now + this.cacheTtlMs, row.expiresAt.getTime()) });
    return user;
  }

  async revoke(token: string): Promise<void> {
    const tokenHash = hashToken(token);
    await this.db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    this.#changed();
    this.#cache.delete(tokenHash);
  }

  /** Drops cached sessions of a user whose record changed, so the next call reads it afresh. */
  forgetUser(userId: string): void {
    this.#changed();
    for (const [tokenHash, entry] of this.#cache) if (entry.user.userId === userId) this.#cache.delete(tokenHash);
  }

  #changed(): void {
    this.#generation++;
    this.#loading.clear();
  }

  /** Expired sessions are useless; removing them at start-up keeps the table from growing forever. */
  async purgeExpired(): Promise<void> {
    await this.db.delete(sessions).where(lte(sessions.expiresAt, new Date()));
  }
}
