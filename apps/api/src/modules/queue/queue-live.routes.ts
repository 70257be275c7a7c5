import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import { queueParamsSchema, type QueueTicket } from '@kringle/contracts/queue';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import { LiveStreamRegistry, signOutListener } from '../availability/live-stream-limits';
import { getTicket, lineVersion, ticketsByUser } from './queue.service';
import { touchTickets } from './queue-presence.repository';

const KEEP_ALIVE_MS = 25_000;
const MAX_BUFFERED_BYTES = 64 * 1024;
/** How often a process with open streams looks at a line's version (one row per line, not per family). */
const WATCH_MS = 500;
/**
 * A change told by this process's own pass is read at once, but not twice within this: in a burst
 * of holds every pass changes the line, and the watch's next look (WATCH_MS) still sees the last.
 */
const MIN_FORCED_GAP_MS = 250;

/** The live ticket stream, added by queueRoutes in its place: apart for its own state (lines watched, timers, caps). */
export function queueLiveRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const gate = app.queueGate;

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
    if (force && Date.now() - w.readAtMs < MIN_FORCED_GAP_MS) return;
    w.busy = true;
    try {
      const ids = [...new Set([...w.watchers].map((x) => x.userId))];
      // An open stream keeps its family's place (QUEUE_RECONNECT_SECONDS): one write a line every 20 s.
      if (Date.now() - w.touchedAtMs >= 20_000) {
        w.touchedAtMs = Date.now();
        await touchTickets(app.db, locationId, ids, app.clock.now());
      }
      const version = await lineVersion(app, locationId);
      // Tickets also change with time alone (an admission ending): a full read at least every 5 s.
      if (!force && version === w.version && Date.now() - w.readAtMs < 5000) return;
      w.readAtMs = Date.now();
      const all = await ticketsByUser(app, locationId, ids);
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

  // One hook for the line's shutdown, in this order: the streams, then the gate's nudges (whose
  // passes push to them), then the sign-out listener.
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
        tags: ['queue'],
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
}
