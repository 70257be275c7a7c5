import { sql, type SQL } from 'drizzle-orm';
import type { AuditAction } from '@kringle/contracts/audit-actions';
import type { DbOrTx, Tx } from '../../db/client';

/**
 * The audit trail's rows (migrations 0015 and 0025, decisions 0051 and 0062). Written by the
 * transitions (transitions.ts, session-transitions.ts, refund-transitions.ts) and by the statements
 * that write a session's hold (slot-row.repository.ts, hold-statements.repository.ts), always in
 * the transaction of the change; the table itself refuses UPDATE and DELETE.
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
export const staffActor = (user: { userId: string; email: string }): Actor => ({ kind: 'staff', id: user.userId, email: user.email });

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

export interface AuditRow extends NewAuditEntry {
  id: string;
  seq: number;
  /** `at` to the microsecond as PostgreSQL writes it (a Date keeps milliseconds): the page cursor. */
  atExact: string;
}

/** The actor's columns; the e-mail is read from the account when the caller has only its id. */
const actorValues = (a: Actor): SQL => sql`${a.kind}, ${a.id}::uuid, coalesce(${a.email}, (select u.email from users u where u.id = ${a.id}::uuid))`;

export async function insertAuditEntry(tx: Tx, e: NewAuditEntry): Promise<void> {
  await tx.execute(sql`
    insert into audit_entries (at, actor_kind, actor_id, actor_email, action, booking_id, slot_id, season_version, order_id, reason, before, after)
    values (${e.at.toISOString()}::timestamptz, ${actorValues(e.actor)}, ${e.action}, ${e.bookingId}::uuid, ${e.slotId ?? null}::uuid,
      ${e.seasonVersion ?? null}::int, ${e.orderId}::uuid, ${e.reason}, ${JSON.stringify(e.before)}::jsonb, ${JSON.stringify(e.after)}::jsonb)`);
}

/** An action as a CTE row's `action` column: typed here, so SQL-built entries are named from the list too. */
export const auditAction = (action: AuditAction): SQL => sql`${action}::text`;

/**
 * One entry per row of `rows` (a CTE of the caller's statement with the columns action,
 * booking_id, slot_id, before and after; the action made by auditAction), as a data-modifying CTE body: the change and its entries
 * are one statement, so a session's state costs no extra round trip to audit.
 */
export function auditRowsOf(by: AuditBy, rows: SQL): SQL {
  return sql`insert into audit_entries (at, actor_kind, actor_id, actor_email, action, booking_id, slot_id, reason, before, after)
    select ${by.at.toISOString()}::timestamptz, ${actorValues(by.actor)}, x.action, x.booking_id, x.slot_id, ${by.reason ?? null}, x.before, x.after
    from (${rows}) x`;
}

export interface AuditFilter {
  bookingId?: string;
  actorId?: string;
  from?: Date;
  to?: Date;
  /** Entries strictly after this (at, seq), oldest first. */
  after?: { at: string; seq: number };
  limit: number;
}

export async function listAuditEntries(db: DbOrTx, f: AuditFilter): Promise<AuditRow[]> {
  const where: SQL[] = [sql`true`];
  if (f.bookingId) where.push(sql`booking_id = ${f.bookingId}::uuid`);
  if (f.actorId) where.push(sql`actor_id = ${f.actorId}::uuid`);
  if (f.from) where.push(sql`at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) where.push(sql`at < ${f.to.toISOString()}::timestamptz`);
  if (f.after) where.push(sql`(at, seq) > (${f.after.at}::timestamptz, ${f.after.seq}::bigint)`);
  const result = await db.execute(sql`
    select id, at, at::text as at_exact, seq, actor_kind, actor_id, actor_email, action, booking_id, slot_id, season_version, order_id, reason, before, after
    from audit_entries where ${sql.join(where, sql` and `)} order by at, seq limit ${f.limit}`);
  return result.rows.map((r) => ({
    id: r.id as string,
    at: new Date(r.at as string),
    seq: Number(r.seq),
    atExact: r.at_exact as string,
    actor: { kind: r.actor_kind as ActorKind, id: (r.actor_id as string | null) ?? null, email: (r.actor_email as string | null) ?? null },
    action: r.action as AuditAction,
    bookingId: (r.booking_id as string | null) ?? null,
    slotId: (r.slot_id as string | null) ?? null,
    seasonVersion: (r.season_version as number | null) ?? null,
    orderId: (r.order_id as string | null) ?? null,
    reason: (r.reason as string | null) ?? null,
    before: r.before as Record<string, unknown>,
    after: r.after as Record<string, unknown>,
  }));
}
