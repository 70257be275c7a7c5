import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import { LIVE_INTERVAL_MS, liveQuerySchema, liveSnapshotSchema, type LiveSnapshot } from '@kringle/contracts/live';
import { openEventStream } from '../../lib/event-stream';
import { authOf } from '../../plugins/auth';
import { assertStaffLocation } from '../../plugins/staff-access';
import { LiveStreamRegistry, signOutListener } from '../availability/live-stream-limits';
import { LiveFeed } from './live-feed';
import { liveFor, readLive, type LiveScope } from './live.service';

const FIGURES = `Today is each location's own local day (its time zone). Each of today's sessions counts once: sold
(booked and paid), else held (a live hold: a family choosing or paying), else closed (out of sale), else free while \
it is
not over (still for sale); a session that ended unsold is in none of the four. line: the fair-start waiting room's
families waiting (before the draw too) and admitted (let in, admission running or holding since). Payments and failed
payments are the last 5 minutes' outcomes as the audit trail recorded them, at the booking's location: paid online
bookings, paid photo orders and walk-ins sold at the set; declined or failed card payments, each attempt.
errorsLast5Min: 5xx answers of the whole API (every location) in the last 5 minutes: each process counts its own \
and tells
the others every 2 s over PostgreSQL; a process that cannot reach the database counts for itself only. Figures are read
at most once per 2 s per API process and shared by every caller, so they may be up to 2 s old (\`at\`).
With locationId, that location only (403 LOCATION_FORBIDDEN outside the caller's list, 404 when there is none);
without it, every location the caller covers. Decision 0094.`;

const STREAM = `The same figures as GET /staff/live, as server-sent events (text/event-stream): first \`retry: 3000\`,
then at once and every ${LIVE_INTERVAL_MS / 1000} s a \`data:\` event (the default \`message\` event) whose data is \
the JSON of
GET /staff/live's answer, and a \`: keep-alive\` comment every 25 s. At most 5 streams per account and 20 per \
address are open
(429 RATE_LIMITED with Retry-After). A stream ends when the ID token that opened it expires, when the account signs out,
is deactivated or is no longer a manager, and when the process shuts down: the client reopens with a fresh token. \
Read it
with fetch() and the Authorization header (as the Session step's live stream), since EventSource cannot send it.`;

/** The manager's Live page (issue 50, decision 0094): the figures now, and every 2 s as a stream. */
export async function liveRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'staff' as const, staffRoles: ['manager'] as const };
  const feed = new LiveFeed(
    () => readLive(app),
    (err) => app.log.warn({ err }, 'live figures: could not read them'),
  );
  // Streams per account and address, and their end at sign-out, as the other live streams (decision 0048).
  const { LIVE_STREAMS_PER_ACCOUNT: perAccount, LIVE_STREAMS_PER_ADDRESS: perAddress } = app.config;
  const registry = new LiveStreamRegistry(app.config.RATE_LIMIT_MODE === 'off' ? null : { perAccount, perAddress });
  const signOuts = signOutListener(app.pool.options, registry, app.log);
  app.sessionCutoffs.onRaised((userId) => registry.endUser(userId));
  /** This app's open streams, ended before the server closes (it waits for open connections). */
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
    feed.stop();
    await signOuts.stop();
  });

  /** The caller's scope; a location asked for must be theirs (403 LOCATION_FORBIDDEN). */
  const scopeOf = (req: FastifyRequest, locationId: string | undefined): LiveScope => {
    if (locationId !== undefined) assertStaffLocation(req, locationId);
    return { staffLocationIds: req.staffAccess?.locationIds ?? [], locationId };
  };

  r.get(
    '/staff/live',
    {
      config,
      schema: {
        tags: ['staff'],
        summary: 'Live figures per location: sessions sold, held, free, closed; the line; payments; errors',
        description: FIGURES,
        querystring: liveQuerySchema,
        response: { 200: liveSnapshotSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (req) => liveFor(await feed.current(), scopeOf(req, req.query.locationId)),
  );

  r.get(
    '/staff/live/stream',
    {
      config,
      schema: {
        tags: ['staff'],
        summary: 'The live figures every 2 s (server-sent events)',
        description: `${STREAM}\n\n${FIGURES}`,
        querystring: liveQuerySchema,
        response: {
          200: z.any().meta({ description: 'text/event-stream' }),
          400: errorBodySchema,
          404: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (req, reply) => {
      const { locationId } = req.query;
      const auth = authOf(req);
      const scope = scopeOf(req, locationId);
      registry.assertRoom(auth.userId, req.ip);
      // Counted before the first await, so a burst of opens cannot pass the cap together.
      const ender = { end: () => {} };
      const release = registry.add(auth.userId, req.ip, () => ender.end());
      try {
        await signOuts.ensure();
        // An unknown location is 404 before the stream opens.
        liveFor(await feed.current(), scope);
      } catch (err) {
        release();
        throw err;
      }
      let unsubscribe = () => {};
      const { stream, sent } = openEventStream(reply, {
        msLeft: auth.expiresAtMs - app.clock.now().getTime(),
        onEnd: () => {
          release();
          unsubscribe();
          open.delete(stream.end);
        },
      });
      open.add(stream.end);
      ender.end = stream.end;
      // Each send asks the account again (a cached read, at most 5 s old): a manager deactivated,
      // moved to another role or to other locations sees that at once, not at the token's expiry.
      unsubscribe = feed.subscribe((snapshot: LiveSnapshot) => {
        app.staffStates.get(auth.userId, app.clock.now().getTime()).then(
          (state) => {
            if (!state?.active || state.role !== 'manager' || !state.mfaEnrolled) return stream.end();
            try {
              stream.send(liveFor(snapshot, { staffLocationIds: state.locationIds, locationId }));
            } catch {
              stream.end();
            }
          },
          () => undefined,
        );
      });
      return sent;
    },
  );
}
