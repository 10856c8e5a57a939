/**
 * Which IP addresses an outbound fetch may not reach (design "Contract details"): anything that is not a public unicast
 * address, so that a link a user submits cannot make the server talk to itself, its network or the cloud
 * metadata service. Used by `target.ts` on every address a hop resolves to.
 */
import { isIPv4, isIPv6 } from 'node:net';

interface Range {
  bits: 32 | 128;
  network: bigint;
  prefix: number;
  /** Named in the refusal message, e.g. "127.0.0.1 is not a public address (loopback)". */
  kind: string;
}

function range(cidr: string, kind: string): Range {
  const [address = '', prefix = ''] = cidr.split('/');
  const bits = isIPv4(address) ? 32 : 128;
  return { bits, network: toBigInt(address), prefix: Number(prefix), kind };
}

// The first match names the kind, so the narrower ranges come before the ranges that hold them.
const IPV4_RANGES: Range[] = [
  range('169.254.169.254/32', 'cloud metadata'),
  range('255.255.255.255/32', 'broadcast'),
  range('0.0.0.0/8', '"this network"'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'shared (carrier-grade NAT)'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'IETF protocol assignment'),
  range('192.0.2.0/24', 'documentation'),
  range('192.88.99.0/24', '6to4 relay'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'),
];

const IPV6_RANGES: Range[] = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  // The deprecated IPv4-compatible form (::a.b.c.d) is not routed as IPv4; nothing public lives here.
  range('::/96', 'IPv4-compatible'),
  range('2001:db8::/32', 'documentation'),
  range('fc00::/7', 'unique local (private)'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local'),
  range('ff00::/8', 'multicast'),
];

/**
 * IPv6 forms that carry an IPv4 address the packets end up at; that address is checked as IPv4.
 * `shift` is how far the IPv4 address sits from the low end of the 128 bits.
 */
const EMBEDDED_IPV4: { range: Range; shift: bigint }[] = [
  { range: range('::ffff:0:0/96', 'IPv4-mapped'), shift: 0n },
  { range: range('64:ff9b::/96', 'NAT64'), shift: 0n },
  { range: range('2002::/16', '6to4'), shift: 80n },
];

/** The kind of non-public range `address` (an IPv4 or IPv6 literal) is in, or undefined for a public address. */
export function blockedKind(address: string): string | undefined {
  // A scope id (fe80::1%eth0) only picks the interface.
  const bare = address.replace(/%.*$/, '');
  if (isIPv4(bare)) return kindIn(IPV4_RANGES, toBigInt(bare), 32);
  if (!isIPv6(bare)) return 'malformed';
  const value = toBigInt(bare);
  for (const { range: embedding, shift } of EMBEDDED_IPV4) {
    if (inRange(embedding, value)) return kindIn(IPV4_RANGES, (value >> shift) & 0xffff_ffffn, 32);
  }
  return kindIn(IPV6_RANGES, value, 128);
}

/** `localhost` and its subdomains always mean this machine (RFC 6761), whatever DNS says. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

function kindIn(ranges: Range[], value: bigint, bits: 32 | 128): string | undefined {
  return ranges.find((r) => r.bits === bits && inRange(r, value))?.kind;
}

function inRange(r: Range, value: bigint): boolean {
  const hostBits = BigInt(r.bits - r.prefix);
  return value >> hostBits === r.network >> hostBits;
}

/** An IPv4 or IPv6 literal as an unsigned number; callers have checked that it is one. */
function toBigInt(address: string): bigint {
  if (isIPv4(address)) return address.split('.').reduce((value, octet) => (value << 8n) | BigInt(octet), 0n);
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part ? part.split(':').flatMap(hextets) : []);
  const high = groups(head);
  const low = tail === undefined ? [] : groups(tail);
  const all = [...high, ...Array<number>(8 - high.length - low.length).fill(0), ...low];
  return all.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

/** One group of an IPv6 literal; a trailing dotted IPv4 (::ffff:1.2.3.4) is two. */
function hextets(group: string): number[] {
  if (!group.includes('.')) return [Number.parseInt(group, 16)];
  const value = Number(toBigInt(group));
  return [value >>> 16, value & 0xffff];
}
