export const SLOT_STATUSES = ['available', 'reserved', 'booked', 'unavailable'] as const;
export type SlotStatus = (typeof SLOT_STATUSES)[number];

export const BOOKING_STATUSES = ['payment_pending', 'completed', 'cancelled', 'payment_failed'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Spec §4: label and colour name of each booking status tag. */
export const BOOKING_STATUS_TAGS: Record<
  BookingStatus,
  { label: string; colour: 'orange' | 'green' | 'red' | 'volcano' }
> = {
  payment_pending: { label: 'Payment Pending', colour: 'orange' },
  completed: { label: 'Confirmed', colour: 'green' },
  cancelled: { label: 'Cancelled', colour: 'red' },
  payment_failed: { label: 'Payment Failed', colour: 'volcano' },
};

export const PAYMENT_STATUSES = ['paid', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const RESERVATION_STATUSES = ['active', 'expired', 'cancelled', 'checked_out'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** `photo`: extra digital photos bought from the gallery (issue 39). */
export const ITEM_TYPES = ['add_on', 'package', 'photo'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

export const SLOT_FILTERS = ['all', 'break'] as const;
export type SlotFilter = (typeof SLOT_FILTERS)[number];

export const BOOKING_SOURCES = ['online', 'walkin'] as const;
export type BookingSource = (typeof BOOKING_SOURCES)[number];

export const BOOKING_ACTIONS = ['reschedule'] as const;
export type BookingAction = (typeof BOOKING_ACTIONS)[number];

export const PAYMENT_PROVIDER = 'stripe' as const;
