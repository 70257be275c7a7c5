import { sql, type SQL } from 'drizzle-orm';
import type { BookingDetails as FamilyDetails } from '@kringle/contracts/booking-details';
import type { LineItem } from '../../db/schema/bookings';
import type { DbOrTx } from '../../db/client';

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
  /** Unpaid only: when the checkout's hold lapses (continue-payment works until then). */
  holdExpiresAt: Date | null;
}

/** The booking view's columns and joins (`b` bookings, `s` slots); the staff run sheet reads it too. */
export const BOOKING_VIEW_SELECT = sql`
  select b.id, b.reference, b.status, b.source, b.location_id, l.name as location_name, l.address, l.timezone,
         b.slot_id, s.start_at, s.end_at, b.slot_type_id, st.name as slot_type_name, b.items, b.amount_cents,
         coalesce((select sum(o.refunded_cents) from orders o where o.booking_id = b.id), 0)::int as refunded_cents,
         b.reschedule_count, b.created_at, b.details, st.allows_pets,
         case when b.status in ('payment_pending', 'payment_failed')
           then (select r.expires_at from reservations r where r.id = b.reservation_id) end as hold_expires_at
  from bookings b
  join locations l on l.id = b.location_id
  join slots s on s.id = b.slot_id
  join slot_types st on st.id = b.slot_type_id`;

export const toView = (r: Record<string, unknown>): BookingView => ({
  id: r.id as string,
  reference: r.reference as string,
  status: r.status as BookingView['status'],
  source: r.source as BookingView['source'],
  locationId: r.location_id as string,
  locationName: r.location_name as string,
  address: r.address as string,
  timezone: r.timezone as string,
  slotId: r.slot_id as string,
  startAt: new Date(r.start_at as string),
  endAt: new Date(r.end_at as string),
  slotTypeId: r.slot_type_id as string,
  slotTypeName: r.slot_type_name as string,
  items: r.items as LineItem[],
  amountCents: r.amount_cents as number,
  refundedCents: r.refunded_cents as number,
  rescheduleCount: r.reschedule_count as number,
  createdAt: new Date(r.created_at as string),
  details: (r.details as FamilyDetails | null) ?? null,
  allowsPets: r.allows_pets as boolean,
  holdExpiresAt: r.hold_expires_at ? new Date(r.hold_expires_at as string) : null,
});

export async function findBookingView(db: DbOrTx, id: string, userId: string): Promise<BookingView | undefined> {
  const result = await db.execute(sql`${BOOKING_VIEW_SELECT} where b.id = ${id}::uuid and b.user_id = ${userId}::uuid`);
  return result.rows[0] ? toView(result.rows[0]) : undefined;
}

export interface Cursor {
  startAt: string;
  id: string;
}

/**
 * Upcoming: sessions ahead that are not cancelled, soonest first. Past: sessions behind, and
 * cancelled bookings that were paid (their refund receipts matter), latest first. Checkouts
 * abandoned before paying are left out. Keyset pagination on (start, id).
 */
export async function listBookingViews(
  db: DbOrTx,
  args: { userId: string; tab: 'upcoming' | 'past'; now: Date; cursor: Cursor | null; limit: number },
): Promise<BookingView[]> {
  const now = args.now.toISOString();
  const paid = sql`exists (select 1 from orders o where o.booking_id = b.id and o.paid_at is not null)`;
  const where: SQL =
    args.tab === 'upcoming'
      ? sql`s.start_at > ${now}::timestamptz and b.status <> 'cancelled'`
      : sql`((s.start_at <= ${now}::timestamptz and (b.status <> 'cancelled' or ${paid})) or (b.status = 'cancelled' and ${paid}))`;
  const after = args.cursor
    ? args.tab === 'upcoming'
      ? sql`and (s.start_at, b.id) > (${args.cursor.startAt}::timestamptz, ${args.cursor.id}::uuid)`
      : sql`and (s.start_at, b.id) < (${args.cursor.startAt}::timestamptz, ${args.cursor.id}::uuid)`
    : sql``;
  const order = args.tab === 'upcoming' ? sql`order by s.start_at asc, b.id asc` : sql`order by s.start_at desc, b.id desc`;
  const result = await db.execute(sql`${BOOKING_VIEW_SELECT} where b.user_id = ${args.userId}::uuid and ${where} ${after} ${order} limit ${args.limit}`);
  return result.rows.map(toView);
}
