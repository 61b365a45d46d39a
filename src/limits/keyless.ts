/**
 * Limits of keyless /v2/mcp use (interface-v2 "Hosted tool server": keyless access only "while
 * eligible and rate-limited"): per client, a per-minute rate (in memory, per instance) and a daily
 * quota (persisted, so a restart does not reset it). Only tool calls count.
 *
 * A client is its address: an IPv4 address, or the /64 prefix of an IPv6 one (one host usually
 * holds a whole /64), kept only as an HMAC with a server secret — never the address itself.
 */
import { createHmac } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { ServiceError } from '../errors.ts';
import type { KeylessUsageStore } from '../store/keyless-usage.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The address a client is counted by: IPv4-mapped IPv6 → IPv4; IPv6 → its /64. */
export function clientAddressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const addr = ipaddr.process(ip);
  if (addr.kind() === 'ipv4') return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}

/** The stable, non-reversible id of a keyless client (`keyless:<id>` is its owner string). */
export function keylessClientId(ip: string, secret: string): string {
  return createHmac('sha256', secret).update(clientAddressKey(ip)).digest('base64url').slice(0, 32);
}

export interface KeylessLimiterOptions {
  ratePerMinute: number;
  dailyQuota: number;
  usage: KeylessUsageStore;
  now?: () => number;
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function humanDuration(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `${minutes} minutes`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

const KEY_HINT = 'An API key (`Authorization: Bearer <API_KEY>`) is not subject to the keyless limits.';

export class KeylessLimiter {
  private readonly recent = new Map<string, number[]>();
  private readonly now: () => number;
  private lastSweep = 0;

  constructor(private readonly options: KeylessLimiterOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Counts one tool call of `client`; throws RATE_LIMITED (with retryAfterSeconds) when over a limit. */
  async admit(client: string): Promise<void> {
    const now = this.now();
    this.sweep(now);
    const windowStart = now - MINUTE_MS;
    const times = (this.recent.get(client) ?? []).filter((t) => t > windowStart);
    if (times.length >= this.options.ratePerMinute) {
      const retry = Math.max(1, Math.ceil(((times[0] ?? now) + MINUTE_MS - now) / 1000));
      this.recent.set(client, times);
      throw new ServiceError(
        'RATE_LIMITED',
        `Keyless rate limit reached: ${this.options.ratePerMinute} tool calls per minute per client. Retry in ${humanDuration(retry)}. ${KEY_HINT}`,
        { retryAfterSeconds: retry },
      );
    }
    times.push(now);
    this.recent.set(client, times);
    const { counted } = await this.options.usage.countKeylessCall(client, utcDay(now), this.options.dailyQuota);
    if (!counted) {
      // A refused call does not use up the minute's budget.
      times.splice(times.indexOf(now), 1);
      const retry = Math.max(1, Math.ceil((Math.floor(now / DAY_MS + 1) * DAY_MS - now) / 1000));
      throw new ServiceError(
        'RATE_LIMITED',
        `Keyless daily quota reached: ${this.options.dailyQuota} tool calls per day per client; it resets at 00:00 UTC. Retry in ${humanDuration(retry)}. ${KEY_HINT}`,
        { retryAfterSeconds: retry },
      );
    }
  }

  /** Forgets clients idle for a minute (at most once a minute). */
  private sweep(now: number): void {
    if (now - this.lastSweep < MINUTE_MS) return;
    this.lastSweep = now;
    for (const [client, times] of this.recent) {
      if ((times[times.length - 1] ?? 0) <= now - MINUTE_MS) this.recent.delete(client);
    }
  }
}
