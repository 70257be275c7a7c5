import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import { errors, notFound } from '../../lib/errors';
import { authOf } from '../../plugins/auth';
import { LiveStreamRegistry, signOutListener } from './live-stream-limits';
import { findLocation } from '../catalogue/catalogue.repository';
import { leadCutoffOf } from '../booking-lifecycle/booking-policy';
import { slotsNow } from './availability-live.repository';
import type { SlotChange } from './slot-feed';

const KEEP_ALIVE_MS = 25_000;
/** A client this far behind is not reading: it is let go (it reconnects, or polls). */
const MAX_BUFFERED_BYTES = 256 * 1024;

const DESCRIPTION = `Server-sent events (text/event-stream) for the Session step: first \`retry: 3000\`, then for every
change of a slot at this location \`event: slot\` with \`data: \
{"slotId":"<uuid>","date":"YYYY-MM-DD","status":"available"|"reserved"|"booked"|"unavailable"}\`
(the slot's status and local day at the moment the change was heard), and a \`: keep-alive\` comment every 25 s.
Holds are sent as \`reserved\`; frees (a hold let go or lapsed early, a booking cancelled or moved, a block lifted, \
a start moved) are
read back, so they say the slot's real status. Payments (reserved to booked) and new blocks are not sent: a client
polls available-slots now and then as well. Answers 503 SERVICE_UNAVAILABLE while this process cannot hear changes
(its listener is down, or AVAILABILITY_CACHE_MS=0): the client then polls. At most 5 streams per account and 20 per \
address
are open (429 RATE_LIMITED with Retry-After). Streams end when the ID token that opened them expires, when the \
account signs
out (any of its refresh families is revoked) and when the process shuts down: the client reopens with a fresh token.
Read it with fetch() (it needs the Authorization and app-check headers, which EventSource cannot send). Decision 0026.`;

/** GET /booking-slot/{locationId}/live (decision 0026): pushes slot changes to open Session steps. */
export async function availabilityLiveRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const feed = app.slotState.feed;
  feed.setLookup((slotIds) => {
    const now = app.clock.now();
    return slotsNow(app.db, { slotIds, now, leadCutoff: leadCutoffOf(app.config, now) });
  });
  feed.onError = (err) => app.log.warn({ err }, 'live slot feed: could not read changed slots');
  /** This app's open streams, ended before the server closes (it waits for open connections). */
  const open = new Set<() => void>();
  // Caps per account and address, and the end at sign-out (issue 36, decision 0048); off with the rate limits.
  const { LIVE_STREAMS_PER_ACCOUNT: perAccount, LIVE_STREAMS_PER_ADDRESS: perAddress } = app.config;
  const registry = new LiveStreamRegistry(app.config.RATE_LIMIT_MODE === 'off' ? null : { perAccount, perAddress });
  const signOuts = signOutListener(app.pool.options, registry, app.log);
  // Every session of the account ended (decision 0063), told here or by any other process.
  app.sessionCutoffs.onRaised((userId) => registry.endUser(userId));
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
    await signOuts.stop();
  });

  r.get(
    '/booking-slot/:locationId/live',
    {
      config: { auth: 'customer' },
      schema: {
        tags: ['availability'],
        summary: "Live changes of the location's sessions (server-sent events)",
        description: DESCRIPTION,
        params: z.strictObject({ locationId: z.uuid() }),
        response: {
          200: z.any().meta({ description: 'text/event-stream' }),
          404: errorBodySchema,
          429: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (req, reply) => {
      const { locationId } = req.params;
      const auth = authOf(req);
      registry.assertRoom(auth.userId, req.ip);
      // Counted before the first await: 2,000 attempts arrive together.
      const ender = { end: () => {} };
      const release = registry.add(auth.userId, req.ip, () => ender.end());
      try {
        await signOuts.ensure();
        if (!(await findLocation(app.db, locationId))) throw notFound('That location');
        if (!feed.listening)
          throw errors.serviceUnavailable('Live updates are not available right now.', { 'retry-after': '30' });
      } catch (err) {
        release();
        throw err;
      }

      const stream = new PassThrough();
      let ended = false;
      const write = (text: string) => {
        if (ended) return;
        if (stream.writableLength > MAX_BUFFERED_BYTES) return end();
        stream.write(text);
      };
      const keepAlive = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      keepAlive.unref();
      // The stream is only as good as the token that opened it; the client reopens with a fresh one.
      const expiry = setTimeout(() => end(), Math.max(0, auth.expiresAtMs - app.clock.now().getTime()));
      expiry.unref();
      const unsubscribe = feed.subscribe(locationId, {
        send: (change: SlotChange) => write(`event: slot\ndata: ${JSON.stringify(change)}\n\n`),
        end: () => end(),
      });
      function end() {
        if (ended) return;
        ended = true;
        clearInterval(keepAlive);
        clearTimeout(expiry);
        release();
        unsubscribe();
        open.delete(end);
        stream.end();
      }
      open.add(end);
      ender.end = end;
      // The response's close: the client went away (the request's own close fires once its body is read).
      reply.raw.once('close', end);
      stream.write('retry: 3000\n\n');
      return (
        reply
          .header('cache-control', 'no-cache, no-transform')
          // Proxies (nginx) must pass events on as they come.
          .header('x-accel-buffering', 'no')
          .type('text/event-stream; charset=utf-8')
          .send(stream)
      );
    },
  );
}
