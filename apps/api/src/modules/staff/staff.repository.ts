import { sql } from 'drizzle-orm';
import type { BookingDetails as FamilyDetails } from '@kringle/contracts/booking-details';
import type { StaffAction } from '@kringle/contracts/staff';
import type { DbOrTx, Tx } from '../../db/client';
import { bookings, orders, staffActions, type LineItem } from '../../db/schema/bookings';
import { BOOKING_VIEW_SELECT, toView, type BookingView } from '../bookings/bookings.repository';
import { noOneWaitingFor } from '../reservations/waitlist-guard';

/** A booking as the staff see it: the view every booking answer uses, with attendance and the family. */
export interface StaffBookingView extends BookingView {
  checkedInAt: Date | null;
  noShowAt: Date | null;
  customer: { firstName: string; lastName: string; email: string | null };
}

const date = (v: unknown) => (v ? new Date(v as string) : null);

/**
 * The bookings the run sheet lists for a location's day: confirmed ones, and cancelled ones that
 * were paid (the family may still turn up). Checkouts never paid are left out: to the staff they
 * are a held session, not a family.
 */
export async function staffBookingsOfDay(db: DbOrTx, locationId: string, from: Date, to: Date): Promise<StaffBookingView[]> {
  return staffBookingViews(
    db,
    sql`b.location_id = ${locationId}::uuid and s.start_at >= ${from.toISOString()}::timestamptz and s.start_at < ${to.toISOString()}::timestamptz
      and (b.status = 'completed' or (b.status = 'cancelled' and exists (select 1 from orders o where o.booking_id = b.id and o.paid_at is not null)))`,
  );
}

export async function staffBookingView(db: DbOrTx, id: string): Promise<StaffBookingView | undefined> {
  return (await staffBookingViews(db, sql`b.id = ${id}::uuid`))[0];
}

async function staffBookingViews(db: DbOrTx, where: ReturnType<typeof sql>): Promise<StaffBookingView[]> {
  const views = (await db.execute(sql`${BOOKING_VIEW_SELECT} where ${where} order by s.start_at, b.created_at`)).rows.map(toView);
  if (views.length === 0) return [];
  // A walk-in family has no account (the booking belongs to the staff member who sold it).
  const extras = await db.execute(sql`
    select b.id, b.checked_in_at, b.no_show_at,
      case when b.source = 'walkin' then b.walkin_first_name else u.first_name end as first_name,
      case when b.source = 'walkin' then b.walkin_last_name else u.last_name end as last_name,
      case when b.source = 'walkin' then b.walkin_email else u.email end as email
    from bookings b join users u on u.id = b.user_id
    where b.id = any(${sql.param(views.map((v) => v.id))}::uuid[])`);
  const byId = new Map(extras.rows.map((r) => [r.id as string, r]));
  return views.map((v) => {
    const r = byId.get(v.id)!;
    return {
      ...v,
      checkedInAt: date(r.checked_in_at),
      noShowAt: date(r.no_show_at),
      customer: { firstName: (r.first_name as string | null) ?? '', lastName: (r.last_name as string | null) ?? '', email: (r.email as string | null) ?? null },
    };
  });
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
  return result.rows.map((r) => ({ bookingId: r.booking_id as string, at: new Date(r.at as string), staffEmail: r.staff_email as string, action: r.action as StaffAction }));
}

export async function recordAction(tx: Tx, values: { bookingId: string; staffUserId: string; staffEmail: string; action: StaffAction; at: Date }): Promise<void> {
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

export async function slotsOfDay(db: DbOrTx, args: { locationId: string; from: Date; to: Date; now: Date }): Promise<RunSheetSlotRow[]> {
  const result = await db.execute(sql`
    select s.id, s.kind, s.start_at, s.end_at, s.blocked, s.booking_id is not null as booked,
      coalesce(s.hold_expires_at > ${args.now.toISOString()}::timestamptz, false) as held, st.id as slot_type_id, st.slug as slot_type_slug, st.name as slot_type_name, st.allows_pets as slot_type_allows_pets
    from slots s join slot_types st on st.id = s.slot_type_id
    where s.location_id = ${args.locationId}::uuid and s.start_at >= ${args.from.toISOString()}::timestamptz and s.start_at < ${args.to.toISOString()}::timestamptz
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

/**
 * Checks a family in once: the row's own condition settles two devices scanning the same code
 * at once (PostgreSQL re-checks it after the first writer's lock), so only one records the action.
 * A family marked no-show that turns up late is checked in and the no-show is cleared.
 */
export async function markCheckedIn(tx: Tx, id: string, now: Date): Promise<boolean> {
  const result = await tx.execute(sql`
    update bookings set checked_in_at = ${now.toISOString()}::timestamptz, no_show_at = null, updated_at = ${now.toISOString()}::timestamptz
    where id = ${id}::uuid and status = 'completed' and checked_in_at is null`);
  return result.rowCount === 1;
}

export async function lockAttendance(tx: Tx, id: string) {
  const result = await tx.execute(sql`
    select b.status, b.checked_in_at, b.no_show_at, s.start_at from bookings b join slots s on s.id = b.slot_id
    where b.id = ${id}::uuid for update of b`);
  const r = result.rows[0];
  if (!r) return undefined;
  return { status: r.status as string, checkedInAt: date(r.checked_in_at), noShowAt: date(r.no_show_at), startAt: new Date(r.start_at as string) };
}

export async function setAttendance(tx: Tx, id: string, values: { checkedInAt?: null; noShowAt?: Date | null }, now: Date): Promise<void> {
  await tx
    .update(bookings)
    .set({ ...values, updatedAt: now })
    .where(sql`${bookings.id} = ${id}::uuid`);
}

export async function walkInSlot(db: DbOrTx, slotId: string) {
  const result = await db.execute(sql`
    select s.id, s.kind, s.location_id, s.slot_type_id, s.start_at, s.end_at, l.timezone, st.allows_pets
    from slots s join locations l on l.id = s.location_id join slot_types st on st.id = s.slot_type_id where s.id = ${slotId}::uuid`);
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

/**
 * A walk-in takes the session with the same kind of conditional UPDATE on the slot row as an
 * online hold (decision 0007): free of bookings, blocks and live holds, and not over yet. Of any
 * number of racers, online or at the set, exactly one gets the row. A session on a day a family
 * waits for is theirs to be offered first (decision 0028), at the set as online.
 */
export async function claimSlotForWalkIn(tx: Tx, slotId: string, bookingId: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const result = await tx.execute(sql`
    update slots set booking_id = ${bookingId}::uuid, hold_reservation_id = null, hold_expires_at = null
    where id = ${slotId}::uuid and kind = 'session' and not blocked and booking_id is null and end_at > ${at}::timestamptz
      and (hold_expires_at is null or hold_expires_at <= ${at}::timestamptz)
      and ${sql.raw(noOneWaitingFor('slots'))}`);
  return result.rowCount === 1;
}

export interface WalkInValues {
  id: string;
  orderId: string;
  reference: string;
  staffUserId: string;
  slot: { id: string; locationId: string; slotTypeId: string };
  items: LineItem[];
  amountCents: number;
  details: FamilyDetails;
  firstName: string;
  lastName: string;
  email: string | null;
  now: Date;
}

/** The confirmed walk-in booking and its order, paid in store (no PaymentIntent). */
export async function insertWalkIn(tx: Tx, v: WalkInValues): Promise<void> {
  await tx.insert(bookings).values({
    id: v.id,
    reference: v.reference,
    userId: v.staffUserId,
    locationId: v.slot.locationId,
    slotId: v.slot.id,
    slotTypeId: v.slot.slotTypeId,
    status: 'completed',
    source: 'walkin',
    items: v.items,
    amountCents: v.amountCents,
    details: v.details,
    detailsUpdatedAt: v.now,
    walkinFirstName: v.firstName,
    walkinLastName: v.lastName,
    walkinEmail: v.email,
    createdAt: v.now,
    updatedAt: v.now,
    confirmedAt: v.now,
  });
  await tx.insert(orders).values({ id: v.orderId, bookingId: v.id, userId: v.staffUserId, status: 'paid', items: v.items, amountCents: v.amountCents, createdAt: v.now, paidAt: v.now });
}
