/**
 * A job's trace (GET /v2/agent/{id}/trace): the Firecrawl SDK's AgentTraceEvent shapes
 * (schemaVersion 1) — run.started, progress.reported (one per LLM turn, with its tokens and
 * duration), tool_call.started / tool_call.finished (the parameters, the URLs, the credits, the
 * duration, the refusal or error), error.occurred and run.finished. Nothing is hidden: a refused
 * call is in the trace with its reason. Page text is not: a finished call records its size.
 */
import { randomUUID } from 'node:crypto';

export type TraceEvent = Record<string, unknown> & { type: string };

export interface Budgets {
  maxSteps: number;
  /** Epoch ms. */
  deadline: number;
  maxTokens: number;
  maxCredits: number;
  resultChars: number;
}

export interface Spent {
  credits: number;
  tokens: number;
  steps: number;
}

export class Trace {
  readonly #runId: string;
  readonly #write: (event: string) => Promise<void>;
  #sequence = 0;
  #chain: Promise<void> = Promise.resolve();

  constructor(runId: string, write: (event: string) => Promise<void>) {
    this.#runId = runId;
    this.#write = write;
  }

  emit(event: TraceEvent): void {
    const full = {
      schemaVersion: 1,
      eventId: randomUUID(),
      runId: this.#runId,
      occurredAt: new Date().toISOString(),
      producerSequence: ++this.#sequence,
      agent: { id: 'folio-agent', role: 'orchestrator', name: 'folio agent' },
      ...event,
    };
    const text = JSON.stringify(full);
    this.#chain = this.#chain.then(() => this.#write(text)).catch(() => undefined);
  }

  /** Resolves when every event so far is stored. */
  flushed(): Promise<void> {
    return this.#chain;
  }
}
