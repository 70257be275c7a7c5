import type { FastifyInstance } from 'fastify';
import { ParamsReader } from './params-reader';
import type { SandboxState } from './sandbox-state';
import { stripeRoute, type RouteDeps } from './stripe-route';
import { createFile, fileContents, getFile } from './files.service';
import { StripeError } from './stripe-errors';
import { randomToken } from './ids';

/**
 * Uploads as Stripe has them (files.stripe.com, which the SDK reaches here when its host is set):
 * dispute evidence in PDF, JPEG or PNG, read back by id, their bytes at `/contents`.
 */
export function filesRoutes(
  app: FastifyInstance,
  { deps, state, publicUrl }: { deps: RouteDeps; state: SandboxState; publicUrl: () => string },
): void {
  app.post(
    '/v1/files',
    stripeRoute(deps, {}, (call) =>
      structuredClone(
        createFile(state, new ParamsReader(call.params, ['purpose', 'expand']), call.uploads.file, publicUrl()),
      ),
    ),
  );
  app.get(
    '/v1/files/:id',
    stripeRoute(deps, {}, (call) => {
      new ParamsReader(call.params, []);
      return structuredClone(getFile(state, call.pathParams.id!));
    }),
  );
  // The secret key reads an upload's bytes back (Stripe serves them at files.stripe.com).
  app.get('/v1/files/:id/contents', async (req, reply) => {
    const fail = (err: StripeError) => reply.code(err.status).send(err.toBody(`req_${randomToken(14)}`));
    if (req.headers.authorization !== `Bearer ${deps.keys.secretKey}`)
      return fail(
        new StripeError({ status: 401, type: 'invalid_request_error', message: 'Invalid API Key provided.' }),
      );
    try {
      const { id } = req.params as { id: string };
      const data = fileContents(state, id);
      const type = getFile(state, id).type;
      return reply.type(type === 'pdf' ? 'application/pdf' : `image/${type === 'jpg' ? 'jpeg' : type}`).send(data);
    } catch (err) {
      if (err instanceof StripeError) return fail(err);
      throw err;
    }
  });
}
