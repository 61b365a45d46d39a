/**
 * What each open connection is doing, as the connection cap and the idle timeout need to know
 * it: waiting for its first request head, receiving a request, answering one, idle between
 * requests (keep-alive), or upgraded to another protocol (a WebSocket).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type SocketPhase = 'head' | 'body' | 'answering' | 'idle' | 'upgraded';

export interface SocketStates {
  phase(socket: Socket): SocketPhase;
}

interface State {
  /** The request being received or answered last (pipelined requests: the newest). */
  request?: IncomingMessage;
  /** Requests whose response has not closed yet. */
  open: number;
  upgraded: boolean;
}

export function trackSockets(server: Server): SocketStates {
  const states = new WeakMap<Socket, State>();
  const stateOf = (socket: Socket): State => {
    let state = states.get(socket);
    if (!state) {
      state = { open: 0, upgraded: false };
      states.set(socket, state);
    }
    return state;
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const state = stateOf(req.socket);
    state.request = req;
    state.open += 1;
    res.once('close', () => {
      state.open -= 1;
    });
  };
  // Listeners run in order: this comes before the app's own, so a request is known at once.
  server.prependListener('request', onRequest);
  // Node changes what it does when a 'checkContinue' or 'upgrade' listener exists (without one:
  // 100 Continue sent by itself, upgrades served as plain requests), so those are tracked only
  // alongside whoever adds one.
  const onUpgrade = (req: IncomingMessage): void => {
    stateOf(req.socket).upgraded = true;
  };
  type Listener = (req: IncomingMessage, res: ServerResponse) => void;
  const alongside: Partial<Record<string, Listener>> = { checkContinue: onRequest, upgrade: onUpgrade };
  server.on('newListener', (event: string | symbol) => {
    if (typeof event !== 'string') return;
    const mine = alongside[event];
    if (!mine) return;
    // After the listener being added is in place (before any further I/O).
    queueMicrotask(() => {
      if (!server.listeners(event).includes(mine)) server.prependListener(event, mine);
    });
  });
  return {
    phase(socket) {
      const state = states.get(socket);
      if (state?.upgraded) return 'upgraded';
      if (!state?.request) return 'head';
      if (state.open === 0) return 'idle';
      return state.request.complete ? 'answering' : 'body';
    },
  };
}
