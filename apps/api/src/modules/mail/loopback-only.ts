import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../lib/errors';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** The only names a browser on this machine uses for it, with any port (issue 48 item 11). */
const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

export const isLoopback = (address: string | undefined): boolean => !!address && LOOPBACK.test(address);

export const isLoopbackHost = (host: string | undefined): boolean => !!host && LOOPBACK_HOST.test(host);

/**
 * The dev mailbox shows everyone's reset links: it answers only a browser on this machine, even
 * when HOST opens the API to the network (issue 36). Both the socket and the client (behind a
 * trusted proxy on this machine) must be loopback; anyone else gets the 404 of a missing route.
 * The Host header must name this machine too: a DNS-rebinding page (evil.example resolving to
 * 127.0.0.1) reaches the socket from the developer's own browser, but its requests still carry
 * its own name (issue 48 item 11). A forwarded host, when a proxy sends one, is held to the same rule.
 */
export async function loopbackOnly(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!isLoopback(request.socket.remoteAddress) || !isLoopback(request.ip)) throw notFound('That page');
  const forwardedHost = request.headers['x-forwarded-host'];
  if (
    !isLoopbackHost(request.headers.host) ||
    (forwardedHost !== undefined && !isLoopbackHost(String(forwardedHost)))
  ) {
    throw notFound('That page');
  }
}
