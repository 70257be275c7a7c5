import type { Server, Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Caps the open sockets of one remote address: over the cap a new socket is destroyed before it
 * can send a request, so one client cannot use up the process's file descriptors (issue 36).
 * Returns the live counts, for tests.
 */
export function capConnectionsPerAddress(server: Server, max: number, log: FastifyBaseLogger): Map<string, number> {
  const open = new Map<string, number>();
  if (max <= 0) return open;
  let warnedAt = 0;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      // One line a minute at most: the log must not become the next thing a flood fills.
      const now = performance.now();
      if (now - warnedAt > 60_000) {
        warnedAt = now;
        log.warn({ address, max }, 'connection cap reached for an address; new sockets are closed');
      }
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
  return open;
}
