import type { AuditAction } from '@kringle/contracts/audit-actions';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client';

/**
 * Writing the audit trail (migrations 0015 and 0025, decisions 0051 and 0062). A module at the
 * bottom of the layers (eslint.config.js), so every module can audit its own changes in its own
 * transaction: staff accounts and a family's details as well as bookings (issue 48 item 5). Written by the
 * booking transitions (booking-lifecycle/: payment-transitions.ts, booking-change-transitions.ts), the
 * refunds' moves (order-payments/payment-moves.ts) and the statements that write a session and its holds
 * (sessions/: slot-row.repository.ts, hold-statements.repository.ts, system-holds.repository.ts), always
 * in the transaction of the change; the table itself refuses UPDATE and DELETE.
 */
export type ActorKind = 'family' | 'staff' | 'system' | 'stripe';

/**
 * Who made a change. The e-mail is written as it is at the time (read from the account when the
 * caller only knows the id) and may be erased later; the id stays.
 */
export interface Actor {
  kind: ActorKind;
  id: string | null;
  email: string | null;
}

export const SYSTEM: Actor = { kind: 'system', id: null, email: null };
export const STRIPE: Actor = { kind: 'stripe', id: null, email: null };
export const familyActor = (userId: string): Actor => ({ kind: 'family', id: userId, email: null });
export const staffActor = (user: { userId: string; email: string }): Actor => ({
  kind: 'staff',
  id: user.userId,
  email: user.email,
});

/** Who changes a session's state, when and why: what the slot-row statements write beside the change. */
export interface AuditBy {
  actor: Actor;
  at: Date;
  reason?: string | null;
}

export interface NewAuditEntry {
  at: Date;
  actor: Actor;
  action: AuditAction;
  /** What the entry is about: a booking, a session (slot), a season version, or several of them. */
  bookingId: string | null;
  slotId?: string | null;
  seasonVersion?: number | null;
  orderId: string | null;
  reason: string | null;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/** The actor's columns; the e-mail is read from the account when the caller has only its id. */
const actorValues = (a: Actor): SQL =>
  sql`${a.kind}, ${a.id}::uuid, coalesce(${a.email}, (select u.email from users u where u.id = ${a.id}::uuid))`;

export async function insertAuditEntry(tx: Tx, e: NewAuditEntry): Promise<void> {
  await tx.execute(sql`
    insert into audit_entries (at, actor_kind, actor_id, actor_email, action, booking_id, slot_id, season_version,
    order_id, reason, before, after)
    values (${e.at.toISOString()}::timestamptz, ${actorValues(e.actor)}, ${e.action}, ${e.bookingId}::uuid,
    ${e.slotId ?? null}::uuid,
      ${e.seasonVersion ?? null}::int, ${e.orderId}::uuid, ${e.reason}, ${JSON.stringify(e.before)}::jsonb,
      ${JSON.stringify(e.after)}::jsonb)`);
}

/** An action as a CTE row's `action` column: typed here, so SQL-built entries are named from the list too. */
export const auditAction = (action: AuditAction): SQL => sql`${action}::text`;

/**
 * One entry per row of `rows` (a CTE of the caller's statement with the columns action,
 * booking_id, slot_id, before and after; the action made by auditAction), as a data-modifying CTE body: the change and
 * its entries
 * are one statement, so a session's state costs no extra round trip to audit.
 */
export function auditRowsOf(by: AuditBy, rows: SQL): SQL {
  return sql`insert into audit_entries (at, actor_kind, actor_id, actor_email, action, booking_id, slot_id, reason,
  before, after)
    select ${by.at.toISOString()}::timestamptz, ${actorValues(by.actor)}, x.action, x.booking_id, x.slot_id,
${by.reason ?? null}, x.before, x.after
    from (${rows}) x`;
}
