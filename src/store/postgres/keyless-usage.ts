/** Keyless /v2/mcp usage on PostgreSQL (store/keyless-usage.ts): the count is one upsert, atomic across instances. */
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { KeylessUsageStore } from '../keyless-usage.ts';
import { row } from './db.ts';

export function postgresKeylessUsageStore(pool: Pool): KeylessUsageStore {
  let prunedBefore = '';
  let cachedSecret: string | undefined;
  return {
    async countKeylessCall(client, day, limit) {
      if (day !== prunedBefore) {
        // Earlier days are never read again.
        await pool.query('DELETE FROM keyless_usage WHERE day < $1', [day]);
        prunedBefore = day;
      }
      const counted = await row<{ calls: number }>(
        pool,
        `INSERT INTO keyless_usage (client, day, calls) SELECT $1, $2, 1 WHERE $3::int > 0
         ON CONFLICT (client, day) DO UPDATE SET calls = keyless_usage.calls + 1 WHERE keyless_usage.calls < $3::int
         RETURNING calls`,
        [client, day, limit],
      );
      if (counted) return { counted: true, calls: counted.calls };
      const current = await row<{ calls: number }>(pool, 'SELECT calls FROM keyless_usage WHERE client = $1 AND day = $2', [client, day]);
      return { counted: false, calls: current?.calls ?? 0 };
    },
    async keylessClientSecret() {
      if (cachedSecret !== undefined) return cachedSecret;
      await pool.query('INSERT INTO keyless_secret (id, secret, created_at) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING', [
        randomBytes(32).toString('base64url'),
        new Date().toISOString(),
      ]);
      const r = await row<{ secret: string }>(pool, 'SELECT secret FROM keyless_secret WHERE id = 1');
      if (!r) throw new Error('keyless secret insert did not persist');
      cachedSecret = r.secret;
      return cachedSecret;
    },
  };
}
