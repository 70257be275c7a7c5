import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { listenWithReconnect } from '../../db/listen';
import type { Clock } from '../../lib/clock';
import { HEARD_TTL_MS, type TakenSessions } from './taken-sessions';

/** What the listener feeds besides the memo: the open live streams (availability/slot-feed.ts). */
export interface LiveFeed {
  taken(slotIds: string[]): void;
  changed(slotIds: string[]): void;
  setListening(listening: boolean): void;
}

/** Announcements of holds waiting for the next batched NOTIFY. */
export interface Announcements {
  entries: string[];
  timer?: NodeJS.Timeout;
}

/**
 * Every slot event between processes, on one LISTEN connection per process: sessions taken (the
 * processes' own announcements), sessions freed (PostgreSQL's trigger), feeding the taken-sessions
 * memo, the live availability streams and the waitlist hand-off.
 *
 * The API processes tell each other which sessions they have just handed out (decision 0014), so
 * on drop day each session costs about one query in all instead of one per process; a message
 * missed only costs that query. Frees are told by PostgreSQL itself (the slots_freed trigger), at
 * commit: those must not be missed, so while the listener is down nothing is kept long.
 */
const CHANNEL = 'kringle_taken';
/** The slots_freed trigger (migration 0005) NOTIFYs a session's id here when it is freed. */
const FREED_CHANNEL = 'kringle_freed';
/** Announcements wait this long to share one NOTIFY; a session's next racer comes much later. */
const BATCH_MS = 5;
/** NOTIFY payloads must stay under 8000 bytes; one entry is about 90. */
const PER_NOTIFY = 80;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Holds whose end was heard lately: an announcement of one arriving after its free is stale. */
const ENDED_MEMORY_MS = HEARD_TTL_MS;

/**
 * Queues "this process gave `slotId` to `holderId` (reservation `reservationId`) until `holdEndsAt`"
 * for the other processes. Sent after the hold's own answer, batched, outside its transaction:
 * PostgreSQL serializes committing NOTIFYs, which inside the hold made the first wave of a drop
 * queue behind each other. Being late, it may arrive after that hold's free: receivers then drop it.
 */
export function announceTaken(
  state: { taken: Pick<TakenSessions, 'enabled' | 'origin'>; announcements: Announcements },
  pool: Pick<pg.Pool, 'query'>,
  log: FastifyBaseLogger,
  hold: { slotId: string; holderId: string; reservationId: string; endsAt: Date },
): void {
  const memo = state.taken;
  if (!memo.enabled) return;
  const outbox = state.announcements;
  outbox.entries.push(`${hold.slotId} ${hold.holderId} ${hold.endsAt.getTime()} ${hold.reservationId}`);
  if (outbox.timer) return;
  const box = outbox;
  box.timer = setTimeout(() => {
    box.timer = undefined;
    const entries = box.entries.splice(0);
    for (let i = 0; i < entries.length; i += PER_NOTIFY) {
      // Headed with its origin: a process skips its own (it may have freed one of them since).
      const payload = `${memo.origin}|${entries.slice(i, i + PER_NOTIFY).join(';')}`;
      pool.query('select pg_notify($1, $2)', [CHANNEL, payload]).catch((err: unknown) => {
        log.debug({ err }, 'could not announce taken sessions');
      });
    }
  }, BATCH_MS);
  box.timer.unref();
}

/**
 * Listens for the other processes' announcements (remembered as taken) and for every free
 * (forgotten at once; while listening, entries may live HEARD_TTL_MS), on a connection that
 * reconnects on its own (db/listen.ts).
 */
export function startSlotEventsListener(deps: {
  state: { taken: TakenSessions; feed: LiveFeed };
  clock: Clock;
  log: FastifyBaseLogger;
  databaseUrl: string;
  /** Told of every free heard (the waitlist hands the session to the next family, decision 0028). */
  onFreed?: (slotId: string) => void;
}): {
  ready: Promise<void>;
  stop(): Promise<void>;
} {
  // With the memo off, the waitlist still needs to hear frees (its job covers anything missed).
  const memo = deps.state.taken;
  if (!memo.enabled && !deps.onFreed) return { ready: Promise.resolve(), stop: async () => {} };
  // The same messages feed the open live streams (decision 0026): one LISTEN connection per process.
  const feed = deps.state.feed;
  /** Reservation id -> when it stops mattering (wall clock: it orders messages, not app time). */
  const ended = new Map<string, number>();

  const onTaken = (payload: string) => {
    const [origin, entries] = payload.split('|');
    if (!entries) return;
    // Its own are not remembered again (it may have freed one since), but live streams hear them too.
    const own = origin === memo.origin;
    const now = deps.clock.now();
    const heard: string[] = [];
    for (const entry of entries.split(';')) {
      const [slotId, holderId, endsAt, reservationId] = entry.split(' ');
      const ends = Number(endsAt);
      if (
        !slotId ||
        !holderId ||
        !reservationId ||
        !UUID.test(slotId) ||
        !UUID.test(holderId) ||
        !Number.isFinite(ends)
      )
        continue;
      if (ended.has(reservationId)) continue;
      heard.push(slotId);
      if (!own) memo.remember(slotId, holderId, new Date(ends), now, memo.version);
    }
    feed.taken(heard);
  };

  const onFreed = (payload: string) => {
    const [slotId, reservationId] = payload.split(' ');
    if (!slotId || !UUID.test(slotId)) return;
    memo.forget([slotId]);
    feed.changed([slotId]);
    deps.onFreed?.(slotId);
    if (!reservationId) return;
    const t = Date.now();
    // Oldest first (Map keeps insertion order): drop what no announcement can still trail.
    for (const [id, until] of ended) {
      if (until > t) break;
      ended.delete(id);
    }
    ended.set(reservationId, t + ENDED_MEMORY_MS);
  };

  return listenWithReconnect({
    databaseUrl: deps.databaseUrl,
    applicationName: 'kringle-api-listener',
    channels: [CHANNEL, FREED_CHANNEL],
    onNotification: (channel, payload) => (channel === CHANNEL ? onTaken(payload) : onFreed(payload)),
    // While down, frees may go unheard: back to AVAILABILITY_CACHE_MS, nothing older kept.
    onListening: (listening) => {
      memo.setListening(listening);
      feed.setListening(listening);
    },
    log: deps.log,
    name: 'taken-sessions listener',
  });
}
