/**
 * Delivery of audit events to one sink: a bounded buffer that requests only ever append to (it
 * never makes a request wait), drained in batches by one loop per sink. A failed batch stays at
 * the head and is tried again after a backoff (doubling from `baseDelayMs` to `maxDelayMs`); a
 * batch the receiver refuses for good (RejectedBatchError) is dropped. Events that find the buffer
 * full are dropped. Every drop is counted, and the counts are reported in one log line per
 * `reportEveryMs` (never the events themselves).
 */
import type { Logger } from '../log.ts';
import type { AuditEvent } from './event.ts';
import { RejectedBatchError, type AuditSink } from './sinks.ts';

export interface DeliveryOptions {
  /** Events waiting at most; config.audit.bufferEvents. */
  maxBuffered: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  reportEveryMs?: number;
}

export interface DeliveryStats {
  delivered: number;
  /** Dropped because the buffer was full. */
  droppedFull: number;
  /** Dropped because the sink refused them for good. */
  droppedRejected: number;
  buffered: number;
  /** Failed delivery attempts (each retried). */
  failures: number;
}

export class Delivery {
  readonly #buffer: AuditEvent[] = [];
  readonly #stats: DeliveryStats = { delivered: 0, droppedFull: 0, droppedRejected: 0, buffered: 0, failures: 0 };
  #unreported = { full: 0, rejected: 0, failures: 0, lastError: '' };
  #running = false;
  #closed = false;
  #retryTimer: NodeJS.Timeout | undefined;
  #wakeRetry: (() => void) | undefined;
  #reportTimer: NodeJS.Timeout | undefined;
  #idle: Promise<void> = Promise.resolve();
  readonly #baseDelay: number;
  readonly #maxDelay: number;
  readonly #reportEvery: number;

  constructor(
    readonly sink: AuditSink,
    private readonly logger: Logger,
    private readonly options: DeliveryOptions,
  ) {
    this.#baseDelay = options.baseDelayMs ?? 500;
    this.#maxDelay = options.maxDelayMs ?? 30_000;
    this.#reportEvery = options.reportEveryMs ?? 10_000;
  }

  /** Appends an event; never waits, never throws. */
  push(event: AuditEvent): void {
    if (this.#closed) return;
    if (this.#buffer.length >= this.options.maxBuffered) {
      this.#stats.droppedFull += 1;
      this.#unreported.full += 1;
      this.#scheduleReport();
      return;
    }
    this.#buffer.push(event);
    if (!this.#running) this.#idle = this.#drain();
  }

  stats(): DeliveryStats {
    return { ...this.#stats, buffered: this.#buffer.length };
  }

  async #drain(): Promise<void> {
    this.#running = true;
    let delay = this.#baseDelay;
    try {
      while (this.#buffer.length > 0) {
        const linger = this.sink.lingerMs ?? 0;
        if (linger > 0 && this.#buffer.length < this.sink.batchSize && !this.#closed) {
          await new Promise<void>((resolve) => setTimeout(resolve, linger).unref());
        }
        const batch = this.#buffer.slice(0, this.sink.batchSize);
        try {
          await this.sink.deliver(batch);
          this.#buffer.splice(0, batch.length);
          this.#stats.delivered += batch.length;
          delay = this.#baseDelay;
        } catch (err) {
          const reason = err instanceof Error ? err.message : String(err);
          if (err instanceof RejectedBatchError) {
            this.#buffer.splice(0, batch.length);
            this.#stats.droppedRejected += batch.length;
            this.#unreported.rejected += batch.length;
            this.#unreported.lastError = reason;
            this.#scheduleReport();
            continue;
          }
          this.#stats.failures += 1;
          this.#unreported.failures += 1;
          this.#unreported.lastError = reason;
          this.#scheduleReport();
          if (this.#closed) return;
          await new Promise<void>((resolve) => {
            this.#wakeRetry = resolve;
            this.#retryTimer = setTimeout(resolve, delay);
            this.#retryTimer.unref();
          });
          this.#wakeRetry = undefined;
          if (this.#closed) return;
          delay = Math.min(this.#maxDelay, delay * 2);
        }
      }
    } finally {
      this.#running = false;
    }
  }

  #scheduleReport(): void {
    if (this.#reportTimer) return;
    this.#reportTimer = setTimeout(() => {
      this.#reportTimer = undefined;
      this.report();
    }, this.#reportEvery);
    this.#reportTimer.unref();
  }

  /** Writes the log line for what was dropped or failed since the last one (nothing when nothing was). */
  report(): void {
    const { full, rejected, failures, lastError } = this.#unreported;
    if (full === 0 && rejected === 0 && failures === 0) return;
    this.#unreported = { full: 0, rejected: 0, failures: 0, lastError: '' };
    const dropped = full + rejected;
    const detail = {
      sink: this.sink.label,
      dropped,
      droppedBufferFull: full,
      droppedRejected: rejected,
      failedAttempts: failures,
      buffered: this.#buffer.length,
      totalDropped: this.#stats.droppedFull + this.#stats.droppedRejected,
      lastError,
    };
    if (dropped > 0) this.logger.warn(detail, `audit events dropped: ${dropped} (buffer full: ${full}, refused by the sink: ${rejected})`);
    else this.logger.warn(detail, 'audit sink delivery failing; events are kept and retried');
  }

  /**
   * Tries to deliver what is buffered for at most `graceMs`, then stops; events still buffered
   * count as dropped and are reported.
   */
  async close(graceMs = 2_000): Promise<void> {
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([this.#idle, deadline]);
    this.#closed = true;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#wakeRetry?.();
    if (this.#reportTimer) clearTimeout(this.#reportTimer);
    this.#reportTimer = undefined;
    const left = this.#buffer.splice(0).length;
    if (left > 0) {
      this.#stats.droppedFull += left;
      this.#unreported.full += left;
    }
    this.report();
    await this.sink.close().catch(() => undefined);
  }
}
