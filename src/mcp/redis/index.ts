/**
 * The MCP tool server's shared state in Redis (REDIS_URL; docs/scale-out.md "MCP state in
 * Redis"): the continuation store of `parse{resultId, offset}` and the relay of
 * `notifications/cancelled` between instances. Without REDIS_URL neither is opened and both stay
 * in the memory of each process (tools/parse-results.ts, src/mcp/running-calls.ts).
 *
 * Two connections from src/redis: one for commands (results, publishing cancellations), one held
 * by SUBSCRIBE.
 */
import { openRedis } from '../../redis/index.ts';
import type { ParseResults } from '../../../tools/parse-results.ts';
import type { CancelRelay } from '../running-calls.ts';
import { createRedisCancelRelay } from './cancel-relay.ts';
import { createRedisParseResults } from './result-store.ts';

export { CANCEL_CHANNEL } from './cancel-relay.ts';
export { RESULT_KEY_PREFIX, RESULTS_CHARS_KEY, RESULTS_INDEX_KEY, RESULTS_ORDER_KEY, RESULTS_SEQUENCE_KEY, RESULTS_USED_KEY } from './result-store.ts';

export interface McpRedisState {
  results: ParseResults;
  cancels: CancelRelay;
  /** Closes both connections. */
  close(): Promise<void>;
}

export interface McpRedisOptions {
  /** REDIS_URL. */
  url: string;
  /** Connection losses and commands Redis did not answer (the tool calls go on without it). */
  onError: (err: unknown, what: string) => void;
  /** Continuation lifetime and budget (defaults: tools/parse-results.ts). */
  ttlMs?: number;
  budgetChars?: number;
}

export async function openMcpRedisState(options: McpRedisOptions): Promise<McpRedisState> {
  const commands = openRedis(options.url, 'folio-mcp', (err) => options.onError(err, 'MCP state: Redis connection'));
  const subscriber = openRedis(options.url, 'folio-mcp-cancel', (err) => options.onError(err, 'MCP cancellations: Redis connection'));
  // QUIT where the connection is up; one that is reconnecting is dropped (a QUIT would wait for Redis).
  const close = async () => {
    await Promise.allSettled([commands, subscriber].map((c) => (c.status === 'ready' ? c.quit() : Promise.resolve(c.disconnect()))));
    commands.disconnect();
    subscriber.disconnect();
  };
  try {
    const cancels = await createRedisCancelRelay(commands, subscriber, (err) => options.onError(err, 'MCP cancellations: publish failed'));
    const results = createRedisParseResults({
      redis: commands,
      ...(options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {}),
      ...(options.budgetChars !== undefined ? { budgetChars: options.budgetChars } : {}),
      onError: (err, operation) => options.onError(err, `MCP continuation store: ${operation} failed`),
    });
    return { results, cancels, close };
  } catch (err) {
    await close();
    throw err;
  }
}
