import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import type { AuditAction } from '@kringle/contracts/audit-actions';
import { auditAction, auditRowsOf, SYSTEM, type AuditBy } from '../audit-trail/audit-entries.repository';
import { at, ENDED_COLUMNS, endHolds, FREE, held, uuid } from './hold-audit.sql';
import { statusAfter, statusesFrom } from './session-table';

/**
 * The holds others give and end: a waitlist offer and a closure's offer of a move, the expiry job,
 * a closure closing sessions, and a checkout's or a reschedule's hold moved with its booking
 * (booking-lifecycle's transitions). With holds.repository.ts (the family's own) and the drop-day
 * statements, these are every write of hold rows and of the slot row's hold columns; each follows
 * session-table.ts and writes its audit entries in the same statement (decision 0062).
 */

/** A hold's action as the trail names it: a waitlist offer's end has words of its own. */
const endAction = (hold: AuditAction, offer: AuditAction, wl: string) =>
  sql`case when ${sql.raw(wl)} is null then ${auditAction(hold)} else ${auditAction(offer)} end`;

/**
 * A waitlist offer (offerFromWaitlist, decision 0028): a hold row of that family, naming its entry,
 * on the session the caller locked and found free, and the slot row held for it.
 */
export async function offerFromWaitlist(
  tx: Tx,
  args: {
    reservationId: string;
    userId: string;
    slotId: string;
    locationId: string;
    waitlistEntryId: string;
    expiresAt: Date;
    refreshesLeft: number;
    now: Date;
  },
): Promise<void> {
  const now = args.now.toISOString();
  const expiresAt = args.expiresAt.toISOString();
  await tx.execute(sql`
    insert into reservations (id, user_id, slot_id, location_id, status, expires_at, refreshes_left, booking_id,
    waitlist_entry_id, created_at, updated_at)
    values (${args.reservationId}::uuid, ${args.userId}::uuid, ${args.slotId}::uuid, ${args.locationId}::uuid,
    ${statusAfter('offerFromWaitlist')},
      ${expiresAt}::timestamptz, ${args.refreshesLeft}, null, ${args.waitlistEntryId}::uuid, ${now}::timestamptz,
      ${now}::timestamptz)`);
  await holdFreeSlot(
    tx,
    {
      slotId: args.slotId,
      reservationId: args.reservationId,
      expiresAt: args.expiresAt,
      action: 'offerFromWaitlist',
      waitlistEntryId: args.waitlistEntryId,
    },
    { actor: SYSTEM, at: args.now },
  );
}

/**
 * A checkout's or a reschedule's hold moves with its booking (booking-lifecycle's transitions):
 * checked out, or ended when the unpaid checkout lapses or is cancelled. Only from the states the
 * table allows.
 */
export async function moveBookingHold(
  tx: Tx,
  id: string,
  move: 'checkOut' | 'lapseCheckout' | 'cancelCheckout',
  now: Date,
  bookingId?: string,
): Promise<void> {
  await tx.execute(sql`
    update reservations set status = ${statusAfter(move)}, updated_at = ${at(now)}
      ${bookingId ? sql`, booking_id = ${bookingId}::uuid` : sql``}
    where id = ${id}::uuid and status in ${sql.raw(statusesFrom(move))}`);
}

/**
 * Holds a session the caller locked and found free: a waitlist offer (`offerFromWaitlist`, with the
 * entry) or a closure's offer of a move (`offerClosureMove`, with the booking it is for).
 */
export async function holdFreeSlot(
  tx: Tx,
  args: {
    slotId: string;
    reservationId: string;
    expiresAt: Date;
    action: 'offerFromWaitlist' | 'offerClosureMove';
    bookingId?: string;
    waitlistEntryId?: string;
  },
  by: AuditBy,
): Promise<void> {
  const after = sql`${held(uuid(args.reservationId), at(args.expiresAt))} ||
  jsonb_strip_nulls(jsonb_build_object('waitlistEntryId', ${uuid(args.waitlistEntryId)}))`;
  await tx.execute(sql`
    with taken as (
      update slots set hold_reservation_id = ${args.reservationId}::uuid, hold_expires_at = ${at(args.expiresAt)}
      where id = ${args.slotId}::uuid returning id
    ), audited as (${auditRowsOf(
      by,
      sql`select ${auditAction(args.action)} as action, ${uuid(args.bookingId)} as
    booking_id,
id as slot_id, ${FREE} as before, ${after} as after from taken`,
    )})
    select 1`);
}

/**
 * Expiry sweep: marks lapsed holds expired and frees their slots, a batch at a time. SKIP LOCKED
 * lets several API processes sweep together without waiting on or repeating each other. Returns
 * the number of holds ended.
 */
export async function expireLapsedHolds(db: DbOrTx, now: Date, batch = 500): Promise<number> {
  const ended = sql`
    update reservations r set status = ${statusAfter('expireHold')}, updated_at = ${at(now)}
    where r.id in (select id from reservations where status in ${sql.raw(statusesFrom('expireHold'))} and expires_at
    <= ${at(now)} order by expires_at limit ${batch} for update skip locked)
    ${ENDED_COLUMNS}`;
  const result = await db.execute(
    endHolds(
      ended,
      endAction('expireHold', 'lapseOffer', 'e.waitlist_entry_id'),
      { actor: SYSTEM, at: now },
      sql`select count(*)::int as n from ended`,
    ),
  );
  return result.rows[0]!.n as number;
}

/**
 * Ends a waitlist offer's hold that was not checked out: declined by the family (`cancelled`:
 * passOffer) or lapsed (`expired`: lapseOffer). The freed slot, or null when nothing was held.
 */
export async function endOffer(
  tx: Tx,
  reservationId: string,
  status: 'cancelled' | 'expired',
  by: AuditBy,
): Promise<string | null> {
  const move = status === 'cancelled' ? 'passOffer' : 'lapseOffer';
  const ended = sql`
    update reservations r set status = ${statusAfter(move)}, updated_at = ${at(by.at)}
    where r.id = ${reservationId}::uuid and r.status in ${sql.raw(statusesFrom(move))}
    ${ENDED_COLUMNS}`;
  const action = auditAction(move);
  const result = await tx.execute(endHolds(ended, action, by, sql`select id from freed`));
  return (result.rows[0]?.id as string | undefined) ?? null;
}

/**
 * A closure (decision 0055) takes sessions out of sale at once: blocked, and every live hold on
 * them ends (the reservation is cancelled, so the family's hold answers why), one entry per
 * session closed. Returns the holds ended, with the waitlist entry of an offer among them.
 */
export async function closeSessions(
  tx: Tx,
  slotIds: string[],
  by: AuditBy,
): Promise<{ reservationId: string; userId: string; waitlistEntryId: string | null }[]> {
  if (slotIds.length === 0) return [];
  const ids = sql.join(
    slotIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const ended = await tx.execute(sql`
    with ended as (
      update reservations set status = ${statusAfter('closeSession')}, updated_at = ${at(by.at)}
      where slot_id in (${ids}) and status in ${sql.raw(statusesFrom('closeSession'))}
      returning id, user_id, waitlist_entry_id, slot_id
    ), closed as (
      update slots set blocked = true,
        hold_reservation_id = case when booking_id is null then null else hold_reservation_id end,
        hold_expires_at = case when booking_id is null then null else hold_expires_at end
      where id in (${ids})
      returning id, booking_id
    ), audited as (${auditRowsOf(
      by,
      sql`select ${auditAction('closeSession')} as action, c.booking_id, c.id as slot_id, jsonb_build_object('state',
      'open') as before,
        jsonb_build_object('state', 'closed', 'holdsEnded', (select coalesce(jsonb_agg(e.id), '[]'::jsonb) from ended
        e where e.slot_id = c.id)) as after from closed c`,
    )})
    select id, user_id, waitlist_entry_id from ended`);
  return ended.rows.map((r) => ({
    reservationId: r.id as string,
    userId: r.user_id as string,
    waitlistEntryId: (r.waitlist_entry_id as string | null) ?? null,
  }));
}
