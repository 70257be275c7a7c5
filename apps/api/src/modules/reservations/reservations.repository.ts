import { and, eq, gt, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { DbOrTx, Tx } from '../../db/client';
import { locations, slots } from '../../db/schema/catalogue';
import { reservations } from '../../db/schema/reservations';
import { bookings } from '../../db/schema/bookings';
import { addressHoldsOn, churnReleaseOf } from '../sessions/session-rules.sql';

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
    .values({ ...values, status: 'active', createdAt: values.now, updatedAt: values.now })
    .returning();
  return row!;
}

export async function updateReservation(
  tx: Tx,
  id: string,
  values: Partial<Pick<ReservationRow, 'status' | 'expiresAt' | 'refreshesLeft'>>,
  now: Date,
) {
  const [row] = await tx
    .update(reservations)
    .set({ ...values, updatedAt: now })
    .where(eq(reservations.id, id))
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
        sql`(${reservations.status} = 'active' or (${reservations.status} = 'checked_out' and ${bookings.status} in ('payment_pending', 'payment_failed')))`,
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
      cross join lateral ${sql.raw(addressHoldsOn('p.address', 's.location_id', '(s.start_at at time zone l.timezone)::date', 'l.timezone', 'p.now'))} a`);
  const row = result.rows[0];
  return {
    n: (row?.n as number | undefined) ?? 0,
    firstEnds: row?.first_ends ? new Date(row.first_ends as string) : null,
  };
}
