import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db, type Tx } from '../../src/db/client';
import { isRetryableConflict, transactionWithRetry } from '../../src/db/retry-transaction';
import { createTestDatabase } from '../helpers/test-app';

/**
 * Issue 48 item 9: the one helper that runs a transaction again when PostgreSQL ends it for a
 * deadlock (40P01) or a serialization failure (40001), proven on a real deadlock: two
 * transactions lock the same two rows in opposite orders.
 */
describe('transactionWithRetry on real PostgreSQL', () => {
  let db: Db;
  let end: () => Promise<void>;

  beforeAll(async () => {
    const made = createDb(await createTestDatabase(), 4);
    db = made.db;
    end = () => made.pool.end();
    await db.execute(sql`insert into stripe_events (id, type) values ('evt_lock_a', 'test'), ('evt_lock_b', 'test')`);
  });
  afterAll(async () => end?.());

  const lock = (tx: Tx, id: string) => tx.execute(sql`select id from stripe_events where id = ${id} for update`);
  const latch = () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { open, opened };
  };

  /**
   * `first` locks a then b, the other b then a. `first` waits first, so its deadlock_timeout (1 s)
   * runs out first and PostgreSQL makes it the victim. Resolves with its outcome and its runs.
   */
  async function deadlock(first: (run: (tx: Tx) => Promise<string>) => Promise<string>) {
    let runs = 0;
    const aLocked = latch();
    const bLocked = latch();
    const victim = first(async (tx) => {
      runs += 1;
      await lock(tx, 'evt_lock_a');
      if (runs === 1) {
        aLocked.open();
        await bLocked.opened;
      }
      await lock(tx, 'evt_lock_b');
      return 'done';
    });
    const other = db.transaction(async (tx) => {
      await aLocked.opened;
      await lock(tx, 'evt_lock_b');
      bLocked.open();
      // Let the victim's wait on b begin before this one waits on a.
      await new Promise((resolve) => setTimeout(resolve, 150));
      await lock(tx, 'evt_lock_a');
    });
    const [outcome, otherOutcome] = await Promise.allSettled([victim, other]);
    return { outcome, otherOutcome, runs };
  }

  it('a plain transaction that deadlocks fails with 40P01 (what answered 500)', async () => {
    const { outcome, otherOutcome, runs } = await deadlock((run) => db.transaction(run));
    expect(outcome.status).toBe('rejected');
    const err = (outcome as PromiseRejectedResult).reason;
    expect(isRetryableConflict(err)).toBe(true);
    expect(JSON.stringify({ code: err.code ?? err.cause?.code })).toContain('40P01');
    expect(otherOutcome.status).toBe('fulfilled');
    expect(runs).toBe(1);
  }, 20_000);

  it('the helper runs it again after the deadlock and it commits', async () => {
    const retried: number[] = [];
    const { outcome, otherOutcome, runs } = await deadlock((run) =>
      transactionWithRetry(db, run, { onRetry: (_err, attempt) => retried.push(attempt) }),
    );
    expect(outcome).toEqual({ status: 'fulfilled', value: 'done' });
    expect(otherOutcome.status).toBe('fulfilled');
    expect(runs).toBe(2);
    expect(retried).toEqual([1]);
  }, 20_000);

  it('does not retry other errors, and gives up after its attempts', async () => {
    let runs = 0;
    await expect(
      transactionWithRetry(db, async (tx) => {
        runs += 1;
        await tx.execute(sql`select 1 / 0`);
      }),
    ).rejects.toThrow();
    expect(runs).toBe(1);

    runs = 0;
    const serialization = Object.assign(new Error('could not serialize access'), { code: '40001' });
    await expect(
      transactionWithRetry(
        db,
        async () => {
          runs += 1;
          throw serialization;
        },
        { attempts: 3, baseDelayMs: 1 },
      ),
    ).rejects.toBe(serialization);
    expect(runs).toBe(3);
  });
});
