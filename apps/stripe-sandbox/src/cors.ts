import type { FastifyReply, FastifyRequest } from 'fastify';

const LOCALHOST = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/**
 * The browser's confirm call comes from the web app's origin, so the API answers CORS for any
 * localhost origin (whatever port the dev server or the e2e stack uses) plus configured ones.
 */
export function corsHook(extraOrigins: readonly string[]) {
  const extra = new Set(extraOrigins.map((o) => o.replace(/\/$/, '')));
  return (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const origin = req.headers.origin;
    if (origin && (LOCALHOST.test(origin) || extra.has(origin))) {
      void reply
        .header('access-control-allow-origin', origin)
        .header('vary', 'Origin')
        .header('access-control-allow-methods', 'GET, POST')
        .header('access-control-allow-headers', 'Authorization, Content-Type, Idempotency-Key, Stripe-Version')
        .header('access-control-expose-headers', 'Request-Id, Idempotent-Replayed, Original-Request, Stripe-Version')
        .header('access-control-max-age', '600');
      // Chrome's Private Network Access preflight, for a page on a LAN address calling a loopback sandbox.
      if (req.headers['access-control-request-private-network'] === 'true')
        void reply.header('access-control-allow-private-network', 'true');
    }
    done();
  };
}
