/**
 * Keyless /v2/mcp usage, persisted so that a restart does not reset a client's daily quota
 * (src/limits/keyless.ts). Clients are stored by an HMAC of their address, never the address.
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';

export interface KeylessUsageStore {
  /**
   * Counts one tool call of `client` on `day` (UTC `YYYY-MM-DD`) unless it already made `limit`.
   * Atomic: concurrent calls never count past the limit.
   */
  countKeylessCall(client: string, day: string, limit: number): Promise<{ counted: boolean; calls: number }>;
  /** The secret client addresses are hashed with: created on first use, then kept. */
  keylessClientSecret(): Promise<string>;
}

export function keylessUsageStore(db: Database.Database): KeylessUsageStore {
  const q = {
    ensure: db.prepare('INSERT INTO keyless_usage (client, day, calls) VALUES (?, ?, 0) ON CONFLICT (client, day) DO NOTHING'),
    increment: db.prepare('UPDATE keyless_usage SET calls = calls + 1 WHERE client = ? AND day = ? AND calls < ?'),
    calls: db.prepare<[string, string], { calls: number }>('SELECT calls FROM keyless_usage WHERE client = ? AND day = ?'),
    prune: db.prepare('DELETE FROM keyless_usage WHERE day < ?'),
    secret: db.prepare<[], { secret: string }>('SELECT secret FROM keyless_secret WHERE id = 1'),
    insertSecret: db.prepare('INSERT INTO keyless_secret (id, secret, created_at) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING'),
  };
  let prunedBefore = '';
  const count = db.transaction((client: string, day: string, limit: number) => {
    if (day !== prunedBefore) {
      // Earlier days are never read again.
      q.prune.run(day);
      prunedBefore = day;
    }
    q.ensure.run(client, day);
    const counted = q.increment.run(client, day, limit).changes === 1;
    const calls = q.calls.get(client, day)?.calls ?? 0;
    return { counted, calls };
  });
  const secret = db.transaction(() => {
    q.insertSecret.run(randomBytes(32).toString('base64url'), new Date().toISOString());
    const row = q.secret.get();
    if (!row) throw new Error('keyless secret insert did not persist');
    return row.secret;
  });
  let cachedSecret: string | undefined;
  return {
    async countKeylessCall(client, day, limit) {
      return count.immediate(client, day, limit);
    },
    async keylessClientSecret() {
      cachedSecret ??= secret.immediate();
      return cachedSecret;
    },
  };
}
