// The signature of a webhook delivery (decision "Webhooks"), Stripe's scheme: `Reelsmith-Signature: t=<unix seconds>,
// v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. The timestamp is inside what is signed, so a receiver that
// refuses old timestamps cannot be sent a recorded delivery again later.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new endpoint's signing secret; the prefix tells it apart from other keys a developer keeps. */
export const newSigningSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

const hmac = (secret: string, timestamp: number, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/** The header value for this body, signed now (or at `timestamp`, unix seconds). */
export function signatureHeader(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

/**
 * What a receiver does (the README's example is this in a few lines): the header's `v1` matches the body signed at
 * its `t`, and `t` is within `toleranceSeconds` of now.
 */
export function verifySignature(
  secret: string,
  header: string | undefined,
  body: string,
  { toleranceSeconds = 300, now = Date.now() } = {},
): boolean {
  if (!header) return false;
  const parts = new Map(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1');
  if (!Number.isInteger(timestamp) || !given || Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(hmac(secret, timestamp, body), 'hex');
  const actual = Buffer.from(given, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
