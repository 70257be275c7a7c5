import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import {
  queueFairnessSchema,
  queueReportSchema,
  queueParamsSchema,
  queueTicketSchema,
  staffQueueSummarySchema,
  type QueueTicket,
} from '@kringle/contracts/queue';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import { assertStaffLocation } from '../../plugins/staff-access';
import { staffActor } from '../audit-trail/audit-entries.repository';
import { LiveStreamRegistry, signOutListener } from '../availability/live-stream-limits';
import {
  fairness,
  getTicket,
  joinQueue,
  lineVersion,
  passLocation,
  pauseQueue,
  staffSummary,
  ticketsByUser,
} from './queue.service';
import { queueAddressOf } from './queue-address';
import { drawReport } from './queue-report.service';
import { touchTickets } from './queue-presence.repository';

const KEEP_ALIVE_MS = 25_000;
const MAX_BUFFERED_BYTES = 64 * 1024;
/** How often a process with open streams looks at a line's version (one row per line, not per family). */
const WATCH_MS = 500;

/** The fair start's waiting room (API.md "Additions (2026-11-26)" → "Fair start", decision 0053). */
export async function queueRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['queue'];
  const gate = app.queueGate;
  gate.runPass = (locationId) => passLocation(app, locationId);

  r.post(
    '/queue/:locationId',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'Join the waiting room of a location whose sales open at a set time',
        description:
          'One place per account and location: again (another tab, device or process) → the same ticket. 404 when ' +
          'the location has no line or it is not open yet. ' +
          'At most QUEUE_TICKETS_PER_ADDRESS (20) waiting or admitted tickets in one line from one address (an IPv6 ' +
          'client by its /64): the next is 429 RATE_LIMITED with Retry-After.',
        params: queueParamsSchema,
        response: { 200: queueTicketSchema, 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (req) => joinQueue(app, authOf(req).userId, req.params.locationId, queueAddressOf(app, req.ip)),
  );

  r.get(
    '/queue/:locationId',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'Your place in the line',
        params: queueParamsSchema,
        response: { 200: queueTicketSchema, 404: errorBodySchema },
      },
    },
    async (req) => getTicket(app, authOf(req).userId, req.params.locationId),
  );

  r.get(
    '/queue/:locationId/fairness',
    {
      config: { auth: 'public', appCheck: false },
      schema: {
        tags,
        summary: "The draw's seed hash, the seed after the draw, and the entrants (anyone can recompute the order)",
        description:
          'Order = entrants sorted by hex HMAC-SHA256(key: seed, message: ticket id), ascending; sha256(seed) = ' +
          'seedHash. docs/fair-start.md; tools/check-queue-draw.mjs checks it.',
        params: queueParamsSchema,
        response: { 200: queueFairnessSchema, 404: errorBodySchema },
      },
    },
    async (req) => fairness(app, req.params.locationId),
  );

  r.get(
    '/queue/:locationId/report',
    {
      config: { auth: 'public', appCheck: false },
      schema: {
        tags,
        summary: "The drop's report: the draw, admissions per minute, admission to hold, when it sold out",
        description:
          'Public from the draw on (404 before); `final` once the line has closed. `npm run queue:check` checks the ' +
          'draw and the figures.',
        params: queueParamsSchema,
        response: { 200: queueReportSchema, 404: errorBodySchema },
      },
    },
    async (req) => drawReport(app, req.params.locationId),
  );

  // Live tickets: streams of one line share one version check and one read of all its tickets.
  const { LIVE_STREAMS_PER_ACCOUNT: perAccount, LIVE_STREAMS_PER_ADDRESS: perAddress } = app.config;
  const registry = new LiveStreamRegistry(app.config.RATE_LIMIT_MODE === 'off' ? null : { perAccount, perAddress });
  const signOuts = signOutListener(app.pool.options, registry, app.log);
  // Every session of the account ended (decision 0063), told here or by any other process.
  app.sessionCutoffs.onRaised((userId) => registry.endUser(userId));
  type Watcher = { userId: string; send: (t: QueueTicket) => void; last: string };
  const watched = new Map<
    string,
    {
      watchers: Set<Watcher>;
      version: number | null;
      timer: NodeJS.Timeout;
      busy: boolean;
      readAtMs: number;
      touchedAtMs: number;
    }
  >();
  const open = new Set<() => void>();

  const push = async (locationId: string, force = false) => {
    const w = watched.get(locationId);
    if (!w || w.busy) return;
    w.busy = true;
    try {
      // An open stream keeps its family's place (QUEUE_RECONNECT_SECONDS): one write a line every 20 s.
      if (Date.now() - w.touchedAtMs >= 20_000) {
        w.touchedAtMs = Date.now();
        const ids = [...new Set([...w.watchers].map((x) => x.userId))];
        await touchTickets(app.db, locationId, ids, app.clock.now());
      }
      const version = await lineVersion(app, locationId);
      // Tickets also change with time alone (an admission ending): a full read at least every 5 s.
      if (!force && version === w.version && Date.now() - w.readAtMs < 5000) return;
      w.readAtMs = Date.now();
      const all = await ticketsByUser(app, locationId);
      if (!all) return;
      w.version = all.version;
      for (const watcher of w.watchers) {
        const ticket = all.tickets.get(watcher.userId);
        if (!ticket) continue;
        const text = JSON.stringify(ticket);
        if (text === watcher.last) continue;
        watcher.last = text;
        watcher.send(ticket);
      }
    } catch (err) {
      app.log.debug({ err }, 'queue live: could not read the line');
    } finally {
      w.busy = false;
    }
  };
  gate.onChange((locationId) => void push(locationId, true));

  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
    for (const w of watched.values()) clearInterval(w.timer);
    gate.stop();
    await signOuts.stop();
  });

  r.get(
    '/queue/:locationId/live',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'Your ticket, live (server-sent events)',
        description:
          'text/event-stream: `retry: 3000`, then `event: ticket` with the ticket as JSON at once and on every ' +
          'change, and a `: keep-alive` comment every 25 s. ' +
          'Same caps as the availability stream (5 per account, 20 per address: 429 RATE_LIMITED); ends when the ' +
          'token expires or the account signs out. 404 when not in the line.',
        params: queueParamsSchema,
        response: {
          200: z.any().meta({ description: 'text/event-stream' }),
          404: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (req, reply) => {
      const { locationId } = req.params;
      const auth = authOf(req);
      registry.assertRoom(auth.userId, req.ip);
      const ender = { end: () => {} };
      const release = registry.add(auth.userId, req.ip, () => ender.end());
      let first: QueueTicket;
      try {
        await signOuts.ensure();
        first = await getTicket(app, auth.userId, locationId);
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
      const watcher: Watcher = {
        userId: auth.userId,
        send: (t) => write(`event: ticket\ndata: ${JSON.stringify(t)}\n\n`),
        last: JSON.stringify(first),
      };
      let w = watched.get(locationId);
      if (!w) {
        const timer = setInterval(() => void push(locationId), WATCH_MS);
        timer.unref();
        w = { watchers: new Set(), version: null, timer, busy: false, readAtMs: 0, touchedAtMs: Date.now() };
        watched.set(locationId, w);
      }
      w.watchers.add(watcher);
      const keepAlive = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      keepAlive.unref();
      const expiry = setTimeout(() => end(), Math.max(0, auth.expiresAtMs - app.clock.now().getTime()));
      expiry.unref();
      function end() {
        if (ended) return;
        ended = true;
        clearInterval(keepAlive);
        clearTimeout(expiry);
        release();
        const line = watched.get(locationId);
        line?.watchers.delete(watcher);
        if (line && !line.watchers.size) {
          clearInterval(line.timer);
          watched.delete(locationId);
        }
        open.delete(end);
        stream.end();
      }
      open.add(end);
      ender.end = end;
      reply.raw.once('close', end);
      stream.write('retry: 3000\n\n');
      watcher.send(first);
      return reply
        .header('cache-control', 'no-cache, no-transform')
        .header('x-accel-buffering', 'no')
        .type('text/event-stream; charset=utf-8')
        .send(stream);
    },
  );

  // Operators (staff app): managers see the line and may pause it.
  const staff = { auth: 'staff' as const, staffRoles: ['manager'] as const };
  r.get(
    '/staff/queue/:locationId',
    {
      config: staff,
      schema: {
        tags: ['staff'],
        summary: "A location's waiting room: length, admitted, holding, sold",
        params: queueParamsSchema,
        response: { 200: staffQueueSummarySchema, 404: errorBodySchema },
      },
    },
    async (req) => {
      assertStaffLocation(req, req.params.locationId);
      return staffSummary(app, req.params.locationId);
    },
  );
  r.post(
    '/staff/queue/:locationId/pause',
    {
      config: staff,
      schema: {
        tags: ['staff'],
        summary: 'Pause admissions (families keep their places)',
        params: queueParamsSchema,
        response: { 200: staffQueueSummarySchema, 404: errorBodySchema },
      },
    },
    async (req) => {
      assertStaffLocation(req, req.params.locationId);
      return pauseQueue(app, req.params.locationId, true, staffActor(authOf(req)));
    },
  );
  r.post(
    '/staff/queue/:locationId/resume',
    {
      config: staff,
      schema: {
        tags: ['staff'],
        summary: 'Resume admissions',
        params: queueParamsSchema,
        response: { 200: staffQueueSummarySchema, 404: errorBodySchema },
      },
    },
    async (req) => {
      assertStaffLocation(req, req.params.locationId);
      const summary = await pauseQueue(app, req.params.locationId, false, staffActor(authOf(req)));
      gate.nudge(req.params.locationId);
      return summary;
    },
  );
}
