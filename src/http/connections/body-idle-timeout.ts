/**
 * The body idle timeout: a connection on which nothing moves for N seconds while the server waits
 * for the client (the rest of a request body, or the next request head) is closed. Closing it
 * ends the request as a client abort: the upload's spool file is removed by its route.
 *
 * Idle, not total: every byte that arrives restarts the clock, so a slow but moving upload goes
 * on. While the server itself is working on an answer (a long parse) or streaming one (MCP's
 * SSE), the connection is left alone, unless what it sends stays unread that long.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { SocketStates } from './socket-state.ts';

export function applyBodyIdleTimeout(server: Server, states: SocketStates, idleSeconds: number): void {
  // Node arms `server.timeout` on every socket and, once a 'timeout' listener exists on the
  // server, leaves the decision to it instead of destroying the socket.
  server.timeout = idleSeconds * 1000;
  server.on('timeout', (socket: Socket) => {
    const phase = states.phase(socket);
    if (phase === 'upgraded') return;
    // Answering with nothing left unsent: the server is at work (or a stream is quiet). Bytes
    // still queued for a client that stopped reading for N seconds are not.
    if (phase === 'answering' && socket.writableLength === 0) return;
    socket.destroy();
  });
}
