import type { Db, Tx } from './client';

/**
 * A transaction PostgreSQL ended to break a conflict, not because it was wrong: serialization
 * failure (40001) or deadlock detected (40P01). The work changed nothing and may simply run again.
 * drizzle wraps pg's error, so the cause chain is read too.
 */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);

export function isRetryableConflict(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' && RETRYABLE_SQLSTATES.has(e.code)) return true;
  }
  return false;
}

export interface RetryOptions {
  /** Runs in all, the first included. */
  attempts?: number;
  /** The first wait's ceiling; each later one doubles it. */
  baseDelayMs?: number;
  /** Told before each new run (a log line). */
  onRetry?: (err: unknown, attempt: number) => void;
}

export const TRANSACTION_RETRY = { attempts: 4, baseDelayMs: 20 } as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One transaction, run again when PostgreSQL ended it for a deadlock or a serialization failure
 * (issue 48): used wherever money moves (webhook payments and refunds, checkout, cancel and
 * refund, account deletion, closures, support refunds), so a family racing a webhook gets its
 * answer, not a 500. Each run is a fresh transaction, so `run` must keep its effects in the
 * database (the mail outbox is) and do its calls to Stripe after the commit, as they all do. The
 * waits are jittered (half fixed, half random, doubling) so two racers do not meet again.
 */
export async function transactionWithRetry<T>(
  db: Pick<Db, 'transaction'>,
  run: (tx: Tx) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? TRANSACTION_RETRY.attempts;
  const base = options.baseDelayMs ?? TRANSACTION_RETRY.baseDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(run);
    } catch (err) {
      if (attempt >= attempts || !isRetryableConflict(err)) throw err;
      options.onRetry?.(err, attempt);
      const ceiling = base * 2 ** (attempt - 1);
      await sleep(ceiling / 2 + Math.random() * (ceiling / 2));
    }
  }
}
