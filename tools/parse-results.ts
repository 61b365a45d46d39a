/**
 * Parse results kept for a short time so that `parse{resultId, offset}` can hand out the next
 * slice of a long markdown without the file again (an uploadRef works once).
 *
 * - Owner-bound: a result is found only by the `Caller.owner` that produced it.
 * - Short-lived: DEFAULT_RESULT_TTL_MS after it was stored.
 * - Memory-capped: least recently used results are dropped first; a result larger than the whole
 *   budget is not kept at all (the caller is told to send the file again with an `offset`).
 * - In-process: another instance behind a load balancer does not see it (the same answer then).
 * - Never used under zeroDataRetention: the caller does not store such results (tools/parse.ts).
 */
import { randomBytes } from 'node:crypto';

export const DEFAULT_RESULT_TTL_MS = 10 * 60_000;
/** About 64 MB of UTF-16 text. */
export const DEFAULT_RESULT_BUDGET_CHARS = 32 * 1024 * 1024;

export interface KeptResult {
  markdown: string;
  /** The rest of the data object (metadata, warning), without the big format fields. */
  data: Record<string, unknown>;
  expiresAt: Date;
}

interface Entry extends KeptResult {
  owner: string;
  chars: number;
}

export interface ParseResultStoreOptions {
  ttlMs?: number;
  budgetChars?: number;
  now?: () => number;
}

export class ParseResultStore {
  private readonly entries = new Map<string, Entry>();
  private used = 0;
  readonly ttlMs: number;
  private readonly budget: number;
  private readonly now: () => number;

  constructor(options: ParseResultStoreOptions = {}) {
    this.ttlMs = options.ttlMs ?? DEFAULT_RESULT_TTL_MS;
    this.budget = options.budgetChars ?? DEFAULT_RESULT_BUDGET_CHARS;
    this.now = options.now ?? Date.now;
  }

  /** Keeps a result; undefined when it is too large to keep. */
  put(owner: string, markdown: string, data: Record<string, unknown>): { resultId: string; expiresAt: Date } | undefined {
    const chars = markdown.length + JSON.stringify(data).length;
    if (chars > this.budget) return undefined;
    this.sweep();
    while (this.used + chars > this.budget) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.drop(oldest.value);
    }
    const resultId = `res_${randomBytes(18).toString('base64url')}`;
    const expiresAt = new Date(this.now() + this.ttlMs);
    this.entries.set(resultId, { owner, markdown, data, expiresAt, chars });
    this.used += chars;
    return { resultId, expiresAt };
  }

  /** The owner's unexpired result, marked as recently used; undefined otherwise. */
  get(owner: string, resultId: string): KeptResult | undefined {
    const entry = this.entries.get(resultId);
    if (!entry) return undefined;
    if (entry.expiresAt.getTime() <= this.now()) {
      this.drop(resultId);
      return undefined;
    }
    if (entry.owner !== owner) return undefined;
    this.entries.delete(resultId);
    this.entries.set(resultId, entry);
    return { markdown: entry.markdown, data: entry.data, expiresAt: entry.expiresAt };
  }

  get size(): number {
    return this.entries.size;
  }

  private drop(resultId: string): void {
    const entry = this.entries.get(resultId);
    if (!entry) return;
    this.entries.delete(resultId);
    this.used -= entry.chars;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) if (entry.expiresAt.getTime() <= now) this.drop(id);
  }
}
