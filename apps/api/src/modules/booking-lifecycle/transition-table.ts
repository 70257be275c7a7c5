/**
 * A booking's life as one table (decision 0049): each named transition with the states it may
 * start from and the state it leads to. transition-guard.ts checks every change against it, so an
 * illegal move (a late webhook confirming a booking the family cancelled, a no-show for a booking
 * never paid) is refused in one place, whatever the caller.
 *
 * The states are the booking's status refined by what the rules tell apart: a checkout cancelled
 * only because its hold lapsed (a payment may still confirm it) and a confirmed booking's
 * attendance at the set. `new` is the state before a booking exists.
 */
export const BOOKING_STATES = [
  'new',
  'pending',
  'failed',
  'lapsed',
  'confirmed',
  'checked_in',
  'no_show',
  'cancelled',
] as const;
export type BookingState = (typeof BOOKING_STATES)[number];

interface Move {
  from: readonly BookingState[];
  /** null: the booking keeps its state (the order or the session changes). */
  to: BookingState | null;
}

export const TRANSITIONS = {
  /** Checkout: a held session and its cart become an unpaid booking and order. */
  openCheckout: { from: ['new'], to: 'pending' },
  /** Stripe says paid and the session is still the booking's (or free again). */
  confirmPaid: { from: ['pending', 'failed', 'lapsed'], to: 'confirmed' },
  /** Paid, but the session went to another family after the hold lapsed: cancelled and refunded in full. */
  loseSessionAfterPayment: { from: ['pending', 'failed', 'lapsed'], to: 'cancelled' },
  /** Paid for a booking not awaiting payment (cancelled, or already confirmed): the money goes back. */
  refundLatePayment: { from: ['cancelled', 'confirmed', 'checked_in', 'no_show'], to: null },
  /** A card declined; the family may try again while the hold lives. */
  failPayment: { from: ['pending', 'failed'], to: 'failed' },
  /** The PaymentIntent was cancelled at Stripe. */
  cancelPayment: { from: ['pending', 'failed'], to: 'cancelled' },
  /** The checkout's hold ran out unpaid. */
  lapseCheckout: { from: ['pending', 'failed'], to: 'lapsed' },
  /** Cancelled by the family (with the policy's refund) before the session starts. */
  cancel: { from: ['pending', 'failed', 'confirmed'], to: 'cancelled' },
  /** Moved to another session of the same location. */
  reschedule: { from: ['confirmed'], to: 'confirmed' },
  /** Moved by the brand's team (support desk): past the family's cutoff and limit, never capacity. */
  staffReschedule: { from: ['confirmed'], to: 'confirmed' },
  /** Cancelled by the brand's team, with the policy's, a full or no refund. */
  staffCancel: { from: ['pending', 'failed', 'confirmed', 'no_show'], to: 'cancelled' },
  /** Its session closed by the brand (decision 0055): cancelled with a full refund. */
  closureCancel: { from: ['pending', 'failed', 'confirmed'], to: 'cancelled' },
  /** Its session closed: moved onto the replacement session the closure held for the family. */
  closureMove: { from: ['confirmed'], to: 'confirmed' },
  /** Part of a paid order given back by the brand's team; the booking keeps its state. */
  refundPart: { from: ['confirmed', 'checked_in', 'no_show', 'cancelled'], to: null },
  /** Who is coming, changed by the brand's team before the session; the booking keeps its state. */
  staffEditDetails: { from: ['pending', 'failed', 'confirmed'], to: null },
  /** Sold at the set, paid in store. */
  sellWalkIn: { from: ['new'], to: 'confirmed' },
  /** More photos ordered from the gallery (decision 0065); the booking keeps its state. */
  openPhotoOrder: { from: ['confirmed', 'checked_in', 'no_show'], to: null },
  /** Stripe says a photo order is paid: exactly its photos unlock, once. */
  payPhotoOrder: { from: ['confirmed', 'checked_in', 'no_show'], to: null },
  /** A photo order paid when its photos can no longer be had (booking cancelled, gallery gone): the money goes back. */
  refundPhotoOrder: {
    from: ['pending', 'failed', 'lapsed', 'confirmed', 'checked_in', 'no_show', 'cancelled'],
    to: null,
  },
  /** A photo order's card declined or its PaymentIntent cancelled: nothing unlocks. */
  failPhotoOrder: {
    from: ['pending', 'failed', 'lapsed', 'confirmed', 'checked_in', 'no_show', 'cancelled'],
    to: null,
  },
  checkIn: { from: ['confirmed', 'no_show'], to: 'checked_in' },
  markNoShow: { from: ['confirmed'], to: 'no_show' },
  undoCheckIn: { from: ['checked_in'], to: 'confirmed' },
  undoNoShow: { from: ['no_show'], to: 'confirmed' },
} as const satisfies Record<string, Move>;

export type TransitionName = keyof typeof TRANSITIONS;

/** What the state depends on: the booking row's own columns. */
export interface StateFacts {
  status: 'payment_pending' | 'payment_failed' | 'completed' | 'cancelled';
  cancelReason: string | null;
  checkedInAt: Date | null;
  noShowAt: Date | null;
}

export function stateOf(b: StateFacts | undefined): BookingState {
  if (!b) return 'new';
  switch (b.status) {
    case 'payment_pending':
      return 'pending';
    case 'payment_failed':
      return 'failed';
    case 'cancelled':
      return b.cancelReason === 'hold_expired' ? 'lapsed' : 'cancelled';
    case 'completed':
      if (b.checkedInAt) return 'checked_in';
      return b.noShowAt ? 'no_show' : 'confirmed';
  }
}

export function canMove(state: BookingState, transition: TransitionName): boolean {
  return (TRANSITIONS[transition].from as readonly BookingState[]).includes(state);
}

/** The state after the move, or null when the table refuses it. */
export function nextState(state: BookingState, transition: TransitionName): BookingState | null {
  if (!canMove(state, transition)) return null;
  return TRANSITIONS[transition].to ?? state;
}
