import type { FastifyInstance } from 'fastify';

/** Form-encoded bodies (Twilio's webhooks, the catcher's reply form) as a plain record, in this plugin only. */
export function acceptFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
}
