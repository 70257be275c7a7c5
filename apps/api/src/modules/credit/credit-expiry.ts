import { CREDIT_LIFETIME_YEARS, creditLots } from '@kringle/contracts/credit';
import type { FastifyInstance } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { transactionWithRetry } from '../../db/retry-transaction';
import { insertAuditEntry, SYSTEM } from '../audit-trail/audit-entries.repository';
import {
  creditOf,
  familiesWithCreditDue,
  insertCreditEntry,
  lockCredit,
  type CreditEntryRow,
} from './credit.repository';

/** Credit given now lasts as a gift voucher does (three years, the Australian gift-card rule). */
export function creditExpiry(now: Date): Date {
  const at = new Date(now);
  at.setUTCFullYear(at.getUTCFullYear() + CREDIT_LIFETIME_YEARS);
  return at;
}

/**
 * The credit of `items` that has expired by `now` and has no 'expired' entry yet: what is left of
 * the grants whose time is up, credit being spent soonest-expiring first (`creditLots`). That holds
 * because every move that takes credit out settles the expiries due first, under the family's
 * credit lock (settleExpiredCredit): nothing is spent after a grant expired and before its entry.
 */
export function expiredCreditCents(items: Pick<CreditEntryRow, 'cents' | 'reason' | 'expiresAt'>[], now: Date): number {
  return creditLots(items)
    .filter((lot) => new Date(lot.expiresAt) <= now)
    .reduce((n, lot) => n + lot.cents, 0);
}

/** The family's balance now: its entries' sum, less credit whose time is up and has no entry yet. */
export async function spendableCredit(db: Db | Tx, userId: string, now: Date) {
  const credit = await creditOf(db, userId);
  return { ...credit, balanceCents: credit.balanceCents - expiredCreditCents(credit.items, now) };
}

/**
 * Writes the 'expired' entry of what is due, with its audit entry; the caller holds `lockCredit`.
 * Answers the balance left and what expired.
 */
export async function settleExpiredCredit(
  tx: Tx,
  userId: string,
  now: Date,
): Promise<{ balanceCents: number; expiredCents: number }> {
  const credit = await creditOf(tx, userId);
  const cents = expiredCreditCents(credit.items, now);
  if (cents === 0) return { balanceCents: credit.balanceCents, expiredCents: 0 };
  await insertCreditEntry(tx, {
    userId,
    cents: -cents,
    reason: 'expired',
    bookingId: null,
    orderId: null,
    refundId: null,
    expiresAt: null,
    at: now,
  });
  await insertAuditEntry(tx, {
    at: now,
    actor: SYSTEM,
    action: 'credit.expired',
    bookingId: null,
    orderId: null,
    reason: null,
    before: { userId, balanceCents: credit.balanceCents },
    after: { userId, balanceCents: credit.balanceCents - cents, expiredCents: cents },
  });
  return { balanceCents: credit.balanceCents - cents, expiredCents: cents };
}

/** The expiry job's pass: each family with credit whose time is up gets its 'expired' entry. Answers how many. */
export async function expireCredit(deps: Pick<FastifyInstance, 'db' | 'clock'>): Promise<number> {
  const now = deps.clock.now();
  let settled = 0;
  for (const userId of await familiesWithCreditDue(deps.db, now)) {
    // Under the lock it is worked out again: another process, or a checkout, may have settled it.
    const { expiredCents } = await transactionWithRetry(deps.db, async (tx) => {
      await lockCredit(tx, userId);
      return settleExpiredCredit(tx, userId, now);
    });
    if (expiredCents > 0) settled++;
  }
  return settled;
}
