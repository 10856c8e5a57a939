import { randomUUID } from 'node:crypto';
import type { User } from '@reelsmith/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { type UserRow, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { endSessionsOf } from '../auth/sessions.js';
import { findUserByEmail, toUser, type UserDeps } from './service.js';

const USERNAME_MAX = 64;

const usernameFrom = (email: string) => email.split('@')[0]?.slice(0, USERNAME_MAX) || email.slice(0, USERNAME_MAX);

/** What an OpenID Connect provider's verified ID token says about the person signing in. */
export interface OidcProfile {
  /** The token's `iss`, checked by openid-client against the configured issuer. */
  issuer: string;
  sub: string;
  email: string;
  /** Only `email_verified: true` counts; a token that says nothing is unverified. */
  emailVerified: boolean;
  name?: string | undefined;
  picture?: string | undefined;
}

/** An operator's block holds against every way in (docs/decisions, "An operator's block"). */
function refuseBlocked(row: UserRow): void {
  if (row.blockedAt) throw new AppError('accountBlocked');
}

/**
 * The user this identity signs in as: the one keyed by its issuer and subject, else a user from before issuers
 * were kept with the same subject, adopted by this issuer (it came from the issuer this server was configured with).
 */
async function userOfIdentity(tx: Tx, profile: OidcProfile): Promise<UserRow | undefined> {
  const [own] = await tx
    .select()
    .from(users)
    .where(and(eq(users.oidcIssuer, profile.issuer), eq(users.oidcSubject, profile.sub)))
    .for('update');
  if (own) return own;
  const [adopted] = await tx
    .update(users)
    .set({ oidcIssuer: profile.issuer })
    .where(and(isNull(users.oidcIssuer), eq(users.oidcSubject, profile.sub)))
    .returning();
  return adopted;
}

/**
 * OpenID Connect (Google) sign-in, by docs/decisions "Identity: issuer and subject":
 * - the user keyed by the token's issuer and subject signs in, whatever the token says of the e-mail now; the
 *   account's e-mail is not changed by it, and becomes verified when the token vouches for that very address;
 * - an identity seen for the first time needs `email_verified: true`; unverified, it creates, claims and links
 *   nothing (an account pre-hijack);
 * - with a verified address that no user has, it becomes a new INACTIVE user;
 * - with a verified address of a user whose address was verified too, it replaces that user's identity (the
 *   provider has given the address to another account) and every other session of the user ends;
 * - an address that was never verified (dev sign-in) is not joined to it.
 */
export async function signInWithOidc(deps: UserDeps, profile: OidcProfile): Promise<User> {
  const email = profile.email.toLowerCase();
  const { row, linked } = await deps.db.transaction(async (tx) => {
    const own = await userOfIdentity(tx, profile);
    if (own) {
      refuseBlocked(own);
      const vouched = profile.emailVerified && email === own.email;
      const [row] = await tx
        .update(users)
        .set({ avatarUrl: profile.picture ?? own.avatarUrl, emailVerified: own.emailVerified || vouched })
        .where(eq(users.id, own.id))
        .returning();
      return { row: row ?? own, linked: false };
    }
    if (!profile.emailVerified) throw new AppError('emailNotVerified');
    const [holder] = await tx.select().from(users).where(eq(users.email, email)).for('update');
    if (!holder) return { row: await insertUser(tx, profile, email), linked: false };
    refuseBlocked(holder);
    if (!holder.emailVerified) throw new AppError('identityConflict');
    const [row] = await tx
      .update(users)
      .set({ oidcIssuer: profile.issuer, oidcSubject: profile.sub, avatarUrl: profile.picture ?? holder.avatarUrl })
      .where(eq(users.id, holder.id))
      .returning();
    await endSessionsOf(tx, holder.id);
    return { row: row ?? holder, linked: true };
  });
  if (linked) deps.sessions.forgetUser(row.id);
  return toUser(row);
}

async function insertUser(tx: Tx, profile: OidcProfile, email: string): Promise<UserRow> {
  const [row] = await tx
    .insert(users)
    .values({
      id: randomUUID(),
      email,
      username: profile.name?.trim().slice(0, USERNAME_MAX) || usernameFrom(email),
      avatarUrl: profile.picture ?? null,
      oidcIssuer: profile.issuer,
      oidcSubject: profile.sub,
      emailVerified: true,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/**
 * Dev sign-in: the user with this e-mail, created INACTIVE on first sign-in. Development only, and anyone may
 * type any address, so it never enters an account that signs in with an OpenID identity (docs/decisions,
 * "Dev sign-in and Google accounts"), nor a blocked one.
 */
export async function signInWithEmail(db: Db, email: string, username?: string): Promise<User> {
  const normalized = email.toLowerCase();
  const [created] = await db
    .insert(users)
    .values({ id: randomUUID(), email: normalized, username: username ?? usernameFrom(normalized) })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (created) return toUser(created);
  const row = await findUserByEmail(db, normalized);
  if (!row) throw new Error(`user ${normalized} vanished during sign-in`);
  refuseBlocked(row);
  if (row.oidcSubject !== null) throw new AppError('googleAccountOnly');
  return toUser(row);
}
