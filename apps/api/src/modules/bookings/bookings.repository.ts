import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { bookings } from '../../db/schema/bookings';
import { slots } from '../../db/schema/catalogue';
import {
  findBookingRead,
  selectBookingReads,
  toView,
  type BookingView,
} from '../booking-lifecycle/booking-view.repository';

export async function findBookingView(db: DbOrTx, id: string, userId: string): Promise<BookingView | undefined> {
  const read = await findBookingRead(db, id, userId);
  return read ? toView(read) : undefined;
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
  const paid = sql`exists (select 1 from orders o where o.booking_id = ${bookings.id} and o.paid_at is not null)`;
  const upcoming = args.tab === 'upcoming';
  const tab: SQL = upcoming
    ? sql`${slots.startAt} > ${now}::timestamptz and ${bookings.status} <> 'cancelled'`
    : sql`((${slots.startAt} <= ${now}::timestamptz and (${bookings.status} <> 'cancelled' or ${paid})) or
    (${bookings.status} = 'cancelled' and ${paid}))`;
  const after = args.cursor
    ? upcoming
      ? sql`(${slots.startAt}, ${bookings.id}) > (${args.cursor.startAt}::timestamptz, ${args.cursor.id}::uuid)`
      : sql`(${slots.startAt}, ${bookings.id}) < (${args.cursor.startAt}::timestamptz, ${args.cursor.id}::uuid)`
    : undefined;
  const order = upcoming ? [asc(slots.startAt), asc(bookings.id)] : [desc(slots.startAt), desc(bookings.id)];
  const reads = await selectBookingReads(db, and(eq(bookings.userId, args.userId), tab, after))
    .orderBy(...order)
    .limit(args.limit);
  return reads.map(toView);
}
