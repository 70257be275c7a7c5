/**
 * A short-lived, per-process cache of serialized availability answers (docs/decisions: the
 * availability cache). On drop day thousands of families poll the same few days; without it
 * each poll costs three queries and a serialization of the same answer.
 *
 * How stale an answer can be: at most AVAILABILITY_CACHE_MS (config, 1 s by default; 0 turns the
 * cache off) by the app clock, which the web's 15 s polling already dwarfs, and never past a location's
 * opening instant (salesOpenAt): an answer computed before it lives until it at most, and a reader
 * arriving after it never shares a computation begun before it. A hold taken or released through this
 * process forgets its location's answers at once. Staleness never books anything twice: the hold
 * itself is decided by the slot row's conditional UPDATE, which answers 409 SLOT_UNAVAILABLE.
 */

/**
 * Answers are kept as bytes ready to send: encoding a ~9 KB day of sessions per response was the
 * largest cost left. The routes keep a BuiltAnswer (the bytes, their ETag and compressed forms,
 * decision 0029); the default, plain UTF-8 bytes, is what the unit tests use.
 */
type AnyBody = object;

/** A computed answer, and the instant it stops being true whatever happens (a location's opening time), if any. */
export interface Computed<Body extends AnyBody = Buffer> {
  body: Body;
  validUntil?: number | null;
}

/** What compute() returns: the body alone, or with its validUntil. */
type Answer<Body extends AnyBody> = Body | Computed<Body>;
/** compute() is handed the answer it replaces (a refresh), so it can reuse what has not changed. */
type Compute<Body extends AnyBody> = (previous: Body | undefined) => Promise<Answer<Body>>;

const isComputed = <Body extends AnyBody>(answer: Answer<Body>): answer is Computed<Body> =>
  !Buffer.isBuffer(answer) && 'body' in answer;

interface Entry<Body> {
  body: Body;
  locationId: string;
  computedAt: number;
  /** computedAt + ttlMs, or earlier: an answer from before a location opens dies at the opening instant. */
  expiresAt: number;
}

/** The share of ttlMs after which a requested answer is refreshed ahead of its expiry. */
const REFRESH_AHEAD = 0.75;
const refreshDue = (entry: Entry<unknown>, now: Date) =>
  now.getTime() - entry.computedAt >= (entry.expiresAt - entry.computedAt) * REFRESH_AHEAD;

export class AvailabilityCache<Body extends AnyBody = Buffer> {
  private readonly entries = new Map<string, Entry<Body>>();
  /** Answers being computed: requests that arrive meanwhile wait for the same one. */
  private readonly pending = new Map<string, Promise<Computed<Body>>>();
  /** Moves on at every forget(), so an answer computed before a change is never kept. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 5000,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** A fresh answer, judged by the app clock (tests that move it on never see an old one). */
  get(key: string, now: Date): Body | undefined {
    return this.freshEntry(key, now)?.body;
  }

  private freshEntry(key: string, now: Date): Entry<Body> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const t = now.getTime();
    if (t >= entry.computedAt && t < entry.expiresAt) return entry;
    this.entries.delete(key);
    return undefined;
  }

  /**
   * The fresh answer for a reader that cannot compute (the answer lane, decision 0035): undefined
   * once a refresh is due and none has begun, so that reader goes to the route, which begins it.
   */
  servable(key: string, now: Date): Body | undefined {
    const entry = this.freshEntry(key, now);
    if (!entry) return undefined;
    return refreshDue(entry, now) && !this.pending.has(key) ? undefined : entry.body;
  }

  /**
   * The fresh answer for `key`, computing it at most once at a time. A hot answer is computed again
   * in the background from REFRESH_AHEAD of its life on, while the current one is still served, so
   * its readers never wait for the queries (on a saturated machine, for PostgreSQL's turn for a
   * core too: decision 0012 has the read p99 it saved). Answers stay within ttlMs all the same.
   */
  async getOrCompute(key: string, locationId: string, now: Date, compute: Compute<Body>): Promise<Body> {
    const entry = this.freshEntry(key, now);
    if (entry) {
      // A failed refresh is dropped: the answer expires as usual and the next reader computes it.
      if (refreshDue(entry, now) && !this.pending.has(key))
        this.computeOnce(key, locationId, now, compute).catch(() => {});
      return entry.body;
    }
    const joined = this.pending.get(key);
    if (joined) {
      const answer = await joined;
      // Begun before an opening instant this reader arrived after: its "not open yet" is not for them.
      if (answer.validUntil == null || answer.validUntil > now.getTime()) return answer.body;
    }
    return (await this.computeOnce(key, locationId, now, compute)).body;
  }

  private async computeOnce(
    key: string,
    locationId: string,
    now: Date,
    compute: Compute<Body>,
  ): Promise<Computed<Body>> {
    const generation = this.generation;
    const computing = compute(this.entries.get(key)?.body)
      .then((answer) => (isComputed(answer) ? answer : { body: answer }))
      .finally(() => {
        if (this.pending.get(key) === computing) this.pending.delete(key);
      });
    this.pending.set(key, computing);
    const answer = await computing;
    if (generation === this.generation) this.set(key, locationId, answer, now);
    return answer;
  }

  /** `now`: the app clock before the answer was computed, so its life is capped from the time it describes. */
  set(key: string, locationId: string, answer: Answer<Body>, now: Date): void {
    if (!this.enabled) return;
    if (!isComputed(answer)) answer = { body: answer };
    const computedAt = now.getTime();
    const until = answer.validUntil != null && answer.validUntil > computedAt ? answer.validUntil : Infinity;
    const expiresAt = Math.min(computedAt + this.ttlMs, until);
    // Oldest first out: Map keeps insertion order.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { body: answer.body, locationId, computedAt, expiresAt });
  }

  /** Forgets one location's answers, or every answer. */
  forget(locationId?: string): void {
    // An answer being computed may predate the change: it still reaches its waiters, but is not kept.
    this.generation += 1;
    this.pending.clear();
    if (!locationId) return this.entries.clear();
    for (const [key, entry] of this.entries) if (entry.locationId === locationId) this.entries.delete(key);
  }
}
