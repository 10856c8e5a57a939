import { REFERRAL_FRIEND_CREDITS, SIGNUP_CREDIT_DAYS } from '@reelsmith/contract';
import type { Queryable } from '../../db/client.js';
import { grant } from './ledger.js';

const DAY_MS = 86_400_000;

export interface SignupGrant {
  /** SIGNUP_CREDITS of the settings. */
  signupCredits: number;
  /** Activated with a friend's personal code: the referral programme promises at least 100 credits. */
  referred: boolean;
  now: Date;
}

/**
 * The sign-up grant of an activation: SIGNUP credits valid for SIGNUP_CREDIT_DAYS. A referred friend's "100
 * credits on sign-up" is this same grant, raised to REFERRAL_FRIEND_CREDITS if the setting is lower
 * (decision "Sign-up grant"). Keyed by the user, so a user activated again is not granted twice.
 */
export async function grantSignupCredits(db: Queryable, userId: string, { signupCredits, referred, now }: SignupGrant) {
  const amount = referred ? Math.max(signupCredits, REFERRAL_FRIEND_CREDITS) : signupCredits;
  if (amount === 0) return;
  await grant(db, userId, amount, 'SIGNUP', {
    key: `signup:${userId}`,
    expiresAt: new Date(now.getTime() + SIGNUP_CREDIT_DAYS * DAY_MS),
    now,
  });
}
