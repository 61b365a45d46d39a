/**
 * Agent and extract jobs under `zeroDataRetention` (docs/agent.md "Zero data retention",
 * docs/zdr.md): what a job learns from pages — its answer, its sources, its warning, its trace
 * (tool parameters the model wrote, tool errors) — lives only in the memory of the process that
 * runs it, and is handed out once: the first status read after the job ended takes the answer and
 * forgets the trace with it. The store holds the job's row without content (its prompt and
 * schema replaced, no data), so status, list and billing work; after the read, a restart or the
 * expiry, the status says the answer is gone and why.
 */

export const ZDR_PROMPT = '(not kept: zeroDataRetention)';

export const ZDR_RESULT_GONE =
  'This job ran with zeroDataRetention: its answer and trace are kept only in memory and handed out once, at the first status read after it ended; they were read already, or the process that ran the job stopped, or the job expired.';

export interface HeldResult {
  data: string | null;
  sources: string | null;
  warning: string | null;
}

interface Held {
  events: string[];
  result?: HeldResult;
  expiresAt: number;
}

export class ZeroRetentionHold {
  readonly #jobs = new Map<string, Held>();

  start(id: string, expiresAt: Date): void {
    this.#jobs.set(id, { events: [], expiresAt: expiresAt.getTime() });
  }

  has(id: string): boolean {
    return this.#jobs.has(id);
  }

  appendEvent(id: string, event: string): void {
    this.#jobs.get(id)?.events.push(event);
  }

  events(id: string): string[] {
    return [...(this.#jobs.get(id)?.events ?? [])];
  }

  keepResult(id: string, result: HeldResult, expiresAt: Date): void {
    const held = this.#jobs.get(id);
    if (!held) return;
    held.result = result;
    held.expiresAt = expiresAt.getTime();
  }

  /** The answer of an ended job, once: it and the trace are forgotten. */
  takeResult(id: string): HeldResult | undefined {
    const held = this.#jobs.get(id);
    if (!held?.result) return undefined;
    this.#jobs.delete(id);
    return held.result;
  }

  forget(id: string): void {
    this.#jobs.delete(id);
  }

  sweep(now: number): void {
    for (const [id, held] of this.#jobs) if (held.expiresAt < now) this.#jobs.delete(id);
  }
}

/** Whether a stored or parsed request asked for zero data retention (at its top or in its scrapeOptions). */
export function isZeroRetention(request: { zeroDataRetention?: unknown; scrapeOptions?: unknown }): boolean {
  if (request.zeroDataRetention === true) return true;
  const nested = request.scrapeOptions;
  return typeof nested === 'object' && nested !== null && (nested as { zeroDataRetention?: unknown }).zeroDataRetention === true;
}
