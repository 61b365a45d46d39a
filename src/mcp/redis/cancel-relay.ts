/**
 * MCP cancellations across instances (docs/scale-out.md "MCP state in Redis"): one Redis pub/sub
 * channel, `folio:mcp:cancelled`, that every instance subscribes to. The stateless Streamable
 * HTTP server issues no session, so no instance knows where another's call runs: a cancellation
 * that finds no call locally goes to all of them, and each cancels the owner's call with that
 * JSON-RPC id if it runs there (src/mcp/running-calls.ts). Messages are tiny and rare (one per
 * cancelled call).
 *
 * A message is JSON `{o, i, r?}`: the SHA-256 of the owner (never the credential), the request id
 * with its JSON type (1 and "1" are different requests), the reason. Malformed messages are
 * dropped. Pub/sub is fire-and-forget: a cancellation published while Redis is away is lost, as
 * the spec allows (the call still ends when its client closes the connection).
 */
import type { Redis } from 'ioredis';
import type { CancelMessage, CancelRelay } from '../running-calls.ts';

export const CANCEL_CHANNEL = 'folio:mcp:cancelled';
/** Longest reason relayed (the spec's reason is a short human-readable string). */
const MAX_REASON_CHARS = 1_000;

function decode(raw: string): CancelMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { o, i, r } = value as { o?: unknown; i?: unknown; r?: unknown };
  if (typeof o !== 'string' || !/^[0-9a-f]{64}$/.test(o)) return undefined;
  if (typeof i !== 'string' && typeof i !== 'number') return undefined;
  return { ownerDigest: o, requestId: i, ...(typeof r === 'string' ? { reason: r.slice(0, MAX_REASON_CHARS) } : {}) };
}

/**
 * A relay over two connections: `publisher` (any command connection) and `subscriber` (given over
 * to SUBSCRIBE; ioredis subscribes again after a reconnection).
 */
export async function createRedisCancelRelay(publisher: Redis, subscriber: Redis, onError: (err: unknown) => void): Promise<CancelRelay> {
  let receive: ((message: CancelMessage) => void) | undefined;
  subscriber.on('message', (channel: string, raw: string) => {
    if (channel !== CANCEL_CHANNEL) return;
    const message = decode(raw);
    if (message) receive?.(message);
  });
  await subscriber.subscribe(CANCEL_CHANNEL);
  return {
    publish(message) {
      const body = JSON.stringify({ o: message.ownerDigest, i: message.requestId, ...(message.reason !== undefined ? { r: message.reason.slice(0, MAX_REASON_CHARS) } : {}) });
      publisher.publish(CANCEL_CHANNEL, body).catch(onError);
    },
    onMessage(handler) {
      receive = handler;
    },
  };
}
