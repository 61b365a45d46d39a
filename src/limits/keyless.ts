/**
 * Limits of keyless /v2/mcp use (interface-v2 "Hosted tool server": keyless access only "while
 * eligible and rate-limited"): per client, a per-minute rate (a sliding window: in memory, or in
 * Redis shared by the instances with REDIS_URL) and a daily quota (persisted in the store, so a
 * restart does not reset it and instances on one PostgreSQL share it). Only tool calls count.
 *
 * A client is its address: an IPv4 address, or the /64 prefix of an IPv6 one (one host usually
 * holds a whole /64), kept only as an HMAC with a server secret — never the address itself.
 */
import { createHmac } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { ServiceError } from '../errors.ts';
import type { KeylessUsageStore } from '../store/keyless-usage.ts';
import { memoryRateWindow, type RateWindow } from './teams/index.ts';

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
  /** The per-minute window; default in memory, this process. */
  rate?: RateWindow;
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
  private readonly rate: RateWindow;
  private readonly now: () => number;

  constructor(private readonly options: KeylessLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.rate = options.rate ?? memoryRateWindow({ now: this.now });
  }

  /** Counts one tool call of `client`; throws RATE_LIMITED (with retryAfterSeconds) when over a limit. */
  async admit(client: string): Promise<void> {
    const minute = await this.rate.hit(client, this.options.ratePerMinute);
    if (!minute.admitted) {
      const retry = minute.retryAfterSeconds;
      throw new ServiceError(
        'RATE_LIMITED',
        `Keyless rate limit reached: ${this.options.ratePerMinute} tool calls per minute per client. Retry in ${humanDuration(retry)}. ${KEY_HINT}`,
        { retryAfterSeconds: retry },
      );
    }
    const now = this.now();
    const { counted } = await this.options.usage.countKeylessCall(client, utcDay(now), this.options.dailyQuota);
    if (!counted) {
      // A refused call does not use up the minute's budget.
      await minute.undo();
      const retry = Math.max(1, Math.ceil((Math.floor(now / DAY_MS + 1) * DAY_MS - now) / 1000));
      throw new ServiceError(
        'RATE_LIMITED',
        `Keyless daily quota reached: ${this.options.dailyQuota} tool calls per day per client; it resets at 00:00 UTC. Retry in ${humanDuration(retry)}. ${KEY_HINT}`,
        { retryAfterSeconds: retry },
      );
    }
  }
}
