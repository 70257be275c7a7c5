import type { StaffVoucher } from '@kringle/contracts/voucher-desk';
import { normalizeVoucherCode } from '@kringle/contracts/vouchers';
import type { FastifyInstance } from 'fastify';
import { transactionWithRetry } from '../../db/retry-transaction';
import { errors, notFound } from '../../lib/errors';
import { isStripeUnavailable, paymentsUnavailable, stripeOf } from '../../plugins/stripe';
import { insertAuditEntry, staffActor } from '../audit-trail/audit-entries.repository';
import { codeHash } from '../vouchers/voucher-codes';
import { voucherView } from '../vouchers/voucher-view';
import * as repo from '../vouchers/vouchers.repository';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'stripe' | 'log'>;
type Staff = { userId: string; email: string };

async function staffView(deps: Deps, v: repo.VoucherWithBalance): Promise<StaffVoucher> {
  const emails = await repo.emailsOf(
    deps.db,
    [v.buyerUserId, v.ownerUserId].filter((x): x is string => Boolean(x)),
  );
  const history = await repo.entriesOf(deps.db, v.id);
  // As no family sees it: support reads codes out to nobody, the last four letters tell two apart on the phone.
  const {
    bought: _bought,
    claimed: _claimed,
    ...seen
  } = voucherView(v, '', deps.config.VOUCHER_CODE_KEY, deps.clock.now());
  return {
    ...seen,
    buyerEmail: v.buyerUserId ? (emails.get(v.buyerUserId) ?? null) : null,
    recipientEmail: v.recipientEmail,
    ownerEmail: v.ownerUserId ? (emails.get(v.ownerUserId) ?? null) : null,
    cancelReason: v.cancelReason,
    refund: v.refundCents ? { cents: v.refundCents, status: v.stripeRefundId ? 'sent' : 'pending' } : null,
    history: history.map((e) => ({
      at: e.createdAt.toISOString(),
      cents: e.cents,
      reason: e.reason,
      bookingId: e.bookingId,
    })),
  };
}

/** A code (whole), or part of the buyer's or recipient's e-mail or name: at most 20, newest first. */
export async function findVouchers(deps: Deps, q: string): Promise<StaffVoucher[]> {
  const ids = await repo.searchVouchers(deps.db, codeHash(normalizeVoucherCode(q)), q);
  const found = await Promise.all(ids.map((id) => repo.findVoucher(deps.db, id)));
  return Promise.all(found.filter((v): v is repo.VoucherWithBalance => Boolean(v)).map((v) => staffView(deps, v)));
}

/**
 * Cancels a paid voucher: its unspent balance leaves it (a 'cancelled' entry, under its row lock, so
 * no checkout spends it meanwhile) and goes back to the buyer's card. Sending the refund comes after
 * the commit, with the voucher's id as Stripe's idempotency key: a second cancel after a failure to
 * reach Stripe sends it then, never twice.
 */
export async function cancelVoucher(deps: Deps, staff: Staff, id: string, reason: string): Promise<StaffVoucher> {
  const now = deps.clock.now();
  await transactionWithRetry(deps.db, async (tx) => {
    const [v] = await repo.lockVouchers(tx, [id]);
    if (!v) throw notFound('That voucher');
    if (v.status === 'cancelled') return;
    if (v.status !== 'paid')
      throw errors.voucherInvalid('This voucher was never paid, so there is nothing to cancel.', 'params.id');
    const left = Math.max(0, v.balanceCents);
    if (left > 0)
      await repo.insertVoucherEntry(tx, {
        voucherId: v.id,
        cents: -left,
        reason: 'cancelled',
        orderId: null,
        bookingId: null,
        refundId: null,
        at: now,
      });
    await repo.updateVoucher(tx, v.id, {
      status: 'cancelled',
      cancelledAt: now,
      cancelReason: reason,
      refundCents: left,
    });
    await insertAuditEntry(tx, {
      at: now,
      actor: staffActor(staff),
      action: 'voucher.cancelled',
      bookingId: null,
      orderId: null,
      reason,
      before: { voucherId: v.id, status: 'paid', balanceCents: left },
      after: { voucherId: v.id, status: 'cancelled', refundCents: left },
    });
  });
  await sendVoucherRefund(deps, id);
  return staffView(deps, (await repo.findVoucher(deps.db, id))!);
}

async function sendVoucherRefund(deps: Deps, id: string): Promise<void> {
  const v = await repo.findVoucher(deps.db, id);
  if (!v || !v.refundCents || v.stripeRefundId || !v.paymentIntentId) return;
  try {
    const refund = await stripeOf(deps).refunds.create(
      { payment_intent: v.paymentIntentId, amount: v.refundCents, metadata: { voucherId: v.id } },
      { idempotencyKey: `voucher-${v.id}-refund` },
    );
    await repo.updateVoucher(deps.db, v.id, { stripeRefundId: refund.id });
  } catch (err) {
    if (isStripeUnavailable(err)) throw paymentsUnavailable();
    throw err;
  }
}
