/**
 * A simple limit on failed sign-ins, per client IP and per email, over a fixed window, kept in
 * memory (one process). It slows password guessing; it does not say whether an email exists
 * (failures for unknown emails count the same).
 */
export interface SignInAttemptLimit {
  /** Seconds to wait when this IP or email is over its limit; 0 when a new attempt is allowed. */
  retryAfterSeconds(ip: string, email: string): number;
  recordFailure(ip: string, email: string): void;
  /** A successful sign-in clears the email's failures. */
  recordSuccess(email: string): void;
}

export interface SignInAttemptLimitOptions {
  perIp?: number;
  perEmail?: number;
  windowMs?: number;
  now?: () => number;
}

export const DEFAULT_FAILURES_PER_IP = 20;
export const DEFAULT_FAILURES_PER_EMAIL = 5;
export const DEFAULT_WINDOW_MS = 15 * 60 * 1000;

export function createSignInAttemptLimit(options: SignInAttemptLimitOptions = {}): SignInAttemptLimit {
  const perIp = options.perIp ?? DEFAULT_FAILURES_PER_IP;
  const perEmail = options.perEmail ?? DEFAULT_FAILURES_PER_EMAIL;
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const now = options.now ?? Date.now;
  const counts = new Map<string, { n: number; since: number }>();

  const live = (key: string) => {
    const c = counts.get(key);
    if (c && now() - c.since >= windowMs) {
      counts.delete(key);
      return undefined;
    }
    return c;
  };
  const wait = (key: string, max: number): number => {
    const c = live(key);
    return c && c.n >= max ? Math.ceil((c.since + windowMs - now()) / 1000) : 0;
  };
  const bump = (key: string) => {
    const c = live(key);
    if (c) c.n += 1;
    else counts.set(key, { n: 1, since: now() });
    if (counts.size > 100_000) for (const k of counts.keys()) live(k);
  };
  return {
    retryAfterSeconds(ip, email) {
      return Math.max(wait(`ip:${ip}`, perIp), wait(`email:${email}`, perEmail));
    },
    recordFailure(ip, email) {
      bump(`ip:${ip}`);
      bump(`email:${email}`);
    },
    recordSuccess(email) {
      counts.delete(`email:${email}`);
    },
  };
}
