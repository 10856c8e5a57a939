import type { UserStatus } from '@reelsmith/contract';
import { eq, sql } from 'drizzle-orm';
import { type UserRow, users } from '../../db/schema.js';
import { endSessionsOf } from '../auth/sessions.js';
import type { UserDeps } from './service.js';

/**
 * The operator's `users status` (docs/decisions, "An operator's block"). INACTIVE blocks the user: INACTIVE with
 * `blocked_at` set, which neither activation nor sign-in lifts, and every session of the user ends in the same
 * transaction. ACTIVE lifts a block and activates. Answers the user, or undefined when no user has this e-mail.
 */
export async function setStatus(deps: UserDeps, email: string, status: UserStatus): Promise<UserRow | undefined> {
  const blocking = status === 'INACTIVE';
  const row = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      // A second INACTIVE keeps the moment of the first.
      .set({ status, blockedAt: blocking ? sql`coalesce(${users.blockedAt}, now())` : null })
      .where(eq(users.email, email.toLowerCase()))
      .returning();
    if (row && blocking) await endSessionsOf(tx, row.id);
    return row;
  });
  if (row) deps.sessions.forgetUser(row.id);
  return row;
}
