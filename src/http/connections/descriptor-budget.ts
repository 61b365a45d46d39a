/**
 * Whether the connection cap fits the process's open-files limit: an upload holds two
 * descriptors (its socket and its spool file), and the store, logs and parse workers need some
 * too. Read from /proc on Linux; elsewhere nothing is known and nothing is said.
 */
import fs from 'node:fs';

/** Descriptors kept for everything that is not a connection. */
const OTHER_DESCRIPTORS = 256;

/** The soft `ulimit -n`, when the platform tells it. */
export function openFilesLimit(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = fs.readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return undefined;
    }
  }
  const match = /^Max open files\s+(\d+|unlimited)\s/m.exec(text);
  if (!match?.[1] || match[1] === 'unlimited') return undefined;
  return Number(match[1]);
}

/** A sentence for the log when `connections` (cap and reserve) could exhaust the descriptors. */
export function descriptorBudgetWarning(connections: number, limit = openFilesLimit()): string | undefined {
  const needed = 2 * connections + OTHER_DESCRIPTORS;
  if (limit === undefined || needed <= limit) return undefined;
  return `FOLIO_MAX_CONNECTIONS with its reserve allows ${connections} connections, which may need ${needed} file descriptors (two per upload), but the open-files limit is ${limit}: raise it (ulimit -n) or lower FOLIO_MAX_CONNECTIONS to at most ${Math.max(1, Math.floor((limit - OTHER_DESCRIPTORS) / 2 / 1.0625))}.`;
}
