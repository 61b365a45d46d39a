/**
 * A loopback port that refuses connections, for the "unreachable server" tests.
 *
 * A port freed by closing a server that listened on port 0 is in the ephemeral range, where the
 * kernel may hand it to another test's server a moment later (CI once saw a fake search backend's
 * "closed" port answer HTTP 404 from a neighbour). Port 1023 is below 1024, so no listen(0) is ever
 * given it, no test binds it, and it is not on the Fetch standard's bad-port list (fetch() refuses
 * port 9 before connecting): a connection to it is refused. Checked, not assumed.
 */
import net from 'node:net';

export const REFUSED_PORT = 1023;

/** Resolves to REFUSED_PORT once a connection to 127.0.0.1 on it was refused; throws otherwise. */
export function refusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(REFUSED_PORT, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      reject(new Error(`something listens on 127.0.0.1:${REFUSED_PORT}; the unreachable-server tests need it closed`));
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED') resolve(REFUSED_PORT);
      else reject(err);
    });
  });
}
