import { randomInt, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, isNull, lt, ne, notExists, or, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.js';
import { inviteCodes, inviteRedemptions, users } from '../../db/schema.js';

/** No 0/O, 1/I/L: codes are read aloud and typed by hand. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 10;
const DAY_MS = 86_400_000;

/**
 * The code the first start creates and prints, so a fresh install can be used at once: 1000 sign-ups,
 * no expiry. The operator makes more (and single-use ones) with `npm run admin -- invites create`.
 */
export const STARTER_INVITE_USES = 1000;

/** Codes are stored upper-case; what the user typed is matched case-insensitively. */
export const normalizeInviteCode = (raw: string) => raw.trim().toUpperCase();

const newCode = () => Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

/** A code with uses left (personal codes have no limit) that has not expired. */
const stillUsable = () =>
  and(
    or(isNull(inviteCodes.maxUses), lt(inviteCodes.uses, inviteCodes.maxUses)),
    or(isNull(inviteCodes.expiresAt), gt(inviteCodes.expiresAt, sql`now()`)),
  );

export interface NewInviteCodes {
  count: number;
  maxUses: number;
  expiresDays?: number | undefined;
}

export async function createInviteCodes(db: Queryable, { count, maxUses, expiresDays }: NewInviteCodes): Promise<string[]> {
  const expiresAt = expiresDays ? new Date(Date.now() + expiresDays * DAY_MS) : null;
  const rows = await db
    .insert(inviteCodes)
    .values(Array.from({ length: count }, () => ({ code: newCode(), maxUses, expiresAt })))
    .returning({ code: inviteCodes.code });
  return rows.map((r) => r.code);
}

/** A redeemed code: `ownerUserId` is the inviting user when it was someone's personal code. */
export interface RedeemedCode {
  code: string;
  ownerUserId: string | null;
}

/** A personal code of a user the operator blocked invites no one and earns nothing (docs/decisions, "An operator's block"). */
const ownerNotBlocked = (db: Queryable) =>
  notExists(
    db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, inviteCodes.ownerUserId), isNotNull(users.blockedAt))),
  );

/**
 * Uses one redemption of a code for a user, or answers undefined when the code does not exist, is used up,
 * has expired, is the user's own personal code or a blocked user's. The check and the increment are one
 * conditional UPDATE, so concurrent redemptions of the last use cannot both succeed.
 */
export async function redeemInviteCode(tx: Queryable, code: string, userId: string): Promise<RedeemedCode | undefined> {
  const [redeemed] = await tx
    .update(inviteCodes)
    .set({ uses: sql`${inviteCodes.uses} + 1` })
    .where(
      and(
        eq(inviteCodes.code, code),
        stillUsable(),
        or(isNull(inviteCodes.ownerUserId), and(ne(inviteCodes.ownerUserId, userId), ownerNotBlocked(tx))),
      ),
    )
    .returning({ code: inviteCodes.code, ownerUserId: inviteCodes.ownerUserId });
  if (!redeemed) return undefined;
  await tx.insert(inviteRedemptions).values({ id: randomUUID(), code, userId });
  return redeemed;
}

/**
 * A user's personal referral code, made on first use: unlimited uses, no expiry. The unique index on the
 * owner makes two first uses at once agree on one code.
 */
export async function personalInviteCode(db: Queryable, userId: string): Promise<string> {
  const [existing] = await db.select({ code: inviteCodes.code }).from(inviteCodes).where(eq(inviteCodes.ownerUserId, userId)).limit(1);
  if (existing) return existing.code;
  await db
    .insert(inviteCodes)
    .values({ code: newCode(), ownerUserId: userId, maxUses: null })
    .onConflictDoNothing({ target: inviteCodes.ownerUserId });
  return personalInviteCode(db, userId);
}

/**
 * The invitation code to print at start-up: on a database without any code, a new starter code; otherwise
 * the newest operator code that can still be used, if any.
 */
export async function starterInviteCode(db: Db): Promise<string | undefined> {
  const [any] = await db.select({ code: inviteCodes.code }).from(inviteCodes).limit(1);
  if (!any) return (await createInviteCodes(db, { count: 1, maxUses: STARTER_INVITE_USES }))[0];
  const [usable] = await db
    .select({ code: inviteCodes.code })
    .from(inviteCodes)
    .where(and(isNull(inviteCodes.ownerUserId), stillUsable()))
    .orderBy(desc(inviteCodes.createdAt))
    .limit(1);
  return usable?.code;
}
