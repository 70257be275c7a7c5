import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import type { AuditAction } from '@kringle/contracts/audit-actions';
import { auditAction, auditRowsOf, SYSTEM, type AuditBy } from '../audit-trail/audit-entries.repository';
import { claimableOnline, instant } from './session-rules.sql';

/**
 * A session's hold: taken, extended, let go, expired, and a session closed (decision 0062). Each
 * statement writes the slot row and its audit entries together, as data-modifying CTEs of one
 * statement: a change of a session's state is never without its entry, and costs no extra round
 * trip. The drop-day holds do the same in hold-statements.repository.ts; a booking's own claims
 * and frees are in slot-row.repository.ts and audited by transitions.ts.
 */

const FREE = sql`jsonb_build_object('state', 'free')`;
const held = (reservationId: SQL, expiresAt: SQL): SQL =>
  sql`jsonb_build_object('state', 'held', 'reservationId', ${reservationId}, 'holdExpiresAt', ${expiresAt})`;
const uuid = (id: string | null | undefined): SQL => sql`${id ?? null}::uuid`;
const at = (d: Date): SQL => sql`${d.toISOString()}::timestamptz`;

/** A hold's action as the trail names it: a waitlist offer's end has words of its own. */
const endAction = (hold: AuditAction, offer: AuditAction, wl: string) =>
  sql`case when ${sql.raw(wl)} is null then ${auditAction(hold)} else ${auditAction(offer)} end`;

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
      where s.id = ${args.slotId}::uuid and ${sql.raw(claimableOnline('s', instant(args.now), instant(args.leadCutoff)))}
      returning s.id, s.hold_expires_at
    ), audited as (${auditRowsOf(by, sql`select ${auditAction('takeHold')} as action, ${uuid(args.bookingId)} as booking_id, id as slot_id, ${FREE} as before, ${held(uuid(args.reservationId), sql`hold_expires_at`)} as after from claimed`)})
    select count(*)::int as n from claimed`);
  return result.rows[0]!.n === 1;
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
  const after = sql`${held(uuid(args.reservationId), at(args.expiresAt))} || jsonb_strip_nulls(jsonb_build_object('waitlistEntryId', ${uuid(args.waitlistEntryId)}))`;
  await tx.execute(sql`
    with taken as (
      update slots set hold_reservation_id = ${args.reservationId}::uuid, hold_expires_at = ${at(args.expiresAt)} where id = ${args.slotId}::uuid returning id
    ), audited as (${auditRowsOf(by, sql`select ${auditAction(args.action)} as action, ${uuid(args.bookingId)} as booking_id, id as slot_id, ${FREE} as before, ${after} as after from taken`)})
    select 1`);
}

/** "I need more time": extends a hold only while this reservation still owns the session. */
export async function extendSlotHold(
  tx: Tx,
  args: { reservationId: string; bookingId: string | null; from: Date; to: Date },
  by: AuditBy,
): Promise<boolean> {
  const result = await tx.execute(sql`
    with extended as (
      update slots set hold_expires_at = ${at(args.to)} where hold_reservation_id = ${args.reservationId}::uuid returning id
    ), audited as (${auditRowsOf(
      by,
      sql`select ${auditAction('refreshHold')} as action, ${uuid(args.bookingId)} as booking_id, id as slot_id,
        ${held(uuid(args.reservationId), at(args.from))} as before, ${held(uuid(args.reservationId), at(args.to))} as after from extended`,
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
      update slots set hold_reservation_id = null, hold_expires_at = null where hold_reservation_id = ${args.reservationId}::uuid returning id
    ), audited as (${auditRowsOf(
      by,
      sql`select ${auditAction(args.action)} as action, ${uuid(args.bookingId)} as booking_id, id as slot_id,
        jsonb_build_object('state', 'held', 'reservationId', ${args.reservationId}::uuid) as before, ${FREE} as after from freed`,
    )})
    select id from freed`);
  return (result.rows[0]?.id as string | undefined) ?? null;
}

/**
 * The statement shared by every hold that ends by its reservation: `ended` (a CTE the caller
 * writes, returning the reservation's id, slot_id, booking_id, waitlist_entry_id and expires_at)
 * frees the sessions those reservations still hold and writes one entry per reservation ended.
 */
function endHolds(ended: SQL, action: SQL, by: AuditBy, select: SQL): SQL {
  return sql`
    with ended as (${ended}),
    freed as (
      update slots s set hold_reservation_id = null, hold_expires_at = null from ended e where s.hold_reservation_id = e.id returning s.id
    ), audited as (${auditRowsOf(
      by,
      sql`select ${action} as action, e.booking_id, e.slot_id,
        ${held(sql`e.id`, sql`e.expires_at`)} || jsonb_strip_nulls(jsonb_build_object('waitlistEntryId', e.waitlist_entry_id)) as before, ${FREE} as after from ended e`,
    )})
    ${select}`;
}

const ENDED_COLUMNS = sql`returning r.id, r.slot_id, r.booking_id, r.waitlist_entry_id, r.expires_at`;

/**
 * Expiry sweep: marks lapsed holds expired and frees their slots, a batch at a time. SKIP LOCKED
 * lets several API processes sweep together without waiting on or repeating each other. Returns
 * the number of holds ended.
 */
export async function expireLapsedHolds(db: DbOrTx, now: Date, batch = 500): Promise<number> {
  const ended = sql`
    update reservations r set status = 'expired', updated_at = ${at(now)}
    where r.id in (select id from reservations where status = 'active' and expires_at <= ${at(now)} order by expires_at limit ${batch} for update skip locked)
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
 * Marks the customer's lapsed holds expired (the sweep job may not have come by yet; waitlist
 * offers are the waitlist's) and frees their sessions; their slot ids.
 */
export async function sweepLapsedHolds(tx: Tx, userId: string, now: Date): Promise<string[]> {
  const ended = sql`
    update reservations r set status = 'expired', updated_at = ${at(now)}
    where r.user_id = ${userId}::uuid and r.status = 'active' and r.waitlist_entry_id is null and r.expires_at <= ${at(now)}
    ${ENDED_COLUMNS}`;
  const result = await tx.execute(
    endHolds(ended, auditAction('expireHold'), { actor: SYSTEM, at: now }, sql`select slot_id from ended`),
  );
  return result.rows.map((r) => r.slot_id as string);
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
  const ended = sql`
    update reservations r set status = ${status}, updated_at = ${at(by.at)} where r.id = ${reservationId}::uuid and r.status = 'active'
    ${ENDED_COLUMNS}`;
  const action = auditAction(status === 'cancelled' ? 'passOffer' : 'lapseOffer');
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
      update reservations set status = 'cancelled', updated_at = ${at(by.at)}
      where slot_id in (${ids}) and status = 'active'
      returning id, user_id, waitlist_entry_id, slot_id
    ), closed as (
      update slots set blocked = true,
        hold_reservation_id = case when booking_id is null then null else hold_reservation_id end,
        hold_expires_at = case when booking_id is null then null else hold_expires_at end
      where id in (${ids})
      returning id, booking_id
    ), audited as (${auditRowsOf(
      by,
      sql`select ${auditAction('closeSession')} as action, c.booking_id, c.id as slot_id, jsonb_build_object('state', 'open') as before,
        jsonb_build_object('state', 'closed', 'holdsEnded', (select coalesce(jsonb_agg(e.id), '[]'::jsonb) from ended e where e.slot_id = c.id)) as after from closed c`,
    )})
    select id, user_id, waitlist_entry_id from ended`);
  return ended.rows.map((r) => ({
    reservationId: r.id as string,
    userId: r.user_id as string,
    waitlistEntryId: (r.waitlist_entry_id as string | null) ?? null,
  }));
}
