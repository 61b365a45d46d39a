/**
 * Tool calls running in this process, by owner and JSON-RPC request id, so that a
 * `notifications/cancelled` (MCP 2025-11-25 "Utilities › Cancellation") can stop one.
 *
 * Why a registry: the Streamable HTTP server is stateless (src/mcp/http.ts), so the cancellation
 * arrives as its own POST and reaches a fresh server instance that knows nothing of the call it
 * names. The owner is part of the key: a client can cancel only its own calls. A cancellation
 * that reaches another instance behind a load balancer finds nothing here and is ignored, as the
 * spec allows ("MAY ignore … if the request is unknown"); the call still stops if that client
 * closes the connection that waits for the result.
 */
export type JsonRpcId = string | number;

export class RunningCalls {
  private readonly calls = new Map<string, AbortController>();

  private static key(owner: string, requestId: JsonRpcId): string {
    return `${owner}\u0000${typeof requestId}:${String(requestId)}`;
  }

  /** Registers a call; the returned function unregisters it (call it when the call ends). */
  register(owner: string, requestId: JsonRpcId, controller: AbortController): () => void {
    const key = RunningCalls.key(owner, requestId);
    this.calls.set(key, controller);
    return () => {
      if (this.calls.get(key) === controller) this.calls.delete(key);
    };
  }

  /** Aborts the owner's call with this id; false when none is running here. */
  cancel(owner: string, requestId: JsonRpcId, reason?: string): boolean {
    const controller = this.calls.get(RunningCalls.key(owner, requestId));
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
