/**
 * SIEM audit events (docs/audit.md), the subsystem's one entry: for a team whose plan names a
 * sink (`plans.planFor(team).siem`), one JSON event per /v2 request (`http`, a middleware) and per
 * MCP tool call (`toolCall`, from the tool-call wrapper), delivered to a JSON lines file, syslog
 * (RFC 5424 over UDP or TCP) or an https webhook in batches — with retries, a bounded buffer per
 * sink and drops counted and logged. Never document content; never slows a request.
 */
import type { RequestHandler } from 'express';
import type { PlanSource } from '../accounts/plan.ts';
import type { Logger } from '../log.ts';
import { Delivery, type DeliveryOptions, type DeliveryStats } from './delivery.ts';
import type { AuditEvent } from './event.ts';
import { auditHttpMiddleware } from './http-events.ts';
import { createSink } from './sinks.ts';
import { toolCallEvent, type ToolCallRecord } from './tool-events.ts';

export type { AuditEvent } from './event.ts';
export type { DeliveryStats } from './delivery.ts';
export type { ToolCallRecord } from './tool-events.ts';
export { setAuditInput, type AuditInput } from './http-events.ts';
export { siemTargetProblem, syslogMessage } from './sinks.ts';

export interface AuditDeps {
  plans: PlanSource;
  logger: Logger;
  /** config.audit.bufferEvents. */
  bufferEvents: number;
  /** config.audit.allowHttpLoopback. */
  allowHttpLoopback: boolean;
  /** Retry and report timing (tests). */
  delivery?: Partial<Omit<DeliveryOptions, 'maxBuffered'>>;
  /** A delivery attempt taking longer fails and is retried (default 10 s). */
  timeoutMs?: number;
}

export interface Audit {
  /** For `app.use('/v2', …)`, before the operations' routes. */
  http: RequestHandler;
  /** Called by the MCP tool-call wrapper when a call ends. */
  toolCall(record: ToolCallRecord): void;
  /** Per sink (by its label): delivered, dropped, buffered. */
  stats(): Record<string, DeliveryStats>;
  /** Delivers what it can within `graceMs`, then reports what was dropped and closes the sinks. */
  close(graceMs?: number): Promise<void>;
}

export function createAudit(deps: AuditDeps): Audit {
  const deliveries = new Map<string, Delivery>();
  let closed = false;

  const deliveryFor = (target: string): Delivery => {
    let delivery = deliveries.get(target);
    if (!delivery) {
      const sink = createSink(target, { allowHttpLoopback: deps.allowHttpLoopback, ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}) });
      delivery = new Delivery(sink, deps.logger, { maxBuffered: deps.bufferEvents, ...deps.delivery });
      deliveries.set(target, delivery);
    }
    return delivery;
  };

  const emit = (teamId: string, event: AuditEvent | undefined): void => {
    if (closed || !event) return;
    deps.plans.planFor(teamId).then(
      (plan) => {
        if (plan.siem && !closed) deliveryFor(plan.siem).push(event);
      },
      (err: unknown) => deps.logger.warn({ err, teamId }, 'audit: could not read the team plan; event dropped'),
    );
  };

  return {
    http: auditHttpMiddleware(emit),
    toolCall(record) {
      const event = toolCallEvent(record);
      if (event) emit(event.teamId, event);
    },
    stats() {
      return Object.fromEntries([...deliveries.values()].map((d) => [d.sink.label, d.stats()]));
    },
    async close(graceMs) {
      closed = true;
      await Promise.all([...deliveries.values()].map((d) => d.close(graceMs)));
    },
  };
}
