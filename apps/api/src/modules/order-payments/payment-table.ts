/**
 * An order's payment and its refunds as two small tables (decision 0091), like the booking's
 * (booking-lifecycle/transition-table.ts): each named move with the states it may start from and
 * the state it leads to. payment-moves.ts checks every write of an order's payment state or a
 * refund's state against them, in the statement that makes the write.
 *
 * The payment's state is the order's status (`new` before the order exists). There is no
 * separate "cancelled": an intent cancelled at Stripe, a checkout that lapsed and an unpaid
 * booking cancelled all leave the order `failed`, as the contract's order status says, and a
 * failed order may still be paid (a retry with another card, a late payment of a lapsed checkout).
 */
export const PAYMENT_STATES = ['new', 'pending', 'failed', 'paid', 'refunded'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

interface PaymentMove {
  from: readonly PaymentState[];
  /** null: the state depends on the figures (a refunded total), or stays. */
  to: PaymentState | null;
}

export const PAYMENT_MOVES = {
  /** A checkout or a photo order made: the order waits for its card payment. */
  open: { from: ['new'], to: 'pending' },
  /** A walk-in sold at the set, paid in store. */
  payInStore: { from: ['new'], to: 'paid' },
  /** Stripe says paid (the webhook, or the reconciliation job reading the intent). */
  succeed: { from: ['pending', 'failed'], to: 'paid' },
  /** A card declined: the same order may be paid again. */
  decline: { from: ['pending', 'failed'], to: 'failed' },
  /** The intent cancelled at Stripe, the checkout lapsed, or the unpaid booking cancelled. */
  abandon: { from: ['pending', 'failed'], to: 'failed' },
  /**
   * The refunded total follows the succeeded refunds or what Stripe reports: `refunded` once the
   * whole amount is back, else the status stays. From any state: Stripe may report a refund made
   * in its dashboard before the payment's own webhook arrived.
   */
  syncRefunded: { from: ['pending', 'failed', 'paid', 'refunded'], to: null },
} as const satisfies Record<string, PaymentMove>;

export type PaymentMoveName = keyof typeof PAYMENT_MOVES;

export const REFUND_STATES = ['new', 'pending', 'succeeded', 'failed'] as const;
export type RefundState = (typeof REFUND_STATES)[number];

export const REFUND_MOVES = {
  /** Decided (a cancel, the team, a payment that came too late): a row first, sent to Stripe after the commit. */
  request: { from: ['new'], to: 'pending' },
  /** Stripe accepted it. */
  settle: { from: ['pending'], to: 'succeeded' },
  /** The last attempt to send it failed: it is owed, and a person looks at it. */
  giveUp: { from: ['pending'], to: 'failed' },
  /** A refund taken as account credit, unspent when the account is deleted: sent to the card after all (0111). */
  backToCard: { from: ['succeeded'], to: 'pending' },
} as const satisfies Record<string, { from: readonly RefundState[]; to: RefundState }>;

export type RefundMoveName = keyof typeof REFUND_MOVES;

export function canMovePayment(state: PaymentState, move: PaymentMoveName): boolean {
  return (PAYMENT_MOVES[move].from as readonly PaymentState[]).includes(state);
}

export function canMoveRefund(state: RefundState, move: RefundMoveName): boolean {
  return (REFUND_MOVES[move].from as readonly RefundState[]).includes(state);
}
