import { randomUUID } from 'node:crypto';
import { addDays, localDateOf } from '@kringle/contracts/dates';
import type { Voucher, VoucherPurchase } from '@kringle/contracts/vouchers';
import { VOUCHER_SEND_AHEAD_DAYS } from '@kringle/contracts/vouchers';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { buyVoucherBodySchema } from '@kringle/contracts/vouchers';
import { errors, notFound } from '../../lib/errors';
import { isStripeUnavailable, paymentsUnavailable, stripeOf } from '../../plugins/stripe';
import { codeHash, voucherCode } from '../vouchers/voucher-codes';
import * as repo from '../vouchers/vouchers.repository';
import { voucherByCode } from '../vouchers/voucher-lookup';
import { claimInto } from '../vouchers/voucher-spending';
import { voucherView, VOUCHER_TIME_ZONE } from '../vouchers/voucher-view';
import { transactionWithRetry } from '../../db/retry-transaction';
import { findUserById } from '../accounts/users.repository';
import { certificateOf, receiptOf } from './voucher-sale';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'stripe' | 'log'>;
type BuyBody = z.output<typeof buyVoucherBodySchema>;

/**
 * Buys a voucher: a pending row and its PaymentIntent (the key derived from the voucher, so a retry
 * of the call to Stripe gets the same intent). Paid, the webhook makes it live (voucher-sale.ts).
 */
export async function buyVoucher(deps: Deps, userId: string, body: BuyBody): Promise<VoucherPurchase> {
  const today = localDateOf(deps.clock.now(), VOUCHER_TIME_ZONE);
  const sendOn = body.sendOn ?? today;
  if (sendOn < today || sendOn > addDays(today, VOUCHER_SEND_AHEAD_DAYS))
    throw errors.validation([{ path: 'body.sendOn', message: `From today to ${VOUCHER_SEND_AHEAD_DAYS} days ahead` }]);
  const stripe = stripeOf(deps);
  const id = randomUUID();
  await repo.insertVoucher(deps.db, {
    id,
    codeHash: codeHash(voucherCode(deps.config.VOUCHER_CODE_KEY, id)),
    buyerUserId: userId,
    amountCents: body.amountCents,
    recipientName: body.recipientName,
    recipientEmail: body.recipientEmail ?? null,
    message: body.message || null,
    sendOn,
    createdAt: deps.clock.now(),
    reconcileAt: new Date(deps.clock.now().getTime() + deps.config.PAYMENT_RECONCILE_GRACE_SECONDS * 1000),
  });
  let intent;
  try {
    intent = await stripe.paymentIntents.create(
      {
        amount: body.amountCents,
        currency: 'aud',
        automatic_payment_methods: { enabled: true },
        metadata: { voucherId: id },
        description: `Gift voucher ${id}`,
      },
      { idempotencyKey: `voucher-${id}-payment-intent` },
    );
  } catch (err) {
    if (isStripeUnavailable(err)) throw paymentsUnavailable();
    throw err;
  }
  await repo.updateVoucher(deps.db, id, { paymentIntentId: intent.id, clientSecret: intent.client_secret });
  return { voucherOrderId: id, amountCents: body.amountCents, client_secret: intent.client_secret! };
}

export async function listVouchers(deps: Deps, userId: string): Promise<Voucher[]> {
  const now = deps.clock.now();
  return (await repo.vouchersOf(deps.db, userId)).map((v) => voucherView(v, userId, deps.config.VOUCHER_CODE_KEY, now));
}

export async function lookUpVoucher(deps: Deps, userId: string, ip: string, code: string): Promise<Voucher> {
  const found = await voucherByCode(deps, userId, ip, code);
  return voucherView(found, userId, deps.config.VOUCHER_CODE_KEY, deps.clock.now());
}

/** Adds the voucher to this account: once, and never away from another (409 VOUCHER_CLAIMED). */
export async function claimVoucher(deps: Deps, userId: string, ip: string, code: string): Promise<Voucher> {
  const found = await voucherByCode(deps, userId, ip, code, true);
  const now = deps.clock.now();
  await transactionWithRetry(deps.db, async (tx) => {
    const [locked] = await repo.lockVouchers(tx, [found.id]);
    if (locked!.ownerUserId === userId) return;
    if (locked!.ownerUserId) throw errors.voucherClaimed();
    if (locked!.status === 'cancelled') throw errors.voucherInvalid('This voucher was cancelled.', 'params.code');
    await claimInto(tx, locked!.id, userId, now);
  });
  const fresh = await repo.findVoucher(deps.db, found.id);
  return voucherView(fresh!, userId, deps.config.VOUCHER_CODE_KEY, now);
}

/** The buyer's paid voucher, for its certificate and receipt; another family's is a 404. */
async function boughtVoucher(deps: Pick<Deps, 'db'>, userId: string, id: string) {
  const found = await repo.findVoucher(deps.db, id);
  if (!found || found.buyerUserId !== userId) throw notFound('That voucher');
  if (found.status === 'pending' || found.status === 'failed') throw errors.notPaid();
  return found;
}

export async function voucherCertificate(deps: Deps, userId: string, id: string): Promise<Buffer> {
  const voucher = await boughtVoucher(deps, userId, id);
  const buyer = await findUserById(deps.db, userId);
  return certificateOf(deps, voucher, buyer?.firstName || 'Someone');
}

export async function voucherReceipt(deps: Deps, userId: string, id: string) {
  const voucher = await boughtVoucher(deps, userId, id);
  return { filename: `receipt-GV-${voucher.id.slice(0, 8).toUpperCase()}.pdf`, pdf: await receiptOf(deps, voucher) };
}
