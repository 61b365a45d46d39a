/**
 * Parse results kept for a short time so that `parse{resultId, offset}` can hand out the next
 * slice of a long markdown without the file again (an uploadRef works once).
 *
 * - Owner-bound: a result is found only by the `Caller.owner` that produced it.
 * - Short-lived: DEFAULT_RESULT_TTL_MS after it was stored.
 * - Memory-capped: least recently used results are dropped first; a result larger than the whole
 *   budget is not kept at all (the caller is told to send the file again with an `offset`).
 * - In-process: another instance behind a load balancer does not see it (the same answer then).
 *   With REDIS_URL the Redis implementation of `ParseResults` (src/mcp/redis) replaces this one and
 *   every instance sees every result (docs/scale-out.md).
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

/**
 * Where `parse{resultId, offset}` finds earlier results: this process's memory (ParseResultStore)
 * or Redis (src/mcp/redis). Both are owner-bound, expire `ttlMs` after `put`, and keep nothing
 * larger than their budget.
 */
export interface ParseResults {
  readonly ttlMs: number;
  /** Whether another instance behind the same load balancer finds a result put here (Redis). */
  readonly sharedAcrossInstances: boolean;
  /** Keeps a result; undefined when it is too large to keep. */
  put(owner: string, markdown: string, data: Record<string, unknown>): Promise<{ resultId: string; expiresAt: Date } | undefined>;
  /** The owner's unexpired result; undefined when unknown, expired, dropped or another owner's. */
  get(owner: string, resultId: string): Promise<KeptResult | undefined>;
}

/** A new resultId: 144 random bits, URL-safe. */
export function newResultId(): string {
  return `res_${randomBytes(18).toString('base64url')}`;
}

export interface ParseResultStoreOptions {
  ttlMs?: number;
  budgetChars?: number;
  now?: () => number;
}

export class ParseResultStore implements ParseResults {
  readonly sharedAcrossInstances = false;
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
  put(owner: string, markdown: string, data: Record<string, unknown>): Promise<{ resultId: string; expiresAt: Date } | undefined> {
    return Promise.resolve(this.putNow(owner, markdown, data));
  }

  /** The owner's unexpired result, marked as recently used; undefined otherwise. */
  get(owner: string, resultId: string): Promise<KeptResult | undefined> {
    return Promise.resolve(this.getNow(owner, resultId));
  }

  private putNow(owner: string, markdown: string, data: Record<string, unknown>): { resultId: string; expiresAt: Date } | undefined {
    const chars = markdown.length + JSON.stringify(data).length;
    if (chars > this.budget) return undefined;
    this.sweep();
    while (this.used + chars > this.budget) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.drop(oldest.value);
    }
    const resultId = newResultId();
    const expiresAt = new Date(this.now() + this.ttlMs);
    this.entries.set(resultId, { owner, markdown, data, expiresAt, chars });
    this.used += chars;
    return { resultId, expiresAt };
  }

  private getNow(owner: string, resultId: string): KeptResult | undefined {
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
