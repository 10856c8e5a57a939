// One attempt at a delivery: a POST under the outbound fetcher's rules (decision "Webhooks"). The URL's host is
// resolved and every address checked (private, loopback, metadata … refused unless OUTBOUND_ALLOW_HOSTS allows),
// the connection goes to the checked address, redirects are never followed (a 3xx is a failed attempt: following
// one would let a public receiver point the product at a private address), the whole attempt is bounded in time,
// and of the answer only a short excerpt is kept for the delivery log.
import type { IncomingMessage } from 'node:http';
import { OutboundError } from '../../outbound/errors.js';
import { send } from '../../outbound/fetcher.js';
import { type Lookup, resolveHop, systemLookup } from '../../outbound/target.js';

export interface SendRules {
  /** OUTBOUND_ALLOW_HOSTS, as `host:port` entries. */
  allowHosts: readonly string[];
  /** The whole attempt: resolving, connecting, the answer's headers and its excerpt. */
  timeoutMs: number;
  lookup?: Lookup;
}

export interface Attempt {
  ok: boolean;
  /** The receiver's status; null when it never answered. */
  statusCode: number | null;
  latencyMs: number;
  /** Why it failed, for the developer reading the log; null on success. */
  error: string | null;
}

/** What of an answer's body is kept: enough to read a receiver's error message, never a whole page. */
const EXCERPT_BYTES = 300;

/** The start of the answer's body, then the connection is dropped. */
async function excerptOf(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= EXCERPT_BYTES) break;
    }
  } catch {
    // A body that breaks off is still an answer; the excerpt is what arrived.
  }
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8').replace(/\s+/g, ' ').trim();
}

export async function postEvent(url: string, body: string, headers: Record<string, string>, rules: SendRules): Promise<Attempt> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const deadline = AbortSignal.timeout(rules.timeoutMs);
  const allowHosts = new Set(rules.allowHosts.map((entry) => entry.toLowerCase()));
  let statusCode: number | null = null;
  try {
    const target = new URL(url);
    const hop = await resolveHop(target, { allowHosts, lookup: rules.lookup ?? systemLookup, signal: deadline });
    const allHeaders = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'Reelsmith-Webhooks/1',
      ...headers,
    };
    const response = await send(target, hop, allHeaders, deadline, rules.timeoutMs, body);
    const latencyMs = elapsed();
    statusCode = response.statusCode ?? 0;
    try {
      if (statusCode >= 200 && statusCode <= 299) return { ok: true, statusCode, latencyMs, error: null };
      if (statusCode >= 300 && statusCode <= 399) {
        const location = String(response.headers.location ?? '').slice(0, 200);
        return { ok: false, statusCode, latencyMs, error: `HTTP ${statusCode}: redirects are not followed (Location: ${location})` };
      }
      const excerpt = await excerptOf(response);
      return { ok: false, statusCode, latencyMs, error: `HTTP ${statusCode}${excerpt ? `: ${excerpt}` : ''}` };
    } finally {
      response.destroy();
    }
  } catch (error) {
    const latencyMs = elapsed();
    const timedOut = deadline.aborted || (error instanceof OutboundError && error.reason === 'timeout');
    if (timedOut) return { ok: false, statusCode, latencyMs, error: `No answer within ${rules.timeoutMs} ms` };
    if (error instanceof OutboundError) return { ok: false, statusCode, latencyMs, error: error.message };
    const detail = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { ok: false, statusCode, latencyMs, error: `The connection failed (${detail})` };
  }
}
