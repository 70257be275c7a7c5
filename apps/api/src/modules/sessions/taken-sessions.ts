import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '../../db/client';
import type { HoldBatcher } from './hold-batcher';
import type { QuickHoldArgs, QuickHoldOutcome } from './hold-statements.repository';

/**
 * Sessions this process has just seen taken (decision 0014). On drop day most hold attempts are for
 * sessions that are already gone; refusing those from memory keeps them off PostgreSQL, the one part
 * that more API processes cannot scale. It only ever refuses: a hold is granted by the slot row's
 * conditional UPDATE alone.
 *
 * How stale a refusal can be: never past the end of the hold that took the session, and
 * - while this process listens (slot-events.listener.ts), at most HEARD_TTL_MS: every free
 *   anywhere reaches it when the freeing transaction commits (the slots_freed trigger), so the
 *   bound only covers a listener that died without noticing;
 * - otherwise at most AVAILABILITY_CACHE_MS, the bound the availability answers already have.
 * Freeing a session through this process forgets it at once. The holder is never refused their
 * own session (re-picking it goes to the database as before).
 */
export const HEARD_TTL_MS = 10_000;

interface Entry {
  /** The customer whose live hold took it; null when it is booked, blocked or too soon. */
  holderId: string | null;
  at: number;
  until: number;
}

export class TakenSessions {
  private readonly entries = new Map<string, Entry>();
  private readonly asking = new Map<string, Promise<unknown>>();
  /** Moves on at every forget(), so what a query saw before a session was freed is not kept. */
  private generation = 0;

  /** Tells this memo's own broadcasts apart from the other processes'. */
  readonly origin = randomUUID();
  /** Set by the listener while it hears every free (entries may then live HEARD_TTL_MS). */
  private listening = false;

  /** Off with a cache of 0 ms: nothing is remembered, nothing announced. A field, not a getter: read on every hold. */
  readonly enabled: boolean;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 20_000,
  ) {
    this.enabled = ttlMs > 0;
  }

  /** True when `userId` must be told the session is taken without asking the database. */
  refuses(slotId: string, userId: string, now: Date): boolean {
    const entry = this.fresh(slotId, now);
    return !!entry && entry.holderId !== userId;
  }

  /**
   * True when another customer's live hold has the session, as far as this process knows: then it
   * is not `userId`'s own unpaid checkout either, and a refusal needs no query to say so.
   */
  heldByAnother(slotId: string, userId: string, now: Date): boolean {
    const entry = this.fresh(slotId, now);
    return !!entry && entry.holderId !== null && entry.holderId !== userId;
  }

  private fresh(slotId: string, now: Date): Entry | undefined {
    const entry = this.entries.get(slotId);
    if (!entry) return undefined;
    const t = now.getTime();
    // Judged by the app clock; a clock moved back (tests) makes an entry stale, never fresher.
    if (t < entry.at || t >= entry.until) {
      this.entries.delete(slotId);
      return undefined;
    }
    return entry;
  }

  /** Pass to remember(): taken before the database is asked. */
  get version(): number {
    return this.generation;
  }

  /**
   * `heldUntil`: when the hold that took it ends (null: booked, blocked or too soon, no end known).
   * `version`: this.version from before the query that saw it taken.
   */
  remember(slotId: string, holderId: string | null, heldUntil: Date | null, now: Date, version: number): void {
    if (!this.enabled || version !== this.generation) return;
    const at = now.getTime();
    const until = Math.min(
      at + (this.listening ? Math.max(this.ttlMs, HEARD_TTL_MS) : this.ttlMs),
      heldUntil ? heldUntil.getTime() : Infinity,
    );
    if (until <= at) return;
    this.entries.delete(slotId);
    // Oldest first out: Map keeps insertion order.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(slotId, { holderId, at, until });
  }

  /**
   * A drop-day hold attempt, start to end (decisions 0014, 0015): refused from memory when the
   * session was just seen taken (no query); else, after any attempt on the same session already
   * with the database has settled, one hold statement through the batcher, whose answer is
   * remembered. 'refused': taken, from memory; null: a racing hold of the same family met the
   * one-active-hold index (the statement changed nothing: the general path decides).
   */
  async attempt(batcher: Pick<HoldBatcher, 'hold'>, args: QuickHoldArgs): Promise<QuickHoldOutcome | 'refused' | null> {
    const { slotId, userId, now } = args;
    if (this.refuses(slotId, userId, now)) return 'refused';
    // Nor does a session another attempt here is asking about right now cost a query, once that
    // one found it taken; if it failed or lost to a racer elsewhere, this attempt asks itself.
    const asking = this.settled(slotId);
    if (asking) {
      await asking;
      if (this.refuses(slotId, userId, now)) return 'refused';
    }
    return this.track(slotId, () => this.ask(batcher, args));
  }

  private async ask(batcher: Pick<HoldBatcher, 'hold'>, args: QuickHoldArgs): Promise<QuickHoldOutcome | null> {
    const version = this.version;
    let outcome: QuickHoldOutcome;
    try {
      outcome = await batcher.hold(args);
    } catch (err) {
      if (isUniqueViolation(err)) return null;
      throw err;
    }
    const { slotId, userId, now } = args;
    if (outcome.held) this.remember(slotId, userId, args.expiresAt, now, version);
    // Otherwise only what was taken before the statement began, and the answer is "taken" (not the
    // family's own, on sale, under the booking limit): a racer's hold that won meanwhile is not
    // visible to it, so its holder is not known; and at the opening instant a session is on sale,
    // so memory must not say otherwise.
    else if (this.answeredTaken(outcome, args.bookingLimit))
      this.remember(slotId, outcome.takenBefore!.holderId, outcome.takenBefore!.holdExpiresAt, now, version);
    return outcome;
  }

  private answeredTaken(o: QuickHoldOutcome, bookingLimit: number): boolean {
    return !!o.takenBefore && !o.heldByMe && !!o.slotLocationId && !o.notOpen && o.upcomingBookings < bookingLimit;
  }

  /**
   * Runs `ask` (a hold attempt on `slotId` against the database) and lets attempts on the same
   * session that arrive meanwhile wait for it (settled()) instead of racing it there.
   */
  track<T>(slotId: string, ask: () => Promise<T>): Promise<T> {
    const asking = ask();
    if (!this.enabled) return asking;
    this.asking.set(slotId, asking);
    const done = () => {
      if (this.asking.get(slotId) === asking) this.asking.delete(slotId);
    };
    asking.then(done, done);
    return asking;
  }

  /** The attempt on `slotId` now with the database, settled either way; undefined when there is none. */
  settled(slotId: string): Promise<void> | undefined {
    return this.asking.get(slotId)?.then(
      () => {},
      () => {},
    );
  }

  forget(slotIds: Iterable<string>): void {
    this.generation += 1;
    for (const id of slotIds) this.entries.delete(id);
  }

  /** The listener hears every free from now on (true), or may have missed some (false: forget all). */
  setListening(listening: boolean): void {
    this.listening = listening;
    if (listening) return;
    this.generation += 1;
    this.entries.clear();
  }
}
