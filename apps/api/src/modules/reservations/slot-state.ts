import type pg from 'pg';
import type { BuiltAnswer } from '../availability/availability.answer';
import { AvailabilityCache } from '../availability/availability.cache';
import { SlotFeed } from '../availability/slot-feed';
import { HoldBatcher } from '../sessions/hold-batcher';
import type { Announcements } from '../sessions/slot-events.listener';
import { TakenSessions } from '../sessions/taken-sessions';

/**
 * Everything an API process keeps in memory about sessions, in one object that app.ts creates
 * and decorates (`app.slotState`); nothing of it is shared between processes (decision 0014).
 *
 * A hold, from request to row:
 * 1. `POST /bookings/reservation` (reservations.routes.ts) reaches `createReservation`
 *    (reservations.service.ts).
 * 2. `taken` refuses at once a session this process, or another one, has just seen taken.
 * 3. Otherwise `batcher` sends the hold statement (hold-batcher.ts, one at a time per process, a
 *    burst of first attempts sharing it; sessions/hold-statements.repository.ts).
 * 4. One conditional UPDATE of the slot row decides (decision 0007). It refuses a session that is
 *    held or booked, not open yet (decision 0025), or on a day a family waits for
 *    (noOneWaitingFor in sessions/session-rules.sql.ts, decision 0028).
 * 5. When the hold is granted, `changed()` drops this process's cached availability for the
 *    location (`availability`, decision 0012).
 * 6. `announceTaken` (slot-events.listener.ts) tells the other processes on `kringle_taken`.
 *    Their listener remembers the session in their `taken` and pushes it to open live streams
 *    (`feed`, decision 0026).
 * A free, whatever caused it (cancel, lapse, reschedule, a failed payment, a declined offer),
 * reaches every process through the `slots_freed` trigger's NOTIFY. The process that freed it also
 * says `changed()` at once.
 */
export class SlotState {
  readonly taken: TakenSessions;
  readonly availability: AvailabilityCache<BuiltAnswer>;
  readonly feed = new SlotFeed();
  readonly batcher: HoldBatcher;
  /** Announcements of holds waiting for the next batched NOTIFY (slot-events.listener.ts). */
  readonly announcements: Announcements = { entries: [] };

  constructor(pool: Pick<pg.Pool, 'query'>, availabilityCacheMs: number) {
    this.taken = new TakenSessions(availabilityCacheMs);
    this.availability = new AvailabilityCache<BuiltAnswer>(availabilityCacheMs);
    this.batcher = new HoldBatcher(pool);
  }

  /**
   * The one place that says "sessions changed here": the cached availability answers of that
   * location (all, without one) are dropped, and freed sessions are no longer refused from memory.
   */
  changed(change: { locationId?: string; freed?: string[] } = {}): void {
    this.availability.forget(change.locationId);
    if (change.freed?.length) this.taken.forget(change.freed);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's memory of sessions (reservations/slot-state.ts). */
    slotState: SlotState;
  }
}
