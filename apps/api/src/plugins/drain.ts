import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import net from 'node:net';

declare module 'fastify' {
  interface FastifyInstance {
    /** The drain before a SIGTERM's close (decision 0093); /ready answers 503 while it runs. */
    drain: Drain;
  }
}

/** Node writes `Connection: close` and ends the socket once this answer is sent. */
const closeAfter = (_req: IncomingMessage, res: ServerResponse) => {
  if (!res.headersSent) res.setHeader('connection', 'close');
};

/**
 * What a SIGTERM does before the app closes (decision 0093). Closing at once (Fastify's close)
 * destroys the idle keep-alive sockets nginx holds, and a POST nginx is writing on one that
 * instant is lost (a 502 it never replays). Instead: stop listening, let every answer close its
 * connection, and wait until nginx has dropped the rest itself (its upstream keepalive_timeout
 * is shorter than the drain), or the drain's time is up.
 */
export class Drain {
  active = false;
  private closing = false;
  private readonly sockets = new Set<net.Socket>();

  constructor(private readonly server: Server) {
    server.on('connection', (socket: net.Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** Resolves after `ms`, or sooner once no connection is left; requests in flight go on after it. */
  async run(ms: number): Promise<void> {
    this.active = true;
    this.closeAfterAnswers();
    // http.Server#close would also destroy the idle sockets (Node 19+); net.Server's only stops listening.
    net.Server.prototype.close.call(this.server);
    const until = Date.now() + ms;
    while (this.sockets.size > 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, until - Date.now())));
    }
  }

  /**
   * Every answer from now on, those being worked on included, closes its connection. Also before
   * any close (app.ts): an answer in flight when Fastify closes would otherwise leave its socket
   * idle after Fastify's one closeIdleConnections, and the close waits out the keep-alive timeout.
   */
  closeAfterAnswers(): void {
    if (this.closing) return;
    this.closing = true;
    this.server.prependListener('request', closeAfter);
    // Node's own closeIdleConnections reads a socket's current response the same way.
    for (const socket of this.sockets) {
      const res = (socket as net.Socket & { _httpMessage?: ServerResponse })._httpMessage;
      if (res) closeAfter(res.req, res);
    }
  }
}
