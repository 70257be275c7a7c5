import { nameParts } from '@kringle/contracts/names';
import type { FastifyInstance } from 'fastify';
import type { Order } from '@kringle/contracts/orders';
import { errors, notFound } from '../../lib/errors';
import { bookingForReceipts, ordersOfBooking, succeededRefunds } from './orders.repository';
import type { OrderRow } from '../order-payments/order-rows.repository';
import { moneyOnOrders } from '../order-payments/money-left';
import { paymentReceiptPdf, refundReceiptPdf, type ReceiptData } from './receipts.pdf';

type Deps = Pick<FastifyInstance, 'db' | 'config'>;

export const toOrder = (o: OrderRow, refundPendingCents: number): Order => ({
  id: o.id,
  bookingId: o.bookingId,
  status: o.status,
  paymentStatus: o.refundedCents > 0 ? 'refunded' : o.paidAt ? 'paid' : null,
  amountCents: o.amountCents,
  refundedCents: o.refundedCents,
  refundPendingCents,
  items: o.items,
  createdAt: o.createdAt.toISOString(),
  paidAt: o.paidAt?.toISOString() ?? null,
  refundedAt: o.refundedAt?.toISOString() ?? null,
});

async function bookingOrders(deps: Deps, userId: string, bookingId: string) {
  const booking = await bookingForReceipts(deps.db, bookingId, userId);
  if (!booking) throw notFound('That booking');
  return { booking, orders: await ordersOfBooking(deps.db, bookingId) };
}

async function withRefundsPending(deps: Deps, orders: OrderRow[]): Promise<Order[]> {
  const money = await moneyOnOrders(
    deps.db,
    orders.map((o) => o.id),
  );
  return orders.map((o) => toOrder(o, money.get(o.id)?.unsettledCents ?? 0));
}

export async function listOrders(deps: Deps, userId: string, bookingId: string): Promise<Order[]> {
  return withRefundsPending(deps, (await bookingOrders(deps, userId, bookingId)).orders);
}

async function oneOrder(deps: Deps, userId: string, bookingId: string, orderId: string) {
  const { booking, orders } = await bookingOrders(deps, userId, bookingId);
  const order = orders.find((o) => o.id === orderId);
  if (!order) throw notFound('That order');
  return { booking, order };
}

export async function getOrder(deps: Deps, userId: string, bookingId: string, orderId: string): Promise<Order> {
  const [order] = await withRefundsPending(deps, [(await oneOrder(deps, userId, bookingId, orderId)).order]);
  return order!;
}

/** The invoice number is stable: the booking reference and the order's first characters. */
export const invoiceNumber = (reference: string, orderId: string) =>
  `${reference}-${orderId.slice(0, 6).toUpperCase()}`;

const paidBy = (
  o: Pick<OrderRow, 'amountCents' | 'creditCents' | 'voucherCents' | 'paymentIntentId'>,
): ReceiptData['paidBy'] => {
  if (o.amountCents === o.creditCents + o.voucherCents) {
    if (o.voucherCents > 0) return 'voucher';
    return o.creditCents > 0 ? 'credit' : 'nothing';
  }
  return o.paymentIntentId === null ? 'store' : 'card';
};

type ReceiptBooking = Omit<NonNullable<Awaited<ReturnType<typeof bookingForReceipts>>>, 'id'>;

/** What a tax invoice prints; also for a walk-in's receipt (modules/staff), whose family has no account. */
export function receiptData(
  deps: Pick<Deps, 'config'>,
  booking: ReceiptBooking,
  order: Pick<
    OrderRow,
    | 'id'
    | 'items'
    | 'amountCents'
    | 'paidAt'
    | 'paymentIntentId'
    | 'buyerBusinessName'
    | 'buyerAbn'
    | 'promoCode'
    | 'discountCents'
    | 'donationCents'
    | 'donationTo'
    | 'creditCents'
    | 'voucherCents'
  >,
): ReceiptData {
  return {
    brandName: deps.config.BRAND_NAME,
    abn: deps.config.SELLER_ABN,
    invoiceNumber: invoiceNumber(booking.reference, order.id),
    bookingReference: booking.reference,
    customerName: nameParts(booking.firstName, booking.lastName).fullname,
    customerEmail: booking.email,
    sessionName: booking.sessionName,
    sessionStart: booking.sessionStart,
    locationName: booking.locationName,
    locationAddress: `${booking.locationAddress}, ${booking.suburb} ${booking.state}`,
    timezone: booking.timezone,
    items: order.items,
    amountCents: order.amountCents,
    paidAt: order.paidAt!,
    // Only a card payment has a PaymentIntent; a walk-in pays at the counter; credit or a 100% code may leave
    // nothing for the card.
    paidBy: paidBy(order),
    creditCents: order.creditCents,
    voucherCents: order.voucherCents,
    discount: order.discountCents > 0 ? { code: order.promoCode ?? '', cents: order.discountCents } : null,
    business: order.buyerBusinessName && order.buyerAbn ? { name: order.buyerBusinessName, abn: order.buyerAbn } : null,
    donation: order.donationCents > 0 ? { to: order.donationTo ?? '', cents: order.donationCents } : null,
  };
}

export async function paymentReceipt(deps: Deps, userId: string, bookingId: string, orderId: string) {
  const { booking, order } = await oneOrder(deps, userId, bookingId, orderId);
  if (!order.paidAt) throw errors.notPaid();
  return {
    filename: `tax-invoice-${invoiceNumber(booking.reference, order.id)}.pdf`,
    pdf: await paymentReceiptPdf(receiptData(deps, booking, order)),
  };
}

export async function refundReceipt(deps: Deps, userId: string, bookingId: string, orderId: string) {
  const { booking, order } = await oneOrder(deps, userId, bookingId, orderId);
  const refunds = (await succeededRefunds(deps.db, order.id)).map((r) => ({
    at: r.at!,
    amountCents: r.amountCents,
    method: r.method,
  }));
  if (!order.paidAt || refunds.length === 0) throw errors.noRefund();
  return {
    filename: `refund-receipt-${invoiceNumber(booking.reference, order.id)}.pdf`,
    pdf: await refundReceiptPdf(receiptData(deps, booking, order), refunds),
  };
}
