/**
 * Node's own bounds on a request's head and whole body, as `http.createServer` options.
 *
 * Node 20 checks `headersTimeout` and `requestTimeout` only every `connectionsCheckingInterval`
 * (30 s by default): measured, a 3 s `headersTimeout` dropped slow heads after 30 s. The check
 * runs every second here, so a slow head is answered 408 and closed within a second of its bound.
 */
import type { ServerOptions } from 'node:http';

export interface ServerTimeouts {
  /** Seconds a client has to send a request's whole head (request line and headers). */
  headersTimeoutSeconds: number;
  /** Seconds a client has to send a whole request, body included; 0: no total bound. */
  requestTimeoutSeconds: number;
}

/** How often Node looks for requests past those bounds. */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

export function serverTimeoutOptions({ headersTimeoutSeconds, requestTimeoutSeconds }: ServerTimeouts): ServerOptions {
  const headersTimeout = headersTimeoutSeconds * 1000;
  return {
    headersTimeout,
    // Node refuses a total bound shorter than the head's.
    requestTimeout: requestTimeoutSeconds === 0 ? 0 : Math.max(requestTimeoutSeconds * 1000, headersTimeout),
    connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
  };
}
