import type { SlotStatus } from '@kringle/contracts/statuses';

/** One change of one slot, as the live stream sends it (decision 0026). */
export interface SlotChange {
  slotId: string;
  date: string;
  status: SlotStatus;
}
/** Where a slot is and how it stands now, read from PostgreSQL. */
export interface SlotNow extends SlotChange {
  locationId: string;
}
export interface FeedSubscriber {
  send(change: SlotChange): void;
  end(): void;
}
type Lookup = (slotIds: string[]) => Promise<SlotNow[]>;

/** A slot's location never changes and its day only when its start moves (which frees it): kept. */
const MAX_KNOWN = 100_000;
/** Frees heard together share one lookup. */
const LOOKUP_BATCH_MS = 10;

/**
 * Fans the slot announcements the taken-sessions listener already hears (decision 0014: holds by
 * `kringle_taken`, frees by the slots_freed trigger's `kringle_freed`) out to the open live streams
 * of each location. One per process, fed by the process's one LISTEN connection: a stream costs no
 * connection and no query. A hold is sent as `reserved` at once when its slot is known; a free (or
 * anything else) is looked up, batched, so the stream says the slot's real status and day.
 */
export class SlotFeed {
  private readonly subscribers = new Map<string, Set<FeedSubscriber>>();
  private readonly known = new Map<string, { locationId: string; date: string }>();
  private pending = new Set<string>();
  private inFlight: Set<string> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private lookup: Lookup | null = null;
  /** True while the LISTEN connection is up: without it the stream would say nothing, so it is refused. */
  listening = false;
  /** Failed lookups, for the log. */
  onError: (err: unknown) => void = () => {};

  /** The route gives the feed its way to read slots (it has the app's db, clock and config). */
  setLookup(lookup: Lookup): void {
    this.lookup = lookup;
  }

  get openStreams(): number {
    let n = 0;
    for (const set of this.subscribers.values()) n += set.size;
    return n;
  }

  subscribe(locationId: string, subscriber: FeedSubscriber): () => void {
    let set = this.subscribers.get(locationId);
    if (!set) this.subscribers.set(locationId, (set = new Set()));
    set.add(subscriber);
    return () => {
      set.delete(subscriber);
      if (!set.size && this.subscribers.get(locationId) === set) this.subscribers.delete(locationId);
    };
  }

  /** Ends every open stream (shutdown, or the listener lost its connection: clients reconnect or poll). */
  endAll(): void {
    for (const set of [...this.subscribers.values()]) for (const s of [...set]) s.end();
    this.subscribers.clear();
  }

  setListening(listening: boolean): void {
    this.listening = listening;
    if (!listening) this.endAll();
  }

  /** Sessions just held somewhere (any process, this one included). */
  taken(slotIds: string[]): void {
    if (!this.subscribers.size) return;
    for (const slotId of slotIds) {
      const where = this.known.get(slotId);
      // A slot with a lookup under way waits for the next one, so a later change is never sent before an earlier one.
      if (!where || this.pending.has(slotId) || this.inFlight?.has(slotId)) this.queue(slotId);
      else this.emit({ slotId, status: 'reserved', ...where });
    }
  }

  /** Sessions freed (the trigger's message): read back, since free is not always available. */
  changed(slotIds: string[]): void {
    if (!this.subscribers.size) return;
    for (const slotId of slotIds) this.queue(slotId);
  }

  private queue(slotId: string): void {
    this.pending.add(slotId);
    if (this.timer || this.inFlight) return;
    this.timer = setTimeout(() => void this.flush(), LOOKUP_BATCH_MS);
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    this.timer = undefined;
    if (!this.pending.size || !this.lookup) return void this.pending.clear();
    const batch = this.pending;
    this.pending = new Set();
    this.inFlight = batch;
    try {
      for (const row of await this.lookup([...batch])) {
        if (this.known.size >= MAX_KNOWN) this.known.clear();
        this.known.set(row.slotId, { locationId: row.locationId, date: row.date });
        this.emit(row);
      }
    } catch (err) {
      this.onError(err);
    } finally {
      this.inFlight = null;
      if (this.pending.size) {
        this.timer = setTimeout(() => void this.flush(), LOOKUP_BATCH_MS);
        this.timer.unref();
      }
    }
  }

  private emit(change: SlotChange & { locationId: string }): void {
    const set = this.subscribers.get(change.locationId);
    if (!set) return;
    const message: SlotChange = { slotId: change.slotId, date: change.date, status: change.status };
    for (const s of set) s.send(message);
  }
}
