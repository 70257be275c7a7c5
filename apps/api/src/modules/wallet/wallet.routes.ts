import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bookingParamsSchema } from '@kringle/contracts/bookings';
import { errorBodySchema } from '@kringle/contracts/errors';
import { googleWalletResponseSchema } from '@kringle/contracts/wallet';
import { authOf } from '../../plugins/auth';
import { registerDevice, passesUpdatedSince, unregisterDevice } from './wallet.repository';
import { authorisedPass, familyApplePass, familyGoogleSaveUrl, latestPass, ourPassType } from './wallet.service';

const PKPASS = 'application/vnd.apple.pkpass';
const passType = z.string().min(1).max(200);
const deviceParams = z.object({ deviceId: z.string().min(1).max(200), passTypeId: passType });
const registrationParams = deviceParams.extend({ serial: z.string().min(1).max(64) });
/** The web service's answers without a body (Apple's 401 to a caller that does not hold the pass, 204, 304). */
const empty = z.any().meta({ description: 'no body' });

/**
 * Wallet passes (API.md "Wallet passes and SMS", decision 0099): the family's downloads, and
 * Apple's PassKit web service at /wallet/apple/v1, authenticated by the pass's own token.
 */
export async function walletRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const family = { auth: 'customer' as const };
  const passKit = { auth: 'public' as const, appCheck: false };
  const tags = ['wallet'];

  r.get(
    '/bookings/:id/wallet.pkpass',
    {
      config: family,
      schema: {
        tags,
        summary: 'The Apple Wallet pass (event ticket with the check-in QR code), signed',
        description: `${PKPASS}; 409 NOT_CONFIRMED until the booking is paid. Its webServiceURL keeps it up to date.`,
        params: bookingParamsSchema,
        response: {
          200: z.any().meta({ description: PKPASS }),
          404: errorBodySchema,
          409: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (req, reply) => {
      const { pass, updatedAt } = await familyApplePass(app, authOf(req).userId, req.params.id);
      return reply
        .type(PKPASS)
        .header('content-disposition', `attachment; filename="santa-${req.params.id.slice(0, 8)}.pkpass"`)
        .header('last-modified', updatedAt.toUTCString())
        .header('cache-control', 'no-store')
        .send(pass);
    },
  );
  r.get(
    '/bookings/:id/wallet/google',
    {
      config: family,
      schema: {
        tags,
        summary: 'A "Save to Google Wallet" link: an RS256 JWT with an event ticket object and the same QR code',
        params: bookingParamsSchema,
        response: { 200: googleWalletResponseSchema, 404: errorBodySchema, 409: errorBodySchema, 503: errorBodySchema },
      },
    },
    async (req) => ({ saveUrl: await familyGoogleSaveUrl(app, authOf(req).userId, req.params.id) }),
  );

  const ws = '/wallet/apple/v1';
  r.post(
    `${ws}/devices/:deviceId/registrations/:passTypeId/:serial`,
    {
      config: passKit,
      schema: {
        tags,
        summary: 'PassKit: a device registers a pass for updates (Authorization: ApplePass <token>)',
        params: registrationParams,
        body: z.object({ pushToken: z.string().min(1).max(200) }),
        response: { 200: empty, 201: empty, 401: empty },
      },
    },
    async (req, reply) => {
      const { deviceId, passTypeId, serial } = req.params;
      if (!(await authorisedPass(app, passTypeId, serial, req.headers.authorization))) return reply.code(401).send();
      const created = await registerDevice(app.db, deviceId, serial, req.body.pushToken);
      return reply.code(created ? 201 : 200).send();
    },
  );
  r.delete(
    `${ws}/devices/:deviceId/registrations/:passTypeId/:serial`,
    {
      config: passKit,
      schema: {
        tags,
        summary: 'PassKit: a device stops asking for updates of a pass',
        params: registrationParams,
        response: { 200: empty, 401: empty },
      },
    },
    async (req, reply) => {
      const { deviceId, passTypeId, serial } = req.params;
      if (!(await authorisedPass(app, passTypeId, serial, req.headers.authorization))) return reply.code(401).send();
      await unregisterDevice(app.db, deviceId, serial);
      return reply.code(200).send();
    },
  );
  r.get(
    `${ws}/devices/:deviceId/registrations/:passTypeId`,
    {
      config: passKit,
      schema: {
        tags,
        summary: "PassKit: the serial numbers of the device's passes changed since a tag (204 when none)",
        params: deviceParams,
        querystring: z.object({
          passesUpdatedSince: z
            .string()
            .regex(/^\d{1,20}$/)
            .optional(),
        }),
        response: {
          200: z.object({ serialNumbers: z.array(z.string()), lastUpdated: z.string() }),
          204: empty,
          400: errorBodySchema,
        },
      },
    },
    async (req, reply) => {
      if (!(await ourPassType(app, req.params.passTypeId))) return reply.code(204).send();
      const since = req.query.passesUpdatedSince ? BigInt(req.query.passesUpdatedSince) : null;
      const { serials, lastUpdated } = await passesUpdatedSince(app.db, req.params.deviceId, since);
      if (!serials.length || !lastUpdated) return reply.code(204).send();
      return { serialNumbers: serials, lastUpdated };
    },
  );
  r.get(
    `${ws}/passes/:passTypeId/:serial`,
    {
      config: passKit,
      schema: {
        tags,
        summary: 'PassKit: the latest version of a pass (304 when not modified since If-Modified-Since)',
        params: z.object({ passTypeId: passType, serial: z.string().min(1).max(64) }),
        response: { 200: z.any().meta({ description: PKPASS }), 304: empty, 401: empty },
      },
    },
    async (req, reply) => {
      const { passTypeId, serial } = req.params;
      const state = await authorisedPass(app, passTypeId, serial, req.headers.authorization);
      if (!state) return reply.code(401).send();
      const since = Date.parse(String(req.headers['if-modified-since'] ?? ''));
      // HTTP dates have whole seconds: not modified when the version is within the second it names.
      if (!Number.isNaN(since) && state.updatedAt.getTime() < since + 1000) return reply.code(304).send();
      const pass = await latestPass(app, serial, state.updatedAt);
      return reply.type(PKPASS).header('last-modified', state.updatedAt.toUTCString()).send(pass);
    },
  );
  r.post(
    `${ws}/log`,
    {
      config: passKit,
      schema: {
        tags,
        summary: "PassKit: a device's error messages about our passes (logged)",
        body: z.object({ logs: z.array(z.string().max(2000)).max(100) }),
        response: { 200: empty, 400: errorBodySchema },
      },
    },
    async (req, reply) => {
      for (const line of req.body.logs) req.log.warn({ passKit: line.slice(0, 500) }, 'PassKit device log');
      return reply.code(200).send();
    },
  );
}
