/**
 * Connections (docs/connections.md): how long a client may take to send a request, how many
 * connections the server holds, and how many uploads one client or key may have in flight.
 *
 *   serverTimeoutOptions(config)   http.createServer options: head and total request bounds
 *   guardConnections(server, …)    the body idle timeout and the connection cap on a server
 *   connectionAdmission(cap)       express: health-only on connections over the cap
 *   uploadSlots(…)                 express: per-address and per-key uploads in flight
 *   descriptorBudgetWarning(n)     whether n connections fit `ulimit -n`
 */
import type { Server } from 'node:http';
import { applyBodyIdleTimeout } from './body-idle-timeout.ts';
import { capConnections, type ConnectionCap } from './connection-cap.ts';
import { trackSockets } from './socket-state.ts';

export { serverTimeoutOptions, CONNECTIONS_CHECKING_INTERVAL_MS } from './server-timeouts.ts';
export { connectionAdmission, CONNECTION_RETRY_AFTER_SECONDS } from './admission.ts';
export { uploadSlots, UPLOAD_RETRY_AFTER_SECONDS } from './upload-slots.ts';
export { descriptorBudgetWarning } from './descriptor-budget.ts';
export type { ConnectionCap } from './connection-cap.ts';

export interface ConnectionGuardOptions {
  maxConnections: number;
  bodyIdleTimeoutSeconds: number;
}

/** Connections over the cap kept for /health and 429 answers: a sixteenth of the cap, 16 to 256. */
export function healthReserve(maxConnections: number): number {
  return Math.min(256, Math.max(16, Math.ceil(maxConnections / 16)));
}

/** Attaches the body idle timeout and the connection cap to a server before it accepts connections. */
export function guardConnections(server: Server, { maxConnections, bodyIdleTimeoutSeconds }: ConnectionGuardOptions): ConnectionCap {
  const states = trackSockets(server);
  applyBodyIdleTimeout(server, states, bodyIdleTimeoutSeconds);
  return capConnections(server, states, { max: maxConnections, reserve: healthReserve(maxConnections) });
}
