import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { errors } from '../../lib/errors';
import { familyActor, insertAuditEntry } from '../audit-trail/audit-entries.repository';
import { voucherByCode } from './voucher-lookup';
import { statusOf } from './voucher-view';
import * as repo from './vouchers.repository';

/*
 * Gift vouchers paying for a booking (decision 0112). The cart prices them from their balances now;
 * the checkout takes them again under their row locks in its own transaction, so two checkouts on
 * any number of processes never spend more than a voucher holds.
 */
export interface VoucherPart {
  voucherId: string;
  cents: number;
}

const REFUSED: Record<string, string> = {
  spent: 'This voucher has nothing left on it.',
  expired: 'This voucher has expired.',
  cancelled: 'This voucher was cancelled.',
  pending: 'This voucher is not paid yet.',
};

/** Each code's voucher and what it pays of `totalCents`, in order: 409 VOUCHER_INVALID for one that cannot. */
export async function priceVouchers(
  deps: Pick<FastifyInstance, 'db' | 'clock'>,
  userId: string,
  ip: string,
  codes: string[],
  totalCents: number,
): Promise<VoucherPart[]> {
  const now = deps.clock.now();
  const parts: VoucherPart[] = [];
  let left = totalCents;
  for (const [i, code] of codes.entries()) {
    const path = `body.vouchers.${i}`;
    let voucher: repo.VoucherWithBalance;
    try {
      voucher = await voucherByCode(deps, userId, ip, code);
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND')
        throw errors.voucherInvalid('There is no gift voucher with this code.', path);
      throw err;
    }
    const status = statusOf(voucher, now);
    if (status !== 'active') throw errors.voucherInvalid(REFUSED[status]!, path);
    const cents = Math.min(left, voucher.balanceCents);
    // A voucher the others already cover pays nothing, and is left out rather than refused.
    if (cents > 0) parts.push({ voucherId: voucher.id, cents });
    left -= cents;
  }
  return parts;
}

/**
 * The checkout's hold on its vouchers: locked, each still this family's to spend with at least its
 * part left; an unclaimed one becomes the family's now. 409 VOUCHER_INVALID, nothing written, if not.
 */
export async function lockVoucherParts(tx: Tx, userId: string, parts: VoucherPart[], now: Date): Promise<void> {
  if (parts.length === 0) return;
  const locked = await repo.lockVouchers(
    tx,
    parts.map((p) => p.voucherId),
  );
  for (const part of parts) {
    const v = locked.find((l) => l.id === part.voucherId);
    const usable =
      v &&
      statusOf(v, now) === 'active' &&
      v.balanceCents >= part.cents &&
      (!v.ownerUserId || v.ownerUserId === userId);
    if (!usable)
      throw errors.voucherInvalid(
        'A gift voucher on this cart has changed since it was priced (spent or cancelled): please check your total.',
      );
    if (!v.ownerUserId) await claimInto(tx, v.id, userId, now);
  }
}

/** Writes the spend of each part against the new order (after lockVoucherParts, in the same transaction). */
export async function spendVouchers(
  tx: Tx,
  userId: string,
  parts: VoucherPart[],
  at: { orderId: string; bookingId: string; now: Date },
): Promise<void> {
  for (const part of parts) {
    await repo.insertVoucherEntry(tx, {
      voucherId: part.voucherId,
      cents: -part.cents,
      reason: 'spent',
      orderId: at.orderId,
      bookingId: at.bookingId,
      refundId: null,
      at: at.now,
    });
    await insertAuditEntry(tx, {
      at: at.now,
      actor: familyActor(userId),
      action: 'voucher.spent',
      bookingId: at.bookingId,
      orderId: at.orderId,
      reason: null,
      before: { voucherId: part.voucherId },
      after: { voucherId: part.voucherId, spentCents: part.cents },
    });
  }
}

/** The voucher becomes the account's (its row locked by the caller), with its audit entry. */
export async function claimInto(tx: Tx, voucherId: string, userId: string, now: Date): Promise<void> {
  await repo.updateVoucher(tx, voucherId, { ownerUserId: userId, claimedAt: now });
  await insertAuditEntry(tx, {
    at: now,
    actor: familyActor(userId),
    action: 'voucher.claimed',
    bookingId: null,
    orderId: null,
    reason: null,
    before: { voucherId, owner: null },
    after: { voucherId, owner: userId },
  });
}

/**
 * An order that will not be paid gives each voucher back everything it still has out on it (a refund's voucher part
 * goes back with its refund: `refundVoucherPart` in order-payments/voucher-moves.ts). Answers what went back.
 */
export async function returnVoucherParts(
  tx: Tx,
  orderId: string,
  at: { now: Date; bookingId: string | null },
): Promise<number> {
  let back = 0;
  for (const out of await repo.vouchersStillSpentOn(tx, orderId)) {
    await repo.insertVoucherEntry(tx, {
      voucherId: out.voucherId,
      cents: out.cents,
      reason: 'returned',
      orderId,
      bookingId: at.bookingId,
      refundId: null,
      at: at.now,
    });
    back += out.cents;
  }
  return back;
}
