import type { FastifyInstance } from 'fastify';
import { errors } from '../../lib/errors';
import type { AdmittedWanting } from './queue-admission.repository';
import { hasLiveAdmission, queuedLocations, slotLocation } from './queue.repository';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config'>;

/** A nudge's pass runs this long after it (nudges within it share the pass)… */
const NUDGE_DELAY_MS = 50;
/** …and a line's nudged passes start at least this far apart on a process (the job passes every 500 ms). */
const NUDGE_GAP_MS = 250;

/**
 * The check in the hold (decision 0053): after the opening, while a location's line is open, a
 * family needs a live admission. Locations without a line cost nothing: the set of queued
 * locations is read at most once a second per process, and a hold elsewhere asks nothing more.
 */
export class QueueGate {
  private lines: { locationId: string; salesOpenAt: Date; closed: boolean }[] = [];
  private readAtMs = -Infinity;
  private reading: Promise<void> | null = null;
  private readonly slotLocations = new Map<string, string>();
  private readonly listeners = new Set<(locationId: string) => void>();
  private readonly nudges = new Map<string, NodeJS.Timeout>();
  /** When this process last started a nudged pass, per location (Date.now()). */
  private readonly passedAtMs = new Map<string, number>();
  /** The pass a nudge runs (set by the queue routes; tests call queuePass themselves). */
  runPass: ((locationId: string) => Promise<boolean>) | null = null;
  /**
   * Holds what families admitted with `wants` chose (issue 55), after the pass committed their
   * admissions: set by the reservations routes, whose hold path the queue module cannot import.
   */
  holdWanted: ((locationId: string, wanting: AdmittedWanting[]) => Promise<void>) | null = null;

  constructor(private readonly deps: Deps) {}

  /** Forgets the queued locations (after a season load): the next hold reads them again. */
  forget(): void {
    this.readAtMs = -Infinity;
  }

  private async read(): Promise<void> {
    this.reading ??= queuedLocations(this.deps.db)
      .then((rows) => {
        this.lines = rows;
        this.readAtMs = Date.now();
      })
      .finally(() => {
        this.reading = null;
      });
    await this.reading;
  }

  /**
   * Null (no await, no query) when no line is past its opening; else a promise that rejects with
   * QUEUE_NOT_ADMITTED when the session's location has an open line and this family holds no live
   * admission. The queued locations are read at most once a second per process.
   */
  check(userId: string, slotId: string): Promise<void> | null {
    if (Date.now() - this.readAtMs > 1000) return this.read().then(() => this.check(userId, slotId) ?? undefined);
    const now = this.deps.clock.now();
    if (!this.lines.some((l) => !l.closed && l.salesOpenAt <= now)) return null;
    return this.assertAdmitted(userId, slotId, now);
  }

  private async assertAdmitted(userId: string, slotId: string, now: Date): Promise<void> {
    let locationId = this.slotLocations.get(slotId);
    if (!locationId) {
      locationId = await slotLocation(this.deps.db, slotId);
      if (!locationId) return; // the hold answers 404
      if (this.slotLocations.size > 50_000) this.slotLocations.clear();
      this.slotLocations.set(slotId, locationId);
    }
    const id = locationId;
    if (!this.lines.some((l) => l.locationId === id && !l.closed && l.salesOpenAt <= now)) return;
    if (!(await hasLiveAdmission(this.deps.db, id, userId, now))) throw errors.queueNotAdmitted();
  }

  /**
   * A session was held or freed somewhere: recompute admissions soon (frees admit the next family),
   * but a line at most once every NUDGE_GAP_MS per process: in a burst of holds (an admission's
   * chosen sessions, decision 0116) a pass per hold would cost more than the holds.
   */
  nudge(locationId?: string): void {
    const targets = locationId ? [locationId] : this.lines.filter((l) => !l.closed).map((l) => l.locationId);
    for (const id of targets) {
      if (this.nudges.has(id) || !this.runPass) continue;
      const wait = Math.max(NUDGE_DELAY_MS, (this.passedAtMs.get(id) ?? -Infinity) + NUDGE_GAP_MS - Date.now());
      const timer = setTimeout(() => {
        this.nudges.delete(id);
        this.passedAtMs.set(id, Date.now());
        this.runPass?.(id)
          .then((changed) => changed && this.changed(id))
          .catch(() => {});
      }, wait);
      timer.unref();
      this.nudges.set(id, timer);
    }
  }

  /** A session was held: admitted-not-holding shrank, and so did the stock (only for a queued location). */
  held(locationId: string): void {
    if (this.lines.some((l) => l.locationId === locationId && !l.closed)) this.nudge(locationId);
  }

  /** A slot was freed (any process): nudge the line of its location, if it has one. */
  freed(slotId: string): void {
    const locationId = this.slotLocations.get(slotId);
    if (locationId) this.nudge(locationId);
    else if (this.lines.some((l) => !l.closed)) this.nudge();
  }

  changed(locationId: string): void {
    for (const l of this.listeners) l(locationId);
  }

  onChange(listener: (locationId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    for (const t of this.nudges.values()) clearTimeout(t);
    this.nudges.clear();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The hold's admission check and the line's nudges (decision 0053). */
    queueGate: QueueGate;
  }
}
