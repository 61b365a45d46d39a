/**
 * The SSRF address rule: which IP addresses an outbound fetch may connect to, and the operator's
 * allowlist (`FOLIO_FETCH_ALLOW`) that lifts the rule for what it names.
 *
 * Only global unicast addresses pass. Refused: loopback, RFC 1918 private, link-local (which
 * holds the 169.254.169.254 cloud metadata address), RFC 6598 CGNAT, multicast, broadcast,
 * unspecified, RFC 5735/5737 reserved and benchmarking ranges; IPv6 loopback, unique-local
 * (RFC 4193 fc00::/7), link-local (fe80::/10), multicast, site-local, discard, Teredo and the
 * documentation ranges. IPv6 forms that embed an IPv4 address are judged by that IPv4 address:
 * IPv4-mapped (RFC 4291 §2.5.5.2), IPv4-compatible (::a.b.c.d), NAT64 (RFC 6052 64:ff9b::/96)
 * and 6to4 (RFC 3056 2002::/16).
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Parses a literal IP (no brackets); undefined when `host` is not one. */
export function parseIp(host: string): Address | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  // `ipaddr.isValid` accepts legacy shorthand ("127.1"); only full literals are IP hosts here,
  // the WHATWG URL parser has already normalized every other IPv4 spelling to four parts.
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  if (bare.includes(':') && ipaddr.IPv6.isValid(bare)) return ipaddr.IPv6.parse(bare.replace(/%.*$/, ''));
  return undefined;
}

/** The IPv4 address an IPv6 address stands for, when it embeds one. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = v6.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  // IPv4-compatible ::a.b.c.d (RFC 4291 §2.5.5.1, deprecated but still routed by some stacks).
  if (p.slice(0, 6).every((x) => x === 0) && !(p[6] === 0 && p[7] === 1) && !(p[6] === 0 && p[7] === 0)) return v4(p[6] ?? 0, p[7] ?? 0);
  // NAT64 well-known prefix (RFC 6052 §2.1): the IPv4 address is the last 32 bits.
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0)) return v4(p[6] ?? 0, p[7] ?? 0);
  // 6to4 (RFC 3056 §2): 2002:V4ADDR::/48.
  if (p[0] === 0x2002) return v4(p[1] ?? 0, p[2] ?? 0);
  return undefined;
}

/** Why an address is refused (a range name a person understands), or undefined when it may be used. */
export function blockedReason(address: Address | string): string | undefined {
  const ip = typeof address === 'string' ? parseIp(address) : address;
  if (!ip) return 'not an IP address';
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    const v4 = embeddedIPv4(v6);
    if (v4) {
      const inner = blockedReason(v4);
      return inner === undefined ? undefined : `${inner} (embedded in an IPv6 address)`;
    }
    const range = v6.range();
    return range === 'unicast' ? undefined : describeRange(range);
  }
  const range = (ip as ipaddr.IPv4).range();
  return range === 'unicast' ? undefined : describeRange(range);
}

function describeRange(range: string): string {
  switch (range) {
    case 'loopback':
      return 'a loopback address';
    case 'private':
      return 'a private network address';
    case 'uniqueLocal':
      return 'a unique-local (private) IPv6 address';
    case 'linkLocal':
      return 'a link-local address (this range holds cloud metadata services)';
    case 'carrierGradeNat':
      return 'a carrier-grade NAT address';
    case 'multicast':
      return 'a multicast address';
    case 'broadcast':
      return 'the broadcast address';
    case 'unspecified':
      return 'the unspecified address';
    default:
      return `a reserved address (${range})`;
  }
}

/**
 * FOLIO_FETCH_ALLOW: `host` (any port), `host:port`, `[v6]:port` or a CIDR (`10.0.0.0/8`,
 * `fd00::/8`; a bare IP is a /32 or /128). A host entry lifts the address rule for URLs with
 * that host name, whatever it resolves to; a CIDR lifts it for resolved or literal addresses in
 * the range, on any port; a host:port only for that port.
 */
export interface AllowList {
  /** The URL's host (lower-case, IPv6 without brackets) and port are named by an entry. */
  allowsHost(hostname: string, port: number): boolean;
  /** The address falls in an allowed CIDR. */
  allowsAddress(address: string): boolean;
  readonly empty: boolean;
}

interface HostEntry {
  host: string;
  port?: number;
}

export function parseAllowList(entries: readonly string[]): AllowList {
  const hosts: HostEntry[] = [];
  const cidrs: [Address, number][] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry.includes('/')) {
      try {
        cidrs.push(ipaddr.parseCIDR(entry));
      } catch {
        throw new Error(`FOLIO_FETCH_ALLOW: '${raw}' is not a valid CIDR range.`);
      }
      continue;
    }
    const ip = parseIp(entry);
    if (ip) {
      cidrs.push([ip, ip.kind() === 'ipv4' ? 32 : 128]);
      continue;
    }
    const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(entry);
    const hostPort = bracketed ?? /^([^:]+):(\d+)$/.exec(entry);
    if (hostPort) {
      const port = Number(hostPort[2]);
      if (port < 1 || port > 65535) throw new Error(`FOLIO_FETCH_ALLOW: '${raw}' has an invalid port.`);
      hosts.push({ host: hostPort[1] ?? '', port });
      continue;
    }
    if (!/^[a-z0-9.-]+$/.test(entry)) throw new Error(`FOLIO_FETCH_ALLOW: '${raw}' is not a host, host:port or CIDR.`);
    hosts.push({ host: entry });
  }
  return {
    empty: hosts.length === 0 && cidrs.length === 0,
    allowsHost(hostname, port) {
      const h = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
      return hosts.some((e) => e.host === h && (e.port === undefined || e.port === port));
    },
    allowsAddress(address) {
      const ip = parseIp(address);
      if (!ip) return false;
      return cidrs.some(([range, bits]) => {
        // An IPv4-mapped address matches IPv4 ranges as its IPv4 form.
        const candidate = ip.kind() === 'ipv6' && range.kind() === 'ipv4' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
        return candidate.kind() === range.kind() && candidate.match(range, bits);
      });
    },
  };
}
