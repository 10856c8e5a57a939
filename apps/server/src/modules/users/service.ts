import { randomUUID } from 'node:crypto';
import type { User, UserStatus } from '@reelsmith/contract';
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

const USERNAME_MAX = 64;

export const toUser = (row: UserRow): User => ({
  userId: row.id,
  username: row.username,
  email: row.email,
  avatarUrl: row.avatarUrl,
  status: row.status,
});

const usernameFrom = (email: string) => email.split('@')[0]?.slice(0, USERNAME_MAX) || email.slice(0, USERNAME_MAX);

/** The user with this e-mail (matched whatever its letter case). */
export async function findUserByEmail(db: Db | Tx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row;
}

/** Dev sign-in: the user with this e-mail, created INACTIVE on first sign-in. */
export async function signInWithEmail(db: Db, email: string, username?: string): Promise<User> {
  const normalized = email.toLowerCase();
  const [created] = await db
    .insert(users)
    .values({ id: randomUUID(), email: normalized, username: username ?? usernameFrom(normalized) })
    .onConflictDoNothing({ target: users.email })
    .returning();
  const row = created ?? (await findUserByEmail(db, normalized));
  if (!row) throw new Error(`user ${normalized} vanished during sign-in`);
  return toUser(row);
}

export interface GoogleProfile {
  sub: string;
  email: string;
  emailVerified: boolean;
  name?: string | undefined;
  picture?: string | undefined;
}

/**
 * Google sign-in: the user linked to this Google account; else the user with the same verified e-mail,
 * now linked; else a new INACTIVE user. The profile picture is refreshed on every sign-in.
 */
export async function signInWithGoogle(db: Db, profile: GoogleProfile): Promise<User> {
  const email = profile.email.toLowerCase();
  return db.transaction(async (tx) => {
    const [linked] = await tx.select().from(users).where(eq(users.googleSub, profile.sub)).limit(1).for('update');
    const sameEmail = linked ? undefined : await findUserByEmail(tx, email);
    const existing = linked ?? (sameEmail && profile.emailVerified ? sameEmail : undefined);
    if (existing) {
      const [row] = await tx
        .update(users)
        .set({ googleSub: profile.sub, avatarUrl: profile.picture ?? existing.avatarUrl })
        .where(eq(users.id, existing.id))
        .returning();
      return toUser(row ?? existing);
    }
    if (sameEmail) throw new AppError('loginFailed');
    const [row] = await tx
      .insert(users)
      .values({
        id: randomUUID(),
        email,
        username: profile.name?.trim().slice(0, USERNAME_MAX) || usernameFrom(email),
        avatarUrl: profile.picture ?? null,
        googleSub: profile.sub,
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return toUser(row);
  });
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
 * Activates a user with an invitation code (spec §4). A wrong, used-up or expired code answers false; an
 * already active user answers true without using the code. The user row is locked first, so one user's
 * concurrent attempts cannot use two codes.
 */
export async function activate(deps: UserDeps, user: User, rawCode: string): Promise<boolean> {
  const code = normalizeInviteCode(rawCode);
  if (!code) throw new AppError('emptyInviteCode');
  const activated = await deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(users).where(eq(users.id, user.userId)).for('update');
    if (!row) return false;
    if (row.status === 'ACTIVE') return true;
    const redeemed = await redeemInviteCode(tx, code, row.id);
    if (!redeemed) return false;
    await onActivated(deps, tx, toUser(row), redeemed);
    return true;
  });
  deps.sessions.forgetUser(user.userId);
  return activated;
}

/** Sets a user's status (admin); answers the user, or undefined when no user has this e-mail. */
export async function setStatus(deps: UserDeps, email: string, status: UserStatus): Promise<User | undefined> {
  const [row] = await deps.db.update(users).set({ status }).where(eq(users.email, email.toLowerCase())).returning();
  if (!row) return undefined;
  deps.sessions.forgetUser(row.id);
  return toUser(row);
}

export async function listUsers(db: Db): Promise<Array<User & { createdAt: Date }>> {
  const rows = await db.select().from(users).orderBy(asc(users.createdAt), asc(users.email));
  return rows.map((row) => ({ ...toUser(row), createdAt: row.createdAt }));
}
