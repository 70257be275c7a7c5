import { and, asc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { PaidWith, StaffAction } from '@kringle/contracts/staff';
import type { DbOrTx, Tx } from '../../db/client';
import { heldNow, instant } from '../sessions/session-rules.sql';
import { bookings, staffActions } from '../../db/schema/bookings';
import { slots } from '../../db/schema/catalogue';
import { customerOf, selectBookingReads, toView, type BookingView } from '../booking-lifecycle/booking-view.repository';

/** A booking as the staff see it: the view every booking answer uses, with attendance and the family. */
export interface StaffBookingView extends BookingView {
  checkedInAt: Date | null;
  noShowAt: Date | null;
  customer: { firstName: string; lastName: string; email: string | null };
  paidWith: PaidWith | null;
}

/**
 * The bookings the run sheet lists for a location's day: confirmed ones, and cancelled ones that
 * were paid (the family may still turn up). Checkouts never paid are left out: to the staff they
 * are a held session, not a family.
 */
export async function staffBookingsOfDay(
  db: DbOrTx,
  locationId: string,
  from: Date,
  to: Date,
): Promise<StaffBookingView[]> {
  const paid = sql`exists (select 1 from orders o where o.booking_id = ${bookings.id} and o.paid_at is not null)`;
  return staffBookingViews(
    db,
    and(
      eq(bookings.locationId, locationId),
      // Said of the session too (a booking's location is always its session's): PostgreSQL then
      // reads the day's sessions by slots_location_start_idx and their bookings by bookings_slot_idx.
      eq(slots.locationId, locationId),
      gte(slots.startAt, from),
      lt(slots.startAt, to),
      sql`(${bookings.status} = 'completed' or (${bookings.status} = 'cancelled' and ${paid}))`,
    ),
  );
}

export async function staffBookingView(db: DbOrTx, id: string): Promise<StaffBookingView | undefined> {
  return (await staffBookingViews(db, eq(bookings.id, id)))[0];
}

/** Several bookings at once (the support desk's search results). */
export async function staffBookingViewsOf(db: DbOrTx, ids: string[]): Promise<StaffBookingView[]> {
  return ids.length === 0 ? [] : staffBookingViews(db, inArray(bookings.id, ids));
}

async function staffBookingViews(db: DbOrTx, where: SQL | undefined): Promise<StaffBookingView[]> {
  const reads = await selectBookingReads(db, where).orderBy(asc(slots.startAt), asc(bookings.createdAt));
  return reads.map((r) => ({
    ...toView(r),
    checkedInAt: r.booking.checkedInAt,
    noShowAt: r.booking.noShowAt,
    customer: customerOf(r),
    paidWith: r.booking.walkinPaidWith,
  }));
}

export interface ActionRow {
  bookingId: string;
  at: Date;
  staffEmail: string;
  action: StaffAction;
}

export async function actionsOf(db: DbOrTx, bookingIds: string[]): Promise<ActionRow[]> {
  if (bookingIds.length === 0) return [];
  const result = await db.execute(sql`
    select booking_id, at, staff_email, action from staff_actions
    where booking_id = any(${sql.param(bookingIds)}::uuid[]) order by at, seq`);
  return result.rows.map((r) => ({
    bookingId: r.booking_id as string,
    at: new Date(r.at as string),
    staffEmail: r.staff_email as string,
    action: r.action as StaffAction,
  }));
}

export async function recordAction(
  tx: Tx,
  values: { bookingId: string; staffUserId: string; staffEmail: string; action: StaffAction; at: Date },
): Promise<void> {
  await tx.insert(staffActions).values(values);
}

export interface RunSheetSlotRow {
  id: string;
  kind: 'session' | 'break';
  startAt: Date;
  endAt: Date;
  blocked: boolean;
  booked: boolean;
  held: boolean;
  slotTypeId: string;
  slotTypeSlug: string;
  slotTypeName: string;
  slotTypeAllowsPets: boolean;
}

export async function slotsOfDay(
  db: DbOrTx,
  args: { locationId: string; from: Date; to: Date; now: Date },
): Promise<RunSheetSlotRow[]> {
  const result = await db.execute(sql`
    select s.id, s.kind, s.start_at, s.end_at, s.blocked, s.booking_id is not null as booked,
      coalesce(${sql.raw(heldNow('s', instant(args.now)))}, false) as held, st.id as slot_type_id, st.slug as
      slot_type_slug, st.name as slot_type_name, st.allows_pets as slot_type_allows_pets
    from slots s join slot_types st on st.id = s.slot_type_id
    where s.location_id = ${args.locationId}::uuid and s.start_at >= ${args.from.toISOString()}::timestamptz and
    s.start_at < ${args.to.toISOString()}::timestamptz
    order by s.start_at, st.sort_order, st.name, s.id`);
  return result.rows.map((r) => ({
    id: r.id as string,
    kind: r.kind as 'session' | 'break',
    startAt: new Date(r.start_at as string),
    endAt: new Date(r.end_at as string),
    blocked: r.blocked as boolean,
    booked: r.booked as boolean,
    held: r.held as boolean,
    slotTypeId: r.slot_type_id as string,
    slotTypeSlug: r.slot_type_slug as string,
    slotTypeName: r.slot_type_name as string,
    slotTypeAllowsPets: r.slot_type_allows_pets as boolean,
  }));
}

/** A reference as typed at the desk: case and spaces forgiven. */
export async function bookingIdByReference(db: DbOrTx, reference: string): Promise<string | undefined> {
  const result = await db.execute(sql`select id from bookings where reference = ${reference.trim().toUpperCase()}`);
  return result.rows[0]?.id as string | undefined;
}

/** A booking's attendance facts and its session's start, the booking locked. */
export async function lockAttendance(tx: Tx, id: string) {
  const [row] = await tx
    .select({
      id: bookings.id,
      status: bookings.status,
      cancelReason: bookings.cancelReason,
      checkedInAt: bookings.checkedInAt,
      noShowAt: bookings.noShowAt,
      startAt: slots.startAt,
    })
    .from(bookings)
    .innerJoin(slots, eq(slots.id, bookings.slotId))
    .where(eq(bookings.id, id))
    .for('update', { of: bookings });
  return row;
}

export async function walkInSlot(db: DbOrTx, slotId: string) {
  const result = await db.execute(sql`
    select s.id, s.kind, s.location_id, s.slot_type_id, s.start_at, s.end_at, l.timezone, st.allows_pets
    from slots s join locations l on l.id = s.location_id join slot_types st on st.id = s.slot_type_id where s.id =
    ${slotId}::uuid`);
  const r = result.rows[0];
  if (!r) return undefined;
  return {
    id: r.id as string,
    kind: r.kind as string,
    locationId: r.location_id as string,
    slotTypeId: r.slot_type_id as string,
    startAt: new Date(r.start_at as string),
    endAt: new Date(r.end_at as string),
    timezone: r.timezone as string,
    allowsPets: r.allows_pets as boolean,
  };
}
