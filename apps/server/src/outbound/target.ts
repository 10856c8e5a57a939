/**
 * Where one hop of an outbound fetch may connect: the URL's scheme is checked, its host resolved once and
 * every address checked, and the fetcher then connects to exactly the address returned here, so a DNS
 * answer that changes between the check and the connection (DNS rebinding) cannot move the request.
 */
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { blockedKind, isLocalhostName } from './addresses.js';
import { OutboundError } from './errors.js';

/** Resolves a host name to all its addresses; injectable so tests can make names point anywhere. */
export type Lookup = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

export const systemLookup: Lookup = (hostname) => dns.lookup(hostname, { all: true });

export interface Target {
  /** The URL's host without IPv6 brackets: what the Host header and the TLS server name carry. */
  hostname: string;
  /** The checked address the connection must go to. */
  address: string;
  family: 4 | 6;
}

export interface HopRules {
  /** `host:port` entries (OUTBOUND_ALLOW_HOSTS, lower case) whose hops skip the address check. */
  allowHosts: ReadonlySet<string>;
  lookup: Lookup;
  /** Aborts a lookup that is still running when the fetch's time is up. */
  signal: AbortSignal;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** The URL's host without IPv6 brackets, and whether OUTBOUND_ALLOW_HOSTS lets hops to it skip the address check. */
function hostOf(url: URL, allowHosts: ReadonlySet<string>) {
  const defaultPort = DEFAULT_PORTS[url.protocol];
  if (!defaultPort) throw new OutboundError('protocol', `Only http and https links can be fetched, not ${url.protocol}`);
  // WHATWG URL has already turned numeric hosts (2130706433, 0x7f000001, 0177.0.0.1, 127.1) into dotted quads.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { hostname, allowed: allowHosts.has(`${hostname}:${url.port || defaultPort}`) };
}

const notPublic = (subject: string, kind: string) =>
  new OutboundError('blockedAddress', `${subject} is not a public address (${kind}); outbound fetches may not reach it`);

/**
 * Refuses what the URL itself shows cannot be fetched, without a DNS look-up: another scheme, localhost, or an
 * address written in the URL that is not public. For checks before anything is charged; every hop of the fetch
 * is checked again, names resolved.
 */
export function checkWithoutLookup(url: URL, allowHosts: ReadonlySet<string>): void {
  const { hostname, allowed } = hostOf(url, allowHosts);
  if (allowed) return;
  if (isLocalhostName(hostname)) {
    throw new OutboundError('blockedAddress', `${hostname} is this server (localhost); outbound fetches may not reach it`);
  }
  const kind = isIP(hostname) ? blockedKind(hostname) : undefined;
  if (kind !== undefined) throw notPublic(hostname, kind);
}

/** The address to connect to for `url`, or an OutboundError saying why the hop is refused. */
export async function resolveHop(url: URL, rules: HopRules): Promise<Target> {
  checkWithoutLookup(url, rules.allowHosts);
  const { hostname, allowed } = hostOf(url, rules.allowHosts);
  const family = isIP(hostname);
  const addresses = family ? [{ address: hostname, family }] : await resolve(hostname, rules);
  if (!allowed) {
    for (const { address } of addresses) {
      const kind = blockedKind(address);
      if (kind !== undefined) throw notPublic(`${hostname} resolves to ${address}, which`, kind);
    }
  }
  const [first] = addresses;
  if (!first) throw new OutboundError('dns', `${hostname} has no address`);
  return { hostname, address: first.address, family: first.family === 6 ? 6 : 4 };
}

async function resolve(hostname: string, { lookup, signal }: HopRules): Promise<readonly { address: string; family: number }[]> {
  signal.throwIfAborted();
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([lookup(hostname), aborted]);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new OutboundError('dns', `${hostname} could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'no answer'})`);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
