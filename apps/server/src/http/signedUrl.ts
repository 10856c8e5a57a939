import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Links that carry their own authority: a path, a few named fields and an expiry, signed with the server secret.
 * The browser can fetch them without the session cookie or the client header (an <img>, a download, a draft
 * fetch), yet nobody can forge, re-point or extend one (decision "Signed links").
 *
 * Each kind of link declares its fields up front. The MAC covers a JSON array of the path, the field names, the
 * expiry and the fields' values in their declared order, so no value can be cut differently between fields (a download name of
 * `x&key=…` stays a download name). A query with any other parameter, a repeated one, a missing one or an expiry
 * further away than the link's lifetime is refused before the MAC is even compared.
 */
export interface SignedLink<F extends string, O extends string> {
  /** The link's path and query. */
  sign(values: Record<F, string> & Partial<Record<O, string>>): string;
  /** The fields and expiry of a valid, unexpired link's query; null for anything else. */
  verify(query: unknown): (Record<F, string> & Partial<Record<O, string>> & { expires: number }) | null;
}

export interface LinkShape<F extends string, O extends string> {
  fields: readonly F[];
  optional?: readonly O[];
  /** How long a link lives. A link whose expiry lies further away than this is refused, however it was signed. */
  ttlMs: number;
}

export interface UrlSigner {
  link<F extends string, O extends string = never>(path: string, shape: LinkShape<F, O>): SignedLink<F, O>;
}

/**
 * Processes behind one load balancer sign and verify each other's links: a clock a little ahead of another's must
 * not refuse a link that was just made.
 */
const CLOCK_SKEW_MS = 5 * 60_000;
/** Milliseconds since the epoch, as written by `sign`: digits only, no sign, fraction or exponent. */
const EXPIRES = /^[1-9][0-9]{0,15}$/;
const RESERVED = ['expires', 'signature'];

export function createUrlSigner(secret: string, now: () => number = Date.now): UrlSigner {
  return {
    link<F extends string, O extends string = never>(path: string, shape: LinkShape<F, O>): SignedLink<F, O> {
      const names: string[] = [...shape.fields, ...(shape.optional ?? [])];
      if (names.some((name) => RESERVED.includes(name))) throw new Error(`a signed link cannot have a field named ${names}`);
      const allowed = new Set([...names, ...RESERVED]);
      const mac = (expires: number, values: Record<string, string | undefined>) =>
        createHmac('sha256', secret)
          .update(JSON.stringify([path, names, expires, ...names.map((name) => values[name] ?? null)]))
          .digest('base64url');

      return {
        sign(values) {
          const expires = now() + shape.ttlMs;
          const present = Object.fromEntries(
            names.flatMap((name) => {
              const value = (values as Record<string, string | undefined>)[name];
              return value === undefined ? [] : [[name, value]];
            }),
          );
          return `${path}?${new URLSearchParams({ ...present, expires: String(expires), signature: mac(expires, present) })}`;
        },
        verify(query) {
          if (typeof query !== 'object' || query === null) return null;
          const entries = Object.entries(query);
          // Repeated parameters arrive as arrays: refused with anything that is not one plain string.
          if (entries.some(([name, value]) => !allowed.has(name) || typeof value !== 'string')) return null;
          const given = Object.fromEntries(entries) as Record<string, string>;
          if (shape.fields.some((name) => given[name] === undefined)) return null;
          const { expires: expiresText, signature } = given;
          if (!expiresText || !signature || !EXPIRES.test(expiresText)) return null;
          const expires = Number(expiresText);
          const at = now();
          if (!(expires > at) || expires > at + shape.ttlMs + CLOCK_SKEW_MS) return null;
          const expected = Buffer.from(mac(expires, given));
          const offered = Buffer.from(signature);
          if (offered.length !== expected.length || !timingSafeEqual(offered, expected)) return null;
          const values = Object.fromEntries(names.flatMap((name) => (given[name] === undefined ? [] : [[name, given[name]]])));
          return { ...values, expires } as Record<F, string> & Partial<Record<O, string>> & { expires: number };
        },
      };
    },
  };
}
