/**
 * Connect-time SSRF enforcement. The address rule is applied inside the DNS lookup that the
 * socket itself uses (`net.connect({ lookup })`), so the address checked is the address
 * connected: a name that answers a public address to a first query and 127.0.0.1 to the next
 * (DNS rebinding) is refused when the socket would open. Literal IP hosts never reach a lookup
 * (Node skips it for IPs), so the connector checks them itself before connecting.
 */
import dns from 'node:dns';
import type net from 'node:net';
import { buildConnector } from 'undici';
import { blockedReason, parseIp, type AllowList } from './address-policy.ts';

export type LookupFunction = net.LookupFunction;

/** Raised (inside undici's connect) when an address is refused; mapped to URL_BLOCKED. */
export class BlockedAddressError extends Error {
  readonly hostname: string;
  readonly address: string;
  readonly reason: string;

  constructor(hostname: string, address: string, reason: string) {
    super(hostname === address ? `${address} is ${reason}` : `${hostname} resolves to ${address}, ${reason}`);
    this.name = 'BlockedAddressError';
    this.hostname = hostname;
    this.address = address;
    this.reason = reason;
  }
}

export const systemLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) callback(err, '');
    else if (options.all) callback(null, addresses);
    else callback(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);
  });
};

/** Why `address` may not be used, unless an allowlisted CIDR holds it. */
export function refusal(allow: AllowList, hostname: string, address: string): BlockedAddressError | undefined {
  if (allow.allowsAddress(address)) return undefined;
  const reason = blockedReason(address);
  return reason === undefined ? undefined : new BlockedAddressError(hostname, address, reason);
}

/**
 * A lookup that refuses the whole answer when any address in it is refused: a name mixing a
 * public and a private address must not let the socket fall through to the private one.
 */
export function guardedLookup(base: LookupFunction, allow: AllowList): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, { ...options, all: true }, (err, answer, family) => {
      if (err) {
        callback(err, '');
        return;
      }
      const list: dns.LookupAddress[] = Array.isArray(answer) ? answer : [{ address: answer, family: family ?? (answer.includes(':') ? 6 : 4) }];
      if (list.length === 0) {
        const none: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
        callback(none, '');
        return;
      }
      for (const entry of list) {
        const refused = refusal(allow, hostname, entry.address);
        if (refused) {
          callback(refused, '');
          return;
        }
      }
      if (options.all) callback(null, list);
      else callback(null, list[0]?.address ?? '', list[0]?.family ?? 4);
    });
  };
}

/** Resolves `hostname` through the guarded lookup: every address, or the refusal. */
export function resolveChecked(lookup: LookupFunction, hostname: string): Promise<dns.LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(hostname, { all: true }, (err, answer) => {
      if (err) reject(err);
      else resolve(Array.isArray(answer) ? answer : [{ address: answer, family: answer.includes(':') ? 6 : 4 }]);
    });
  });
}

export interface GuardedConnectorOptions {
  allow: AllowList;
  lookup: LookupFunction;
  rejectUnauthorized: boolean;
  connectTimeoutMs?: number;
}

/** An undici connector that applies the address rule to every socket it opens. */
export function guardedConnector(opts: GuardedConnectorOptions): buildConnector.connector {
  const base = { rejectUnauthorized: opts.rejectUnauthorized, timeout: opts.connectTimeoutMs ?? 10_000 };
  const checked = buildConnector({ ...base, lookup: guardedLookup(opts.lookup, opts.allow) });
  const unchecked = buildConnector({ ...base, lookup: opts.lookup });
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    if (opts.allow.allowsHost(options.hostname, port)) {
      unchecked(options, callback);
      return;
    }
    if (parseIp(options.hostname)) {
      const refused = refusal(opts.allow, options.hostname, options.hostname);
      if (refused) {
        callback(refused, null);
        return;
      }
      unchecked(options, callback);
      return;
    }
    checked(options, callback);
  };
}
