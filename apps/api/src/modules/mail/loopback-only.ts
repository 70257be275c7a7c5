import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../lib/errors';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

export const isLoopback = (address: string | undefined): boolean => !!address && LOOPBACK.test(address);

/**
 * The dev mailbox shows everyone's reset links: it answers only a browser on this machine, even
 * when HOST opens the API to the network (issue 36). Both the socket and the client (behind a
 * trusted proxy on this machine) must be loopback; anyone else gets the 404 of a missing route.
 */
export async function loopbackOnly(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!isLoopback(request.socket.remoteAddress) || !isLoopback(request.ip)) throw notFound('That page');
}
