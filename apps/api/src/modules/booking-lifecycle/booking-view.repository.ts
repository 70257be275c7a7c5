import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { BookingDetails as FamilyDetails } from '@kringle/contracts/booking-details';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { bookings, type LineItem } from '../../db/schema/bookings';
import { locations, slots, slotTypes } from '../../db/schema/catalogue';
import { reservations } from '../../db/schema/reservations';

/**
 * "A booking with its place and time", read once (decision 0049): the family's answers, the
 * staff's, the e-mails and the receipts all start from this typed select.
 */
const COLUMNS = {
  booking: bookings,
  user: { email: users.email, firstName: users.firstName, lastName: users.lastName },
  location: { name: locations.name, address: locations.address, suburb: locations.suburb, state: locations.state, timezone: locations.timezone },
  slot: { startAt: slots.startAt, endAt: slots.endAt },
  slotType: { name: slotTypes.name, allowsPets: slotTypes.allowsPets },
  /** The checkout's hold (continue-payment works until it lapses). */
  holdExpiresAt: reservations.expiresAt,
  refundedCents: sql<number>`coalesce((select sum(o.refunded_cents) from orders o where o.booking_id = ${bookings.id}), 0)::int`.mapWith(Number),
};

/** Bookings with everything the views show, filtered and ordered by the caller. */
export function selectBookingReads(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(COLUMNS)
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .innerJoin(locations, eq(locations.id, bookings.locationId))
    .innerJoin(slots, eq(slots.id, bookings.slotId))
    .innerJoin(slotTypes, eq(slotTypes.id, bookings.slotTypeId))
    .leftJoin(reservations, eq(reservations.id, bookings.reservationId))
    .where(where);
}

export type BookingRead = Awaited<ReturnType<typeof selectBookingReads>>[number];

export async function findBookingRead(db: DbOrTx, id: string, userId?: string): Promise<BookingRead | undefined> {
  const [row] = await selectBookingReads(db, userId ? and(eq(bookings.id, id), eq(bookings.userId, userId)) : eq(bookings.id, id));
  return row;
}

/** The flat view every booking answer is built from (bookings.service's toBooking). */
export interface BookingView {
  id: string;
  reference: string;
  status: 'payment_pending' | 'completed' | 'cancelled' | 'payment_failed';
  source: 'online' | 'walkin';
  locationId: string;
  locationName: string;
  address: string;
  timezone: string;
  slotId: string;
  startAt: Date;
  endAt: Date;
  slotTypeId: string;
  slotTypeName: string;
  items: LineItem[];
  amountCents: number;
  refundedCents: number;
  rescheduleCount: number;
  createdAt: Date;
  details: FamilyDetails | null;
  allowsPets: boolean;
  /** Unpaid only: when the checkout's hold lapses. */
  holdExpiresAt: Date | null;
}

export function toView(r: BookingRead): BookingView {
  const b = r.booking;
  const unpaid = b.status === 'payment_pending' || b.status === 'payment_failed';
  return {
    id: b.id,
    reference: b.reference,
    status: b.status,
    source: b.source,
    locationId: b.locationId,
    locationName: r.location.name,
    address: r.location.address,
    timezone: r.location.timezone,
    slotId: b.slotId,
    startAt: r.slot.startAt,
    endAt: r.slot.endAt,
    slotTypeId: b.slotTypeId,
    slotTypeName: r.slotType.name,
    items: b.items,
    amountCents: b.amountCents,
    refundedCents: r.refundedCents,
    rescheduleCount: b.rescheduleCount,
    createdAt: b.createdAt,
    details: b.details ?? null,
    allowsPets: r.slotType.allowsPets,
    holdExpiresAt: unpaid ? r.holdExpiresAt : null,
  };
}

/** The family a booking is for: a walk-in has no account (its booking belongs to the staff member who sold it). */
export function customerOf(r: BookingRead): { firstName: string; lastName: string; email: string | null } {
  const b = r.booking;
  if (b.source === 'walkin') return { firstName: b.walkinFirstName ?? '', lastName: b.walkinLastName ?? '', email: b.walkinEmail };
  return { firstName: r.user.firstName, lastName: r.user.lastName, email: r.user.email };
}
