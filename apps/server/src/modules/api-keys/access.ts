// How a public API call proves who it acts for (decision "Public API"): `Authorization: Bearer <key>` only. The
// session cookie is never read here, so a page elsewhere cannot make a signed-in browser call the public API.

import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Db, type Queryable, queryRows } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { resolveApiKey } from './keys.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key a public API call came with, once checked: its id and the prefix its logs carry. */
    apiKey?: { id: string; prefix: string };
  }
}

/** A fixed window's length: the limit is per key per minute. */
const WINDOW_SECONDS = 60;

/**
 * Counts one call of a key in its current window and answers how many it has made in it, with the seconds until the
 * window ends. The count lives in the database, not in this process (decision "API keys"): operators run several API
 * processes behind a balancer, and a key must get `API_KEY_RATE_LIMIT` over all of them, not that many in each. One
 * statement, an upsert on the key's one row: a window opens at a key's first call and lasts a minute, and the first
 * call after it opens the next from 1, so the table holds one row per key that ever called and nothing to clean
 * up. Times are the database's clock, which every process shares. A fixed window: cheap, and a burst across a
 * window's edge is bounded by twice the limit.
 */
export async function countCall(db: Queryable, keyId: string): Promise<{ used: number; resetSeconds: number }> {
  const window = sql`${WINDOW_SECONDS} * interval '1 second'`;
  const open = sql`w.window_start > now() - ${window}`;
  const [row] = await queryRows<{ used: number; reset_seconds: number }>(
    db,
    sql`insert into api_key_windows as w (key_id, window_start, used)
      values (${keyId}, now(), 1)
      on conflict (key_id) do update set
        used = case when ${open} then w.used + 1 else 1 end,
        window_start = case when ${open} then w.window_start else now() end
      returning w.used, ceil(extract(epoch from w.window_start + ${window} - now()))::int as reset_seconds`,
  );
  if (!row) throw new Error('the rate-limit upsert answered no row');
  return { used: Number(row.used), resetSeconds: Math.max(1, Number(row.reset_seconds)) };
}

/**
 * At most `max` calls per key per minute over all public calls together, counted across processes (`countCall`); the
 * answer says how many are left and when the window resets, and a refusal when to retry. Not @fastify/rate-limit:
 * its per-route limits keep a store per route, so a key would get the allowance once for each of the public calls.
 */
async function takeCall(db: Queryable, keyId: string, max: number, reply: FastifyReply): Promise<void> {
  const { used, resetSeconds } = await countCall(db, keyId);
  reply
    .header('x-ratelimit-limit', max)
    .header('x-ratelimit-remaining', Math.max(0, max - used))
    .header('x-ratelimit-reset', resetSeconds);
  if (used > max) {
    reply.header('retry-after', resetSeconds);
    throw new AppError('rateLimited');
  }
}

const BEARER = /^Bearer\s+(\S+)$/i;

/** Checks a public call's key and sets the user it acts as; an unusable key is refused before anything runs. */
export function createKeyAccess(db: Db, perMinute: number) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const key = BEARER.exec(req.headers.authorization ?? '')?.[1];
    const holder = key ? await resolveApiKey(db, key) : null;
    if (!holder) throw new AppError('invalidApiKey');
    req.user = holder.user;
    req.apiKey = { id: holder.keyId, prefix: holder.prefix };
    // Every later line of this request's log names the key, never the key itself.
    req.log = req.log.child({ apiKey: holder.prefix, userId: holder.user.userId });
    await takeCall(db, holder.keyId, perMinute, reply);
  };
}
