/**
 * The cap on concurrent connections of the whole server, with room kept for `/health`.
 *
 * Up to `max` connections are served normally. At the cap, a new connection first displaces the
 * oldest one that is doing nothing for the server (still sending its first request head, or idle
 * between requests): slow heads cannot hold the cap. When every connection has a request under
 * way, the new one is taken into a small reserve where only `GET /health` is served and every
 * other request is answered 429 with `Retry-After` (admission.ts); each reserve connection is
 * closed after its answer. Past the reserve too, a connection is closed at once, unanswered.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { SocketStates } from './socket-state.ts';

export interface ConnectionCapOptions {
  max: number;
  /** Connections over `max` kept for /health and for 429 answers. */
  reserve: number;
}

export interface ConnectionCap {
  readonly max: number;
  /** True for a connection taken in over the cap (health-only). */
  isReserved(socket: Socket): boolean;
  /** Connections open now, normal and reserved. */
  counts(): { open: number; reserved: number };
}

export function capConnections(server: Server, states: SocketStates, { max, reserve }: ConnectionCapOptions): ConnectionCap {
  // Sets keep insertion order: the first entries are the oldest connections.
  const open = new Set<Socket>();
  const reserved = new Set<Socket>();

  /** Closes the oldest connection of `pool` that waits for a request head or is idle. */
  const displaceIdle = (pool: Set<Socket>): boolean => {
    for (const socket of pool) {
      const phase = states.phase(socket);
      if (phase === 'head' || phase === 'idle') {
        pool.delete(socket);
        socket.destroy();
        return true;
      }
    }
    return false;
  };

  const admit = (pool: Set<Socket>, socket: Socket): void => {
    pool.add(socket);
    socket.once('close', () => pool.delete(socket));
  };

  server.on('connection', (socket: Socket) => {
    if (open.size < max || displaceIdle(open)) {
      admit(open, socket);
      return;
    }
    if (reserved.size < reserve || displaceIdle(reserved)) {
      admit(reserved, socket);
      return;
    }
    socket.destroy();
  });

  return {
    max,
    isReserved: (socket) => reserved.has(socket),
    counts: () => ({ open: open.size + reserved.size, reserved: reserved.size }),
  };
}
