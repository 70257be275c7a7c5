import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { BookingDetails as FamilyDetails } from '@kringle/contracts/booking-details';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { bookings, type LineItem } from '../../db/schema/bookings';
import { locations, slots, slotTypes } from '../../db/schema/catalogue';
import { reservations } from '../../db/schema/reservations';
import { moneyOfBooking, moneyOfRow } from '../order-payments/money-left';

/**
 * "A booking with its place and time", read once (decision 0049): the family's answers, the
 * staff's, the e-mails and the receipts all start from this typed select.
 */
const COLUMNS = {
  booking: bookings,
  user: { email: users.email, firstName: users.firstName, lastName: users.lastName },
  location: {
    name: locations.name,
    address: locations.address,
    suburb: locations.suburb,
    state: locations.state,
    timezone: locations.timezone,
  },
  slot: { startAt: slots.startAt, endAt: slots.endAt },
  slotType: { name: slotTypes.name, allowsPets: slotTypes.allowsPets },
  /** The checkout's hold (continue-payment works until it lapses). */
  holdExpiresAt: reservations.expiresAt,
  /**
   * The money of its own order (photos bought later are orders of their own, decision 0065):
   * refunded, and left to refund (money-left.ts, the one function: every refund offered starts here).
   */
  money: moneyOfBooking(bookings.id),
  /** Its order's donation (decision 0109, part of amountCents, outside GST) and the credit that paid (0111). */
  donation: sql<{ cents: number; to: string | null; credit: number } | null>`(select jsonb_build_object('cents',
    lo.donation_cents, 'to', lo.donation_to, 'credit', lo.credit_cents) from orders lo
    where lo.booking_id = ${bookings.id} and lo.kind = 'booking'
    order by lo.created_at desc limit 1)`,
  /** Photos in its gallery while it is open (the card says "5 photos"; decision 0065). */
  photoCount: sql<number>`(select count(*) from photos p join photo_galleries g on g.booking_id = p.booking_id
    where p.booking_id = ${bookings.id} and g.deleted_at is null and g.expires_at > now())::int`.mapWith(Number),
  /** The latest closure of its session (decision 0055), with the replacement offered, if any. */
  closure: sql<ClosureFacts | null>`(select jsonb_build_object('reason', c.reason, 'outcome', cb.outcome, 'slotId',
  cb.offer_slot_id, 'startAt', os.start_at, 'expiresAt', cb.offer_expires_at, 'locationName', ol.name)
    from closure_bookings cb join closures c on c.id = cb.closure_id left join slots os on os.id = cb.offer_slot_id
    left join locations ol on ol.id = os.location_id
    where cb.booking_id = ${bookings.id} order by cb.seq desc limit 1)`,
  /** The latest "running late" notice it got (issue 54), while it is still confirmed and its session to come. */
  delay: sql<DelayFacts | null>`(select jsonb_build_object('minutes', d.minutes, 'message', d.message,
      'expectedStartAt', d.expected_start_at, 'sentAt', d.sent_at)
    from delay_notices d where d.booking_id = ${bookings.id} and ${bookings.status} = 'completed'
      and ${bookings.checkedInAt} is null
      and d.expected_start_at > now() - interval '1 hour' order by d.sent_at desc limit 1)`,
};

interface DelayFacts {
  minutes: number;
  message: string | null;
  expectedStartAt: string;
  sentAt: string;
}

interface ClosureFacts {
  reason: string;
  outcome: string | null;
  slotId: string | null;
  startAt: string | null;
  expiresAt: string | null;
  locationName: string | null;
}

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
  const [row] = await selectBookingReads(
    db,
    userId ? and(eq(bookings.id, id), eq(bookings.userId, userId)) : eq(bookings.id, id),
  );
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
  /** The donation in amountCents (no GST), and the charity it went to. */
  donationCents: number;
  donationTo: string | null;
  /** The part of amountCents account credit paid (decision 0111). */
  creditCents: number;
  refundedCents: number;
  /** Left to refund on its order after earlier refunds (money-left.ts). */
  leftCents: number;
  rescheduleCount: number;
  createdAt: Date;
  details: FamilyDetails | null;
  allowsPets: boolean;
  /** Unpaid only: when the checkout's hold lapses. */
  holdExpiresAt: Date | null;
  photoCount: number;
  /** Its session was closed: why, and the replacement held while the offer is open. */
  closure: {
    reason: string;
    offer: { slotId: string; startAt: Date; expiresAt: Date; locationName: string } | null;
  } | null;
  delay: { minutes: number; message: string | null; expectedStartAt: string; sentAt: string } | null;
}

export function toView(r: BookingRead): BookingView {
  const b = r.booking;
  const unpaid = b.status === 'payment_pending' || b.status === 'payment_failed';
  const money = moneyOfRow(r.money);
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
    donationCents: r.donation?.cents ?? 0,
    donationTo: r.donation?.to ?? null,
    creditCents: r.donation?.credit ?? 0,
    refundedCents: money.refundedCents,
    leftCents: money.leftCents,
    rescheduleCount: b.rescheduleCount,
    createdAt: b.createdAt,
    details: b.details ?? null,
    allowsPets: r.slotType.allowsPets,
    holdExpiresAt: unpaid ? r.holdExpiresAt : null,
    photoCount: r.photoCount,
    closure: closureOf(r.closure),
    delay: r.delay && {
      ...r.delay,
      expectedStartAt: new Date(r.delay.expectedStartAt).toISOString(),
      sentAt: new Date(r.delay.sentAt).toISOString(),
    },
  };
}

function closureOf(c: ClosureFacts | null): BookingView['closure'] {
  if (!c) return null;
  const open = c.outcome === 'move_offered' && c.slotId && c.startAt && c.expiresAt;
  return {
    reason: c.reason,
    offer: open
      ? {
          slotId: c.slotId!,
          startAt: new Date(c.startAt!),
          expiresAt: new Date(c.expiresAt!),
          locationName: c.locationName ?? '',
        }
      : null,
  };
}

/** The family a booking is for: a walk-in has no account (its booking belongs to the staff member who sold it). */
export function customerOf(r: BookingRead): { firstName: string; lastName: string; email: string | null } {
  const b = r.booking;
  if (b.source === 'walkin')
    return { firstName: b.walkinFirstName ?? '', lastName: b.walkinLastName ?? '', email: b.walkinEmail };
  return { firstName: r.user.firstName, lastName: r.user.lastName, email: r.user.email };
}
