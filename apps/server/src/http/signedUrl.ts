import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Links that carry their own authority: a path plus an expiry, signed with the server secret. The browser can
 * fetch them without the session cookie or the client header (an <img>, a download, a draft fetch), yet nobody
 * can forge or extend one.
 */
export interface UrlSigner {
  sign(path: string, params: Record<string, string>, ttlMs?: number): string;
  verify(path: string, query: Record<string, unknown>): Record<string, string> | null;
}

const DEFAULT_TTL_MS = 60 * 60_000;

export function createUrlSigner(secret: string, now: () => number = Date.now): UrlSigner {
  const mac = (path: string, params: Record<string, string>) => {
    const canonical = Object.keys(params)
      .sort()
      .map((k) => `${k}=${params[k]}`)
      .join('&');
    return createHmac('sha256', secret).update(`${path}?${canonical}`).digest('base64url');
  };
  return {
    sign(path, params, ttlMs = DEFAULT_TTL_MS) {
      const signed = { ...params, expires: String(now() + ttlMs) };
      return `${path}?${new URLSearchParams({ ...signed, signature: mac(path, signed) })}`;
    },
    verify(path, query) {
      const { signature, ...rest } = query;
      if (typeof signature !== 'string') return null;
      const params = Object.fromEntries(Object.entries(rest).filter((e): e is [string, string] => typeof e[1] === 'string'));
      if (Object.keys(params).length !== Object.keys(rest).length) return null;
      const expected = Buffer.from(mac(path, params));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      if (!(Number(params.expires) > now())) return null;
      return params;
    },
  };
}
