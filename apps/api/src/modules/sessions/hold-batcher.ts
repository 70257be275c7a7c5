import type pg from 'pg';
import { isUniqueViolation } from '../../db/client';
import {
  batchHold,
  quickHold,
  type QuickHoldOutcome,
  type QuickHoldArgs,
} from '../sessions/hold-statements.repository';

/** Requests in one statement, at most. */
const MAX_BATCH = 50;
/**
 * Statements under way at once per process; the rest of the requests wait to go in the next one,
 * as in a database's group commit. With 4, most of a drop's first wave still went one by one, each
 * a round trip and a commit, and its last winner was answered about 50% later (decision 0015).
 */
const MAX_IN_FLIGHT = 1;
/**
 * A statement still under way after this long no longer holds the others back: a hold alone may
 * wait on a session row that another transaction is writing, and the rest of the process's first
 * attempts must not wait with it.
 */
const STALL_MS = 50;

interface Pending {
  args: QuickHoldArgs;
  resolve: (outcome: QuickHoldOutcome) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for first attempts (decisions 0014, 0015). When bookings open, a process receives
 * hundreds of attempts on different sessions at the same moment, and each one-statement hold cost
 * PostgreSQL a round trip and a commit of its own: the first wave queued behind them. Here a
 * request goes straight to the database while no statement is under way (the one-statement hold,
 * as before); otherwise it waits for the next statement, which carries up to MAX_BATCH of them
 * together (sessions/hold-statements.repository.ts).
 */
export class HoldBatcher {
  private queue: Pending[] = [];
  /** Statements under way for less than STALL_MS. */
  private fresh = 0;

  constructor(private readonly pool: Pick<pg.Pool, 'query'>) {}

  hold(args: QuickHoldArgs): Promise<QuickHoldOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ args, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.fresh < MAX_IN_FLIGHT && this.queue.length > 0) {
      const batch = this.nextBatch();
      this.fresh += 1;
      let counted = true;
      const uncount = () => {
        if (counted) this.fresh -= 1;
        counted = false;
      };
      const stalled = setTimeout(() => {
        uncount();
        this.pump();
      }, STALL_MS);
      void this.run(batch).finally(() => {
        clearTimeout(stalled);
        uncount();
        this.pump();
      });
    }
  }

  /** Oldest first, at most one request per session and per customer (the others wait for the next). */
  private nextBatch(): Pending[] {
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    const slots = new Set<string>();
    const users = new Set<string>();
    for (const pending of this.queue) {
      const { slotId, userId } = pending.args;
      if (batch.length < MAX_BATCH && !slots.has(slotId) && !users.has(userId)) {
        batch.push(pending);
        slots.add(slotId);
        users.add(userId);
      } else rest.push(pending);
    }
    this.queue = rest;
    return batch;
  }

  private async run(batch: Pending[]): Promise<void> {
    if (batch.length > 1) {
      try {
        const outcomes = await batchHold(
          this.pool,
          batch.map((p) => p.args),
        );
        batch.forEach((p, i) => p.resolve(outcomes[i]!));
        return;
      } catch (err) {
        // Another tab of one of these customers took a hold meanwhile: the statement changed
        // nothing, so each request asks alone. Any other failure is every request's failure.
        if (!isUniqueViolation(err)) return batch.forEach((p) => p.reject(err));
      }
    }
    await Promise.all(batch.map((p) => quickHold(this.pool, p.args).then((outcome) => p.resolve(outcome), p.reject)));
  }
}
