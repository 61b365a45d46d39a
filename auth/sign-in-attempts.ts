/**
 * A simple limit on failed sign-ins, per client IP and per email, over a fixed window. It slows
 * password guessing; it does not say whether an email exists (failures for unknown emails count
 * the same). The counts are in memory (one process) unless a shared counter is handed in: with
 * REDIS_URL every instance counts in the same Redis (docs/scale-out.md).
 */
import { memoryWindowCounter, type WindowCounter } from '../src/limits/window-counter.ts';

export interface SignInAttemptLimit {
  /** Seconds to wait when this IP or email is over its limit; 0 when a new attempt is allowed. */
  retryAfterSeconds(ip: string, email: string): Promise<number>;
  recordFailure(ip: string, email: string): Promise<void>;
  /** A successful sign-in clears the email's failures. */
  recordSuccess(email: string): Promise<void>;
}

export interface SignInAttemptLimitOptions {
  perIp?: number;
  perEmail?: number;
  windowMs?: number;
  /** Where the failures are counted; default in memory, this process. */
  counter?: WindowCounter;
  now?: () => number;
}

export const DEFAULT_FAILURES_PER_IP = 20;
export const DEFAULT_FAILURES_PER_EMAIL = 5;
export const DEFAULT_WINDOW_MS = 15 * 60 * 1000;

/** The counter's keys (the Redis counter stores only a hash of each: no address or email in Redis). */
const ipKey = (ip: string) => `sign-in:ip:${ip}`;
const emailKey = (email: string) => `sign-in:email:${email}`;

export function createSignInAttemptLimit(options: SignInAttemptLimitOptions = {}): SignInAttemptLimit {
  const perIp = options.perIp ?? DEFAULT_FAILURES_PER_IP;
  const perEmail = options.perEmail ?? DEFAULT_FAILURES_PER_EMAIL;
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const counter = options.counter ?? memoryWindowCounter(options.now ? { now: options.now } : {});

  const wait = async (key: string, max: number): Promise<number> => {
    const { count, resetInMs } = await counter.peek(key);
    return count >= max ? Math.max(1, Math.ceil(resetInMs / 1000)) : 0;
  };
  return {
    async retryAfterSeconds(ip, email) {
      const [byIp, byEmail] = await Promise.all([wait(ipKey(ip), perIp), wait(emailKey(email), perEmail)]);
      return Math.max(byIp, byEmail);
    },
    async recordFailure(ip, email) {
      await Promise.all([counter.add(ipKey(ip), windowMs), counter.add(emailKey(email), windowMs)]);
    },
    async recordSuccess(email) {
      await counter.clear(emailKey(email));
    },
  };
}
