import { performance } from 'node:perf_hooks';
import { LIVE_INTERVAL_MS, type LiveSnapshot } from '@kringle/contracts/live';

export type LiveListener = (snapshot: LiveSnapshot) => void;

/**
 * The figures read once per 2 s per process, however many Live pages are open (decision 0094):
 * while any stream listens, a timer reads them and hands the same snapshot to every stream; a GET
 * takes the last one if it is less than 2 s old. One read at a time: callers arriving during a
 * read share it. A failed read is reported and skipped: the pages keep their last figures.
 */
export class LiveFeed {
  private readonly listeners = new Set<LiveListener>();
  private timer: NodeJS.Timeout | null = null;
  private last: { snapshot: LiveSnapshot; readAt: number } | null = null;
  private reading: Promise<LiveSnapshot> | null = null;
  /** Reads made, for the tests that show one read serves every stream. */
  reads = 0;

  constructor(
    private readonly read: () => Promise<LiveSnapshot>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Figures at most 2 s old (monotonic time: the app clock may stand still in tests). */
  current(): Promise<LiveSnapshot> {
    if (this.last && performance.now() - this.last.readAt < LIVE_INTERVAL_MS)
      return Promise.resolve(this.last.snapshot);
    return this.refresh();
  }

  get streams(): number {
    return this.listeners.size;
  }

  /** Sends the current figures at once, then every 2 s; returns the unsubscribe. */
  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    this.current().then(
      (snapshot) => this.listeners.has(listener) && listener(snapshot),
      (err: unknown) => this.onError(err),
    );
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), LIVE_INTERVAL_MS);
      this.timer.unref();
    }
    return () => {
      this.listeners.delete(listener);
      if (!this.listeners.size) this.stop();
    };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private refresh(): Promise<LiveSnapshot> {
    this.reading ??= (async () => {
      const readAt = performance.now();
      this.reads += 1;
      try {
        const snapshot = await this.read();
        this.last = { snapshot, readAt };
        return snapshot;
      } finally {
        this.reading = null;
      }
    })();
    return this.reading;
  }

  private tick(): void {
    this.refresh().then(
      (snapshot) => {
        for (const listener of [...this.listeners]) listener(snapshot);
      },
      (err: unknown) => this.onError(err),
    );
  }
}
