import type { User } from '@reelsmith/contract';
import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { type UserRow, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { Settings } from '../../settings.js';
import { normalizeInviteCode, type RedeemedCode, redeemInviteCode } from '../invites/service.js';
import { grantSignupCredits } from '../points/signup.js';
import { rewardInviter } from '../referrals/service.js';

/**
 * What the users service needs besides the database: a way to drop cached sessions of a changed user, and
 * the size of the sign-up grant.
 */
export interface UserDeps {
  db: Db;
  sessions: { forgetUser(userId: string): void };
  settings: Pick<Settings, 'signupCredits'>;
}

export const toUser = (row: UserRow): User => ({
  userId: row.id,
  username: row.username,
  email: row.email,
  avatarUrl: row.avatarUrl,
  status: row.status,
});

/** The user with this e-mail (matched whatever its letter case). */
export async function findUserByEmail(db: Db | Tx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row;
}

/**
 * Everything that follows from a user's activation, inside the activation's transaction, so the sign-up
 * credits and the inviter's reward exist exactly when the activation does. The friend's grant comes before
 * the inviter's, so every activation locks the two points accounts in the same order.
 */
async function onActivated(deps: UserDeps, tx: Tx, user: User, redeemed: RedeemedCode): Promise<void> {
  const now = new Date();
  await tx.update(users).set({ status: 'ACTIVE' }).where(eq(users.id, user.userId));
  const referred = redeemed.ownerUserId !== null;
  await grantSignupCredits(tx, user.userId, { signupCredits: deps.settings.signupCredits, referred, now });
  if (redeemed.ownerUserId) await rewardInviter(tx, redeemed.ownerUserId, user.userId, now);
}

/**
 * Activates a user with an invitation code (spec "States and transitions"). A wrong, used-up or expired code answers false; an
 * already active user answers true without using the code. The user row is locked first, so one user's
 * concurrent attempts cannot use two codes.
 */
export async function activate(deps: UserDeps, user: User, rawCode: string): Promise<boolean> {
  const code = normalizeInviteCode(rawCode);
  if (!code) throw new AppError('emptyInviteCode');
  const activated = await deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(users).where(eq(users.id, user.userId)).for('update');
    if (!row) return false;
    // The operator's block is not lifted by any code (docs/decisions, "An operator's block").
    if (row.blockedAt) throw new AppError('accountBlocked');
    if (row.status === 'ACTIVE') return true;
    const redeemed = await redeemInviteCode(tx, code, row.id);
    if (!redeemed) return false;
    await onActivated(deps, tx, toUser(row), redeemed);
    return true;
  });
  deps.sessions.forgetUser(user.userId);
  return activated;
}

export async function listUsers(db: Db): Promise<Array<User & { createdAt: Date; blocked: boolean }>> {
  const rows = await db.select().from(users).orderBy(asc(users.createdAt), asc(users.email));
  return rows.map((row) => ({ ...toUser(row), createdAt: row.createdAt, blocked: row.blockedAt !== null }));
}
