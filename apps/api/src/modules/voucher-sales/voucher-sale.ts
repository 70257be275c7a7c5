import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import type { Tx } from '../../db/client';
import { transactionWithRetry } from '../../db/retry-transaction';
import { findUserById } from '../accounts/users.repository';
import { insertAuditEntry, STRIPE } from '../audit-trail/audit-entries.repository';
import { enqueueMail } from '../mail/outbox.repository';
import { voucherCode, maskedCode } from '../vouchers/voucher-codes';
import { certificatePdf, voucherReceiptPdf } from './voucher-pdfs';
import { zonedToInstant } from '@kringle/contracts/dates';
import * as repo from '../vouchers/vouchers.repository';
import { voucherExpiry, VOUCHER_TIME_ZONE } from '../vouchers/voucher-view';
import { giftVoucherMail, voucherBoughtMail } from './vouchers.emails';
import { formatVoucherCode } from '@kringle/contracts/vouchers';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'log'>;
type Outcome = 'succeeded' | 'failed' | 'canceled' | 'open';

/**
 * A voucher's PaymentIntent told its outcome (the webhook, decision 0112). Decided from the
 * voucher's state under its row lock, so a redelivery, or a failure reported after the success,
 * changes nothing: paid once, sold once, its e-mail queued once.
 */
export async function applyVoucherOutcome(
  deps: Deps,
  outcome: Outcome,
  intent: Pick<Stripe.PaymentIntent, 'id' | 'metadata'>,
  /** Records the webhook's event in the transaction: false when it was applied before (none for a reconciliation). */
  firstTime: (tx: Tx) => Promise<boolean>,
): Promise<void> {
  const voucherId = intent.metadata?.voucherId;
  if (!voucherId || outcome === 'open') return;
  await transactionWithRetry(deps.db, async (tx) => {
    if (!(await firstTime(tx))) return;
    const [voucher] = await repo.lockVouchers(tx, [voucherId]);
    if (!voucher || voucher.status === 'paid' || voucher.status === 'cancelled') return;
    if (outcome === 'succeeded') return sell(deps, tx, voucher);
    await repo.updateVoucher(tx, voucher.id, { status: 'failed' });
  });
}

async function sell(deps: Deps, tx: Tx, voucher: repo.VoucherWithBalance): Promise<void> {
  const now = deps.clock.now();
  const expiresAt = voucherExpiry(now);
  await repo.updateVoucher(tx, voucher.id, { status: 'paid', paidAt: now, expiresAt, reconcileAt: null });
  await repo.insertVoucherEntry(tx, {
    voucherId: voucher.id,
    cents: voucher.amountCents,
    reason: 'sold',
    orderId: null,
    bookingId: null,
    refundId: null,
    at: now,
  });
  await insertAuditEntry(tx, {
    at: now,
    actor: STRIPE,
    action: 'voucher.sold',
    bookingId: null,
    orderId: null,
    reason: null,
    before: { voucherId: voucher.id, status: voucher.status },
    after: {
      voucherId: voucher.id,
      status: 'paid',
      amountCents: voucher.amountCents,
      expiresAt: expiresAt.toISOString(),
    },
  });
  const buyer = voucher.buyerUserId ? await findUserById(tx, voucher.buyerUserId) : null;
  if (!buyer) return;
  const code = voucherCode(deps.config.VOUCHER_CODE_KEY, voucher.id);
  const fromName = buyer.firstName || 'Someone';
  const certificate = await certificateOf(deps, { ...voucher, expiresAt }, fromName);
  const mailId = await enqueueMail(tx, {
    ...giftVoucherMail({
      to: voucher.recipientEmail ?? buyer.email,
      brandName: deps.config.BRAND_NAME,
      appUrl: deps.config.PUBLIC_URL,
      recipientName: voucher.recipientName,
      fromName,
      message: voucher.message,
      amountCents: voucher.amountCents,
      code,
      expiresAt,
      timezone: VOUCHER_TIME_ZONE,
      certificate,
    }),
    notBefore: sendTime(voucher.sendOn, now),
  });
  await repo.updateVoucher(tx, voucher.id, { mailId });
  await enqueueMail(
    tx,
    voucherBoughtMail({
      to: buyer.email,
      brandName: deps.config.BRAND_NAME,
      appUrl: deps.config.PUBLIC_URL,
      recipientName: voucher.recipientName,
      amountCents: voucher.amountCents,
      sendOn: voucher.sendOn,
      recipientEmail: voucher.recipientEmail,
    }),
  );
}

/** The printable certificate: the code, its QR (the app's page that adds it), the expiry. */
export function certificateOf(
  deps: Pick<Deps, 'config'>,
  v: Pick<repo.VoucherRow, 'id' | 'recipientName' | 'message' | 'amountCents' | 'expiresAt'>,
  fromName: string,
): Promise<Buffer> {
  const code = voucherCode(deps.config.VOUCHER_CODE_KEY, v.id);
  return certificatePdf({
    brandName: deps.config.BRAND_NAME,
    recipientName: v.recipientName,
    fromName,
    message: v.message,
    amountCents: v.amountCents,
    code,
    expiresAt: v.expiresAt!,
    // In the fragment: a browser never sends it, so the code stays out of every server's log.
    redeemUrl: `${deps.config.PUBLIC_URL}/gift/redeem#${formatVoucherCode(code)}`,
    timezone: VOUCHER_TIME_ZONE,
  });
}

export async function receiptOf(deps: Pick<Deps, 'config' | 'db'>, v: repo.VoucherRow): Promise<Buffer> {
  const buyer = v.buyerUserId ? await findUserById(deps.db, v.buyerUserId) : null;
  return voucherReceiptPdf({
    brandName: deps.config.BRAND_NAME,
    abn: deps.config.SELLER_ABN,
    receiptNumber: `GV-${v.id.slice(0, 8).toUpperCase()}`,
    buyerName: buyer ? `${buyer.firstName} ${buyer.lastName}`.trim() : '',
    buyerEmail: buyer?.email ?? '',
    recipientName: v.recipientName,
    amountCents: v.amountCents,
    paidAt: v.paidAt!,
    expiresAt: v.expiresAt!,
    maskedCode: maskedCode(voucherCode(deps.config.VOUCHER_CODE_KEY, v.id)),
    timezone: VOUCHER_TIME_ZONE,
  });
}

/** When a voucher's e-mail goes: its send day at 09:00 there, or now when that has passed. */
export function sendTime(sendOn: string, now: Date): Date {
  const at = zonedToInstant(sendOn, '09:00', VOUCHER_TIME_ZONE);
  return at > now ? at : now;
}
