import { randomUUID } from 'node:crypto';
import { REFERRAL_INVITER_CREDITS, REFERRAL_INVITER_MONTHLY_CAP } from '@reelsmith/contract';
import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { inviteCodes, referrals, users } from '../../db/schema.js';
import { personalInviteCode } from '../invites/service.js';
import { grant } from '../points/ledger.js';

/** The invite page lists this many friends, newest first. */
const INVITEES_SHOWN = 200;

/** The calendar month (UTC) a moment falls in, as [start, start of the next). */
function monthOf(now: Date): [Date, Date] {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return [new Date(Date.UTC(year, month, 1)), new Date(Date.UTC(year, month + 1, 1))];
}

async function rewardedInMonth(db: Queryable, inviterUserId: string, now: Date): Promise<number> {
  const [start, end] = monthOf(now);
  const [row] = await db
    .select({ points: sql<number>`coalesce(sum(${referrals.rewardPoints}), 0)::int` })
    .from(referrals)
    .where(and(eq(referrals.inviterUserId, inviterUserId), gte(referrals.createdAt, start), lt(referrals.createdAt, end)));
  return row?.points ?? 0;
}

/**
 * A friend activated with the inviter's personal code: records the referral and rewards the inviter with
 * REFERRAL_INVITER_CREDITS that never expire, while the inviter's rewards this month stay within the cap;
 * beyond it the referral is recorded with reward 0. A friend counts once, however often they are activated.
 */
export async function rewardInviter(tx: Queryable, inviterUserId: string, inviteeUserId: string, now: Date): Promise<void> {
  // One inviter's referrals are serialised on the personal code's row, so two friends activating at once
  // cannot both take the month's last reward.
  await tx.select({ code: inviteCodes.code }).from(inviteCodes).where(eq(inviteCodes.ownerUserId, inviterUserId)).for('update');
  const rewarded = await rewardedInMonth(tx, inviterUserId, now);
  const rewardPoints = rewarded + REFERRAL_INVITER_CREDITS <= REFERRAL_INVITER_MONTHLY_CAP ? REFERRAL_INVITER_CREDITS : 0;
  const [referral] = await tx
    .insert(referrals)
    .values({ id: randomUUID(), inviterUserId, inviteeUserId, rewardPoints, createdAt: now })
    .onConflictDoNothing({ target: referrals.inviteeUserId })
    .returning({ id: referrals.id });
  if (!referral || rewardPoints === 0) return;
  await grant(tx, inviterUserId, rewardPoints, 'REFERRAL_REWARD', { key: `referral:${inviteeUserId}`, referenceId: referral.id, now });
}

/** `a***@example.com`: enough for the inviter to recognise a friend, not enough to harvest addresses. */
export const maskEmail = (email: string) => {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
};

/**
 * How a friend is shown: the username when the friend has one of their own; a username that is just the
 * e-mail's local part (the default at sign-up) would give the address away, so the e-mail is masked instead.
 */
const inviteeName = (username: string, email: string) =>
  username === email.slice(0, email.lastIndexOf('@')) ? maskEmail(email) : username;

/** The invite-friends page: the user's personal code and link, this month's rewards, and the friends who joined. */
export async function referralSummary(db: Queryable, userId: string, publicUrl: string, now = new Date()) {
  const inviteCode = await personalInviteCode(db, userId);
  const monthlyRewarded = await rewardedInMonth(db, userId, now);
  const rows = await db
    .select({ username: users.username, email: users.email, joinedAt: referrals.createdAt, rewardPoints: referrals.rewardPoints })
    .from(referrals)
    .innerJoin(users, eq(users.id, referrals.inviteeUserId))
    .where(eq(referrals.inviterUserId, userId))
    .orderBy(desc(referrals.createdAt), desc(referrals.id))
    .limit(INVITEES_SHOWN);
  return {
    inviteCode,
    inviteLink: `${publicUrl}/account/login?ref=${inviteCode}`,
    monthlyRewarded,
    monthlyCap: REFERRAL_INVITER_MONTHLY_CAP,
    invitees: rows.map((r) => ({
      name: inviteeName(r.username, r.email),
      joinedAt: r.joinedAt.toISOString(),
      rewardPoints: r.rewardPoints,
      capped: r.rewardPoints === 0,
    })),
  };
}
