/**
 * Tool calls running in this process, by owner and JSON-RPC request id, so that a
 * `notifications/cancelled` (MCP 2025-11-25 "Utilities › Cancellation") can stop one.
 *
 * Why a registry: the Streamable HTTP server is stateless (src/mcp/http.ts), so the cancellation
 * arrives as its own POST and reaches a fresh server instance that knows nothing of the call it
 * names. The owner is part of the key: a client can cancel only its own calls.
 *
 * Several instances: behind a load balancer the cancellation may reach another instance than the
 * one running the call. With a CancelRelay (REDIS_URL: src/mcp/redis, a Redis pub/sub channel) a
 * cancellation that finds no call here is published, and every instance cancels the owner's call
 * with that id if it runs there. Without one, a cancellation for a call on another instance is
 * ignored, as the spec allows ("MAY ignore … if the request is unknown"); the call still stops if
 * that client closes the connection that waits for the result.
 */
import { createHash } from 'node:crypto';

export type JsonRpcId = string | number;

/** A cancellation as it travels between instances: the owner only as its SHA-256. */
export interface CancelMessage {
  ownerDigest: string;
  requestId: JsonRpcId;
  reason?: string;
}

/** Carries cancellations to every instance (src/mcp/redis: a Redis pub/sub channel). */
export interface CancelRelay {
  /** Sends a cancellation to every instance (this one included); never throws. */
  publish(message: CancelMessage): void;
  /** Sets the receiver of every instance's cancellations. */
  onMessage(receive: (message: CancelMessage) => void): void;
}

export function ownerDigest(owner: string): string {
  return createHash('sha256').update(owner).digest('hex');
}

export class RunningCalls {
  private readonly calls = new Map<string, AbortController>();
  private readonly relay: CancelRelay | undefined;

  constructor(options: { relay?: CancelRelay } = {}) {
    this.relay = options.relay;
    this.relay?.onMessage((m) => {
      this.cancelHere(m.ownerDigest, m.requestId, m.reason);
    });
  }

  private static key(digest: string, requestId: JsonRpcId): string {
    return `${digest}\u0000${typeof requestId}:${String(requestId)}`;
  }

  /** Registers a call; the returned function unregisters it (call it when the call ends). */
  register(owner: string, requestId: JsonRpcId, controller: AbortController): () => void {
    const key = RunningCalls.key(ownerDigest(owner), requestId);
    this.calls.set(key, controller);
    return () => {
      if (this.calls.get(key) === controller) this.calls.delete(key);
    };
  }

  /**
   * Aborts the owner's call with this id; false when none is running here. With a relay, a call
   * not running here is looked for on every instance (the answer does not wait for that).
   */
  cancel(owner: string, requestId: JsonRpcId, reason?: string): boolean {
    const digest = ownerDigest(owner);
    if (this.cancelHere(digest, requestId, reason)) return true;
    this.relay?.publish({ ownerDigest: digest, requestId, ...(reason !== undefined ? { reason } : {}) });
    return false;
  }

  private cancelHere(digest: string, requestId: JsonRpcId, reason?: string): boolean {
    const controller = this.calls.get(RunningCalls.key(digest, requestId));
    if (!controller) return false;
    controller.abort(new CancelledByClientError(reason));
    return true;
  }

  get size(): number {
    return this.calls.size;
  }
}

export class CancelledByClientError extends Error {
  constructor(reason?: string) {
    super(reason ? `The client cancelled the call: ${reason}` : 'The client cancelled the call.');
    this.name = 'CancelledByClientError';
  }
}
