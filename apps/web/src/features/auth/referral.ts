import { usersActivate } from '@reelsmith/contract';

/** Local storage key of the code a friend's invite link brought (`/account/login?ref=CODE`). */
export const REFERRAL_STORAGE_KEY = 'referralCode';

/** The query parameter of the invite link that carries the inviter's personal code. */
export const REFERRAL_PARAM = 'ref';

/**
 * Keeps the code of an invite link through sign-in, which may leave the app (Google) and come back, so the
 * activation page can offer it: a personal code is a valid invitation code (design "Credits").
 */
export function rememberReferralCode(code: string | null): void {
  const trimmed = code?.trim();
  // What the activation call would refuse outright (an overlong value) is not worth keeping.
  if (trimmed && usersActivate.query.safeParse({ inviteCode: trimmed }).success) localStorage.setItem(REFERRAL_STORAGE_KEY, trimmed);
}

export const storedReferralCode = (): string | null => localStorage.getItem(REFERRAL_STORAGE_KEY);

/** Once the account is active the code has done its work. */
export function forgetReferralCode(): void {
  localStorage.removeItem(REFERRAL_STORAGE_KEY);
}
