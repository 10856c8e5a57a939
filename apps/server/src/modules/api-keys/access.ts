// How a public API call proves who it acts for (decision "Public API"): `Authorization: Bearer <key>` only. The
// session cookie is never read here, so a page elsewhere cannot make a signed-in browser call the public API.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { resolveApiKey } from './keys.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key a public API call came with, once checked: its id and the prefix its logs carry. */
    apiKey?: { id: string; prefix: string };
  }
}

const WINDOW_MS = 60_000;

/**
 * At most `max` calls per key per minute, over all public calls together, in this process (a fixed window:
 * cheap, and a burst at a window's edge is bounded by twice the limit). Not @fastify/rate-limit: its per-route
 * limits keep a store per route, so a key would get the allowance once for each of the public calls.
 */
export class KeyRateLimit {
  readonly #windows = new Map<string, { start: number; used: number }>();

  constructor(private readonly max: number) {}

  /** Counts one call; answers how many are left in the window and when it resets, or throws rateLimited. */
  take(keyId: string, reply: FastifyReply, now = Date.now()): void {
    let window = this.#windows.get(keyId);
    if (!window || now - window.start >= WINDOW_MS) {
      if (this.#windows.size > 10_000) this.#sweep(now);
      window = { start: now, used: 0 };
      this.#windows.set(keyId, window);
    }
    const resetSeconds = Math.ceil((window.start + WINDOW_MS - now) / 1000);
    reply.header('x-ratelimit-limit', this.max).header('x-ratelimit-reset', resetSeconds);
    if (window.used >= this.max) {
      reply.header('x-ratelimit-remaining', 0).header('retry-after', resetSeconds);
      throw new AppError('rateLimited');
    }
    window.used++;
    reply.header('x-ratelimit-remaining', this.max - window.used);
  }

  #sweep(now: number): void {
    for (const [id, window] of this.#windows) if (now - window.start >= WINDOW_MS) this.#windows.delete(id);
  }
}

const BEARER = /^Bearer\s+(\S+)$/i;

/** Checks a public call's key and sets the user it acts as; an unusable key is refused before anything runs. */
export function createKeyAccess(db: Db, perMinute: number) {
  const limit = new KeyRateLimit(perMinute);
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const key = BEARER.exec(req.headers.authorization ?? '')?.[1];
    const holder = key ? await resolveApiKey(db, key) : null;
    if (!holder) throw new AppError('invalidApiKey');
    req.user = holder.user;
    req.apiKey = { id: holder.keyId, prefix: holder.prefix };
    // Every later line of this request's log names the key, never the key itself.
    req.log = req.log.child({ apiKey: holder.prefix, userId: holder.user.userId });
    limit.take(holder.keyId, reply);
  };
}
