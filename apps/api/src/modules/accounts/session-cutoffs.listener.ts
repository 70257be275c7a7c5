import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { listenWithReconnect } from '../../db/listen';
import type { Clock } from '../../lib/clock';
import { CUTOFF_MEMORY_MS, type SessionCutoffs } from './session-cutoffs';
import { SESSIONS_ENDED_CHANNEL, sessionsEndedSince } from './session-cutoffs.repository';

/** The safety poll while listening (a connection that died silently); NOTIFY is the fast way. */
const POLL_LISTENING_MS = 15_000;
/** While the listener is down, ends elsewhere reach this process within this. */
const POLL_UNHEARD_MS = 2_000;

/**
 * Mirrors the ends of sessions made by every API process into this one's `SessionCutoffs`
 * (decision 0063): one LISTEN connection, a reload of the last CUTOFF_MEMORY_MS after every
 * attempt to (re)connect (listening first, then reading: an end committed in between is heard or
 * read, never neither), and a poll: every 15 s while listening, every 2 s while not. `ready`
 * resolves after the first load, or its failure (logged).
 */
export function startSessionCutoffsListener(deps: {
  cutoffs: SessionCutoffs;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  databaseUrl: string;
}): {
  ready: Promise<void>;
  stop(): Promise<void>;
} {
  const { cutoffs, clock, log } = deps;
  let listening = false;
  let stopped = false;
  let poll: NodeJS.Timeout | undefined;

  const reload = async () => {
    const now = clock.now().getTime();
    cutoffs.prune(now);
    try {
      for (const ended of await sessionsEndedSince(deps.db, new Date(now - CUTOFF_MEMORY_MS)))
        cutoffs.raise(ended.userId, ended.epoch, ended.endedAtMs);
    } catch (err) {
      log.warn({ err }, 'could not read ended sessions; will try again');
    }
  };

  const schedulePoll = () => {
    clearTimeout(poll);
    if (stopped) return;
    poll = setTimeout(() => void reload().finally(schedulePoll), listening ? POLL_LISTENING_MS : POLL_UNHEARD_MS);
    poll.unref();
  };

  const listener = listenWithReconnect({
    databaseUrl: deps.databaseUrl,
    applicationName: 'kringle-api-session-ends',
    channels: [SESSIONS_ENDED_CHANNEL],
    onNotification: (_channel, payload) => {
      const [userId, epoch, endedAtMs] = payload.split(' ');
      if (userId && Number.isInteger(Number(epoch)) && Number.isFinite(Number(endedAtMs)))
        cutoffs.raise(userId, Number(epoch), Number(endedAtMs));
    },
    onListening: (now) => {
      listening = now;
      // Lost: poll fast until the reconnect (whose reload catches up anyway).
      if (!now) schedulePoll();
    },
    afterAttempt: async () => {
      await reload();
      schedulePoll();
    },
    log,
    name: 'session-ends listener',
  });
  return {
    ready: listener.ready,
    async stop() {
      stopped = true;
      clearTimeout(poll);
      await listener.stop();
    },
  };
}
