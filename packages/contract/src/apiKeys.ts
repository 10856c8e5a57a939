import { z } from 'zod';
import { defineCall } from './call.js';
import { Id, Timestamp } from './common.js';

/** Every key starts so, so a key pasted where it does not belong is recognisable (and secret scanners can find it). */
export const API_KEY_PREFIX = 'rsk_';
/** How many characters of a key are kept in the clear to tell keys apart in lists and logs. */
export const API_KEY_SHOWN_CHARACTERS = 12;
/** Active (not revoked, not expired) keys one user may hold. */
export const API_KEYS_MAX = 20;
export const API_KEY_NAME_MAX = 60;
/** The longest a key may be given to live; a key without expiry lives until revoked. */
export const API_KEY_EXPIRY_DAYS_MAX = 365;

/** A key as lists show it: never the key itself, which is shown once, when created (decision "API keys"). */
export const ApiKey = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, e.g. `rsk_3kP9xQ2a`: what lists and the server's logs call it. */
  prefix: z.string(),
  createTime: Timestamp,
  expireTime: Timestamp.nullable(),
  lastUsedTime: Timestamp.nullable(),
  revokeTime: Timestamp.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** Answers the new key once: only its hash is kept, so it cannot be shown again. */
export const apiKeyCreate = defineCall({
  method: 'POST',
  path: '/apiKey/create',
  access: 'active',
  body: z.strictObject({
    name: z.string().trim().min(1).max(API_KEY_NAME_MAX),
    /** Days until the key stops working; absent or null: until revoked. */
    expiresInDays: z.number().int().min(1).max(API_KEY_EXPIRY_DAYS_MAX).nullable().optional(),
  }),
  data: z.object({ key: z.string(), apiKey: ApiKey }),
});

/** The user's keys, newest first, revoked ones included so their prefix can still be traced in logs. */
export const apiKeyList = defineCall({
  method: 'GET',
  path: '/apiKey/list',
  access: 'active',
  data: z.object({ list: z.array(ApiKey) }),
});

/** Revoking is at once and for good: the next call with the key is refused. Revoking a revoked key changes nothing. */
export const apiKeyRevoke = defineCall({
  method: 'POST',
  path: '/apiKey/revoke',
  access: 'active',
  body: z.strictObject({ id: Id }),
  data: ApiKey,
});
