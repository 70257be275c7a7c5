import { sql, type SQL } from 'drizzle-orm';
import { auditRowsOf, type AuditBy } from '../audit-trail/audit-entries.repository';

/** What both hold repositories build their audited statements from: shared here, so neither reaches into the other. */

export const FREE = sql`jsonb_build_object('state', 'free')`;
export const held = (reservationId: SQL, expiresAt: SQL): SQL =>
  sql`jsonb_build_object('state', 'held', 'reservationId', ${reservationId}, 'holdExpiresAt', ${expiresAt})`;
export const uuid = (id: string | null | undefined): SQL => sql`${id ?? null}::uuid`;
export const at = (d: Date): SQL => sql`${d.toISOString()}::timestamptz`;

/**
 * The statement shared by every hold that ends by its reservation: `ended` (a CTE the caller
 * writes, returning the reservation's id, slot_id, booking_id, waitlist_entry_id and expires_at)
 * frees the sessions those reservations still hold and writes one entry per reservation ended.
 */
export function endHolds(ended: SQL, action: SQL, by: AuditBy, select: SQL): SQL {
  return sql`
    with ended as (${ended}),
    freed as (
      update slots s set hold_reservation_id = null, hold_expires_at = null from ended e where s.hold_reservation_id =
      e.id returning s.id
    ), audited as (${auditRowsOf(
      by,
      sql`select ${action} as action, e.booking_id, e.slot_id,
        ${held(sql`e.id`, sql`e.expires_at`)} || jsonb_strip_nulls(jsonb_build_object('waitlistEntryId',
        e.waitlist_entry_id)) as before, ${FREE} as after from ended e`,
    )})
    ${select}`;
}

export const ENDED_COLUMNS = sql`returning r.id, r.slot_id, r.booking_id, r.waitlist_entry_id, r.expires_at`;
