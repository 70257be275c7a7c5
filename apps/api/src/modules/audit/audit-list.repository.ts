import type { AuditAction } from '@kringle/contracts/audit-actions';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { ActorKind, NewAuditEntry } from '../audit-trail/audit-entries.repository';

/** Reading the audit trail: the staff's audit page, its CSV and the support desk's booking. */
export interface AuditRow extends NewAuditEntry {
  id: string;
  seq: number;
  /** `at` to the microsecond as PostgreSQL writes it (a Date keeps milliseconds): the page cursor. */
  atExact: string;
}

export interface AuditFilter {
  bookingId?: string;
  actorId?: string;
  from?: Date;
  to?: Date;
  /** Part of the family's e-mail or name: entries about its bookings and what it did itself. */
  family?: string;
  /** A booking's reference, upper case. */
  reference?: string;
  /** Part of a staff e-mail: what the member did, and the entries about the member's account. */
  staffEmail?: string;
  /** Entries strictly after this (at, seq), oldest first. */
  after?: { at: string; seq: number };
  limit: number;
}

/** A LIKE pattern matching `text` anywhere, its own % and _ taken literally. */
const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listAuditEntries(db: DbOrTx, f: AuditFilter): Promise<AuditRow[]> {
  const where: SQL[] = [sql`true`];
  if (f.bookingId) where.push(sql`booking_id = ${f.bookingId}::uuid`);
  if (f.actorId) where.push(sql`actor_id = ${f.actorId}::uuid`);
  if (f.from) where.push(sql`at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) where.push(sql`at < ${f.to.toISOString()}::timestamptz`);
  if (f.family) {
    const p = likeOf(f.family);
    const match = sql`(u.email ilike ${p} or concat_ws(' ', u.first_name, u.last_name) ilike ${p})`;
    where.push(sql`(booking_id in (select b.id from bookings b join users u on u.id = b.user_id where ${match})
      or (actor_kind = 'family' and actor_id in (select u.id from users u where not u.is_staff and ${match})))`);
  }
  if (f.reference) where.push(sql`booking_id = (select b.id from bookings b where b.reference = ${f.reference})`);
  if (f.staffEmail) {
    const p = likeOf(f.staffEmail);
    where.push(
      sql`((actor_kind = 'staff' and actor_email ilike
${p}) or (action like 'staff.%' and after->>'email' ilike ${p}))`,
    );
  }
  if (f.after) where.push(sql`(at, seq) > (${f.after.at}::timestamptz, ${f.after.seq}::bigint)`);
  const result = await db.execute(sql`
    select id, at, at::text as at_exact, seq, actor_kind, actor_id, actor_email, action, booking_id, slot_id,
    season_version, order_id, reason, before, after
    from audit_entries where ${sql.join(where, sql` and `)} order by at, seq limit ${f.limit}`);
  return result.rows.map((r) => ({
    id: r.id as string,
    at: new Date(r.at as string),
    seq: Number(r.seq),
    atExact: r.at_exact as string,
    actor: {
      kind: r.actor_kind as ActorKind,
      id: (r.actor_id as string | null) ?? null,
      email: (r.actor_email as string | null) ?? null,
    },
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
