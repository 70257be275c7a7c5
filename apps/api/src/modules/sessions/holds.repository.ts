import { and, eq, gt, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { DbOrTx, Tx } from '../../db/client';
import { locations, slots } from '../../db/schema/catalogue';
import { reservations } from '../../db/schema/reservations';
import { bookings } from '../../db/schema/bookings';
import { auditAction, auditRowsOf, SYSTEM, type AuditBy } from '../audit-trail/audit-entries.repository';
import { at, ENDED_COLUMNS, endHolds, FREE, held, uuid } from './hold-audit.sql';
import { addressHoldsOn, churnReleaseOf, claimableOnline, instant, upcomingBookingsOf } from './session-rules.sql';
import { statusAfter, statusesFrom } from './session-table';

/**
 * A family's own hold, as its requests find, take, refresh and let it go (reservations.service.ts,
 * held-reservations.service.ts): every read and write of hold rows on that path, so a hold crosses
 * one repository. Each write of the slot row writes its audit entries as a data-modifying CTE of
 * the same statement (decision 0062): a change of a session's state is never without its entry and
 * costs no extra round trip. The drop-day holds are hold-statements.repository.ts; the holds others
 * give and end (offers, expiry, closures, a checkout's hold) are system-holds.repository.ts; a
 * booking's own claims and frees of the slot row are slot-row.repository.ts. The moves follow
 * session-table.ts.
 */

export type ReservationRow = typeof reservations.$inferSelect;

export async function findReservation(db: DbOrTx, id: string, userId: string): Promise<ReservationRow | undefined> {
  const [row] = await db
    .select()
    .from(reservations)
    .where(and(eq(reservations.id, id), eq(reservations.userId, userId)));
  return row;
}

export async function lockReservation(tx: Tx, id: string, userId: string): Promise<ReservationRow | undefined> {
  const [row] = await tx
    .select()
    .from(reservations)
    .where(and(eq(reservations.id, id), eq(reservations.userId, userId)))
    .for('update');
  return row;
}

export async function insertReservation(
  tx: Tx,
  values: {
    userId: string;
    slotId: string;
    locationId: string;
    expiresAt: Date;
    refreshesLeft: number;
    bookingId: string | null;
    holdAddress: string | null;
    now: Date;
  },
): Promise<ReservationRow> {
  const [row] = await tx
    .insert(reservations)
    .values({ ...values, status: statusAfter('takeHold'), createdAt: values.now, updatedAt: values.now })
    .returning();
  return row!;
}

/** "I need more time" on the hold row (refreshHold), with one refresh fewer left. */
export async function refreshHoldRow(
  tx: Tx,
  id: string,
  values: { expiresAt: Date; refreshesLeft: number },
  now: Date,
): Promise<ReservationRow> {
  const [row] = await tx
    .update(reservations)
    .set({ ...values, updatedAt: now })
    .where(and(eq(reservations.id, id), sql.raw(`status in ${statusesFrom('refreshHold')}`)))
    .returning();
  return row!;
}

/** The family let the hold go (releaseHold): the row is marked released. */
export async function releaseHoldRow(tx: Tx, id: string, now: Date): Promise<ReservationRow> {
  const [row] = await tx
    .update(reservations)
    .set({ status: statusAfter('releaseHold'), updatedAt: now })
    .where(and(eq(reservations.id, id), sql.raw(`status in ${statusesFrom('releaseHold')}`)))
    .returning();
  return row!;
}

export async function slotForHold(db: DbOrTx, slotId: string) {
  const [row] = await db
    .select({ id: slots.id, locationId: slots.locationId, kind: slots.kind, salesOpenAt: locations.salesOpenAt })
    .from(slots)
    .innerJoin(locations, eq(locations.id, slots.locationId))
    .where(eq(slots.id, slotId));
  return row;
}

/**
 * The family's live holds and unpaid checkouts (issue 37 item 1): an active hold, or a checked-out
 * one whose booking still waits for payment, while its time runs. Soonest to lapse first.
 */
export async function liveReservations(
  db: DbOrTx,
  userId: string,
  now: Date,
  slotId?: string,
): Promise<ReservationRow[]> {
  const rows = await db
    .select({ r: reservations })
    .from(reservations)
    .leftJoin(bookings, eq(bookings.id, reservations.bookingId))
    .where(
      and(
        eq(reservations.userId, userId),
        gt(reservations.expiresAt, now),
        slotId ? eq(reservations.slotId, slotId) : undefined,
        sql`(${reservations.status} = 'active' or (${reservations.status} = 'checked_out' and
${bookings.status} in ('payment_pending', 'payment_failed')))`,
      ),
    )
    .orderBy(reservations.expiresAt);
  return rows.map((x) => x.r);
}

/**
 * The family's unpaid checkout on this session, if its time still runs: asked only once a hold on
 * it was refused (the session is theirs, booked but unpaid), through the bookings' (user, status) index.
 */
export async function liveCheckoutOn(
  db: DbOrTx,
  userId: string,
  slotId: string,
  now: Date,
): Promise<ReservationRow | undefined> {
  const [row] = await db
    .select({ r: reservations })
    .from(bookings)
    .innerJoin(reservations, eq(reservations.id, bookings.reservationId))
    .where(
      and(
        eq(bookings.userId, userId),
        sql`${bookings.status} in ('payment_pending', 'payment_failed')`,
        eq(bookings.slotId, slotId),
        eq(reservations.status, 'checked_out'),
        gt(reservations.expiresAt, now),
      ),
    );
  return row?.r;
}

/** The release that put the family in a churn cool-down (decision 0059), or null. */
export async function churnReleaseAt(
  pool: Pick<pg.Pool, 'query'>,
  userId: string,
  now: Date,
  releases: number,
  windowMinutes: number,
): Promise<Date | null> {
  const { rows } = await pool.query<{ at: Date | null }>({
    name: 'kringle-churn-release',
    text: `select ${churnReleaseOf('$1::uuid', '$2::timestamptz', '$3::int', '$4::int')} as at`,
    values: [userId, now, releases, windowMinutes],
  });
  return rows[0]?.at ?? null;
}

/**
 * Sessions of this session's location and day held now from one address (decision 0069), and when
 * the first of them ends: the general path's check, in its transaction.
 */
export async function addressHoldsFor(
  db: DbOrTx,
  args: { address: string; slotId: string; now: Date },
): Promise<{ n: number; firstEnds: Date | null }> {
  const now = sql`${args.now.toISOString()}::timestamptz`;
  const result = await db.execute(sql`
    select a.n, a.first_ends
    from (select ${args.address}::text as address, ${now} as now) p
      join slots s on s.id = ${args.slotId}::uuid
      join locations l on l.id = s.location_id
      cross join lateral ${sql.raw(
        addressHoldsOn(
          'p.address',
          's.location_id',
          '(s.start_at at time zone ' + 'l.timezone)::date',
          'l.timezone',
          'p.now',
        ),
      )} a`);
  const row = result.rows[0];
  return {
    n: (row?.n as number | undefined) ?? 0,
    firstEnds: row?.first_ends ? new Date(row.first_ends as string) : null,
  };
}

/** Bookings that still count towards the per-account limit: paid or being paid, session ahead. */
export async function countUpcomingBookings(db: DbOrTx, userId: string, now: Date): Promise<number> {
  const result = await db.execute(sql`
    select ${sql.raw(upcomingBookingsOf('p.user_id', 'p.now'))} as n from (select ${userId}::uuid as user_id,
    ${now.toISOString()}::timestamptz as now) p`);
  return result.rows[0]!.n as number;
}

/** An online hold on the general path (reschedule holds among them): false when the session is not free. */
export async function claimSlot(
  tx: Tx,
  args: {
    slotId: string;
    reservationId: string;
    expiresAt: Date;
    now: Date;
    leadCutoff: Date;
    bookingId: string | null;
  },
  by: AuditBy,
): Promise<boolean> {
  const result = await tx.execute(sql`
    with claimed as (
      update slots s set hold_reservation_id = ${args.reservationId}::uuid, hold_expires_at = ${at(args.expiresAt)}
      where s.id = ${args.slotId}::uuid and
      ${sql.raw(claimableOnline('s', instant(args.now), instant(args.leadCutoff)))}
      returning s.id, s.hold_expires_at
    ), audited as (${auditRowsOf(
      by,
      sql`select ${auditAction('takeHold')} as action, ${uuid(args.bookingId)} as
    booking_id,
id as slot_id, ${FREE} as before, ${held(uuid(args.reservationId), sql`hold_expires_at`)} as after from claimed`,
    )})
    select count(*)::int as n from claimed`);
  return result.rows[0]!.n === 1;
}

/** "I need more time": extends a hold only while this reservation still owns the session. */
export async function extendSlotHold(
  tx: Tx,
  args: { reservationId: string; bookingId: string | null; from: Date; to: Date },
  by: AuditBy,
): Promise<boolean> {
  const result = await tx.execute(sql`
    with extended as (
      update slots set hold_expires_at = ${at(args.to)} where hold_reservation_id = ${args.reservationId}::uuid
      returning id
    ), audited as (${auditRowsOf(
      by,
      sql`select ${auditAction('refreshHold')} as action, ${uuid(args.bookingId)} as booking_id, id as slot_id,
        ${held(uuid(args.reservationId), at(args.from))} as before, ${held(uuid(args.reservationId), at(args.to))} as
        after from extended`,
    )})
    select count(*)::int as n from extended`);
  return result.rows[0]!.n === 1;
}

/**
 * Lets go of whatever session this reservation holds: the family's release (`releaseHold`) or a
 * closure's offer ending unaccepted (`endClosureOffer`). The freed slot's id, if it held one.
 */
export async function releaseHold(
  tx: Tx,
  args: { reservationId: string; action: 'releaseHold' | 'endClosureOffer'; bookingId?: string | null },
  by: AuditBy,
): Promise<string | null> {
  const result = await tx.execute(sql`
    with freed as (
      update slots set hold_reservation_id = null, hold_expires_at = null where hold_reservation_id =
      ${args.reservationId}::uuid returning id
    ), audited as (${auditRowsOf(
      by,
      sql`select ${auditAction(args.action)} as action, ${uuid(args.bookingId)} as booking_id, id as slot_id,
        jsonb_build_object('state', 'held', 'reservationId', ${args.reservationId}::uuid) as before, ${FREE} as after
        from freed`,
    )})
    select id from freed`);
  return (result.rows[0]?.id as string | undefined) ?? null;
}

/**
 * Marks the customer's lapsed holds expired (the sweep job may not have come by yet; waitlist
 * offers are the waitlist's) and frees their sessions; their slot ids.
 */
export async function sweepLapsedHolds(tx: Tx, userId: string, now: Date): Promise<string[]> {
  const ended = sql`
    update reservations r set status = ${statusAfter('expireHold')}, updated_at = ${at(now)}
    where r.user_id = ${userId}::uuid and r.status in ${sql.raw(statusesFrom('expireHold'))} and r.waitlist_entry_id
    is null and r.expires_at <= ${at(now)}
    ${ENDED_COLUMNS}`;
  const result = await tx.execute(
    endHolds(ended, auditAction('expireHold'), { actor: SYSTEM, at: now }, sql`select slot_id from ended`),
  );
  return result.rows.map((r) => r.slot_id as string);
}
