import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mailOfAccount } from '../mail/outbox.repository';

type Row = Record<string, unknown>;

/** Each part of the export as rows of camelCase JSON, read with the family's id (docs/privacy.md). */
const PARTS = (u: SQL) => ({
  account: sql`select id, email, first_name as "firstName", last_name as "lastName", phone, preferred_location_id as
  "preferredLocationId",
      email_verified_at as "emailVerifiedAt", created_at as "createdAt", last_sign_in_at as "lastSignInAt"
    from users where id = ${u}`,
  bookings: sql`select b.id, b.reference, b.status, l.name as location, st.name as "sessionType", s.start_at as
  "startAt", s.end_at as "endAt",
      b.items, b.amount_cents as "amountCents", b.reschedule_count as "rescheduleCount", b.cancel_reason as
      "cancelReason",
      b.created_at as "createdAt", b.confirmed_at as "confirmedAt", b.cancelled_at as "cancelledAt"
    from bookings b join slots s on s.id = b.slot_id join locations l on l.id = b.location_id join slot_types st on
    st.id = b.slot_type_id
    where b.user_id = ${u} order by s.start_at`,
  details: sql`select id as "bookingId", details, details_updated_at as "updatedAt", details_deleted_at as "deletedAt"
    from bookings where user_id = ${u} and (details is not null or details_deleted_at is not null) order by created_at`,
  orders: sql`select id, booking_id as "bookingId", status, items, amount_cents as "amountCents", refunded_cents as
  "refundedCents",
      credit_cents as "creditCents", voucher_cents as "voucherCents", created_at as "createdAt", paid_at as "paidAt",
      refunded_at as "refundedAt",
      buyer_business_name as "buyerBusinessName", buyer_abn as "buyerAbn"
    from orders where user_id = ${u} order by created_at`,
  refunds: sql`select r.id, r.order_id as "orderId", r.booking_id as "bookingId", r.amount_cents as "amountCents",
  r.status, r.reason, r.method as "refundTo",
      r.created_at as "createdAt", r.completed_at as "completedAt"
    from refunds r join orders o on o.id = r.order_id where o.user_id = ${u} order by r.created_at`,
  // Account credit (decision 0111): every move of the balance.
  credit: sql`select created_at as "at", cents, reason, booking_id as "bookingId", order_id as "orderId",
      expires_at as "expiresAt"
    from credit_entries where user_id = ${u} order by created_at, id`,
  // Gift vouchers (decision 0112) the family bought or has in its account, and their moves; never the code.
  vouchers: sql`select v.id, v.buyer_user_id = ${u} as bought, v.owner_user_id = ${u} as claimed, v.amount_cents as
      "amountCents", v.status, v.recipient_name as "recipientName",
      case when v.buyer_user_id = ${u} then v.recipient_email end as "recipientEmail",
      case when v.buyer_user_id = ${u} then v.message end as message, to_char(v.send_on, 'YYYY-MM-DD') as "sendOn",
      v.sent_at as "sentAt", v.paid_at as "paidAt", v.expires_at as "expiresAt", v.claimed_at as "claimedAt",
      coalesce((select json_agg(json_build_object('at', e.created_at, 'cents', e.cents, 'reason', e.reason,
        'bookingId', e.booking_id) order by e.created_at, e.id) from voucher_entries e where e.voucher_id = v.id),
        '[]'::json) as moves
    from vouchers v where v.buyer_user_id = ${u} or v.owner_user_id = ${u} order by v.created_at`,
  emails: sql`select m.id, m.to_address as "to", m.subject, m.text, m.status, m.created_at as "createdAt", m.sent_at
  as "sentAt"
    from mail_outbox m where ${mailOfAccount(u, sql`(select email from users where id = ${u})`)} order by m.created_at`,
  // SMS (decision 0100): the number's choices, and every message queued for it (sent, stopped or capped).
  sms: sql`select u.phone as number, u.sms_reminders as reminders,
      exists (select 1 from sms_opt_outs o where o.number = u.phone) as "repliedStop"
    from users u where u.id = ${u} and u.phone is not null`,
  smsMessages: sql`select id, to_number as "to", kind, body, status, suppressed_reason as "suppressedReason",
      booking_id as "bookingId", created_at as "createdAt", sent_at as "sentAt"
    from sms_outbox where user_id = ${u} order by created_at`,
  delayNotices: sql`select d.booking_id as "bookingId", d.minutes, d.message, d.expected_start_at as "expectedStartAt",
      d.sent_at as "sentAt"
    from delay_notices d join bookings b on b.id = d.booking_id where b.user_id = ${u} order by d.sent_at`,
  checkIns: sql`select id as "bookingId", checked_in_at as "checkedInAt", no_show_at as "noShowAt"
    from bookings where user_id = ${u} and (checked_in_at is not null or no_show_at is not null) order by created_at`,
  waitlist: sql`select w.id, l.name as location, st.name as "sessionType", to_char(w.date, 'YYYY-MM-DD') as date,
  w.status,
      w.offered_at as "offeredAt", w.ended_at as "endedAt", w.created_at as "createdAt"
    from waitlist_entries w join locations l on l.id = w.location_id join slot_types st on st.id = w.slot_type_id
    where w.user_id = ${u} order by w.created_at`,
  photos: sql`select p.id, p.booking_id as "bookingId", p.width, p.height, p.unlocked_at as "unlockedAt", p.created_at
  as "takenAt", g.expires_at as "deletedAfter"
    from photos p join bookings b on b.id = p.booking_id left join photo_galleries g on g.booking_id = b.id
    where b.user_id = ${u} order by p.seq`,
  consents: sql`select id, booking_id as "bookingId", kind, wording_version as "wordingVersion", given_at as
  "givenAt", (recorded_by is not null) as "recordedByStaff"
    from consents where user_id = ${u} order by given_at`,
  // Choices apart from any booking (news by e-mail, showing the photos): every one given, and how it ended.
  choices: sql`select id, kind, wording_version as "wordingVersion", given_at as "givenAt", expires_at as "expiresAt",
      withdrawn_at as "withdrawnAt", withdrawn_via as "withdrawnVia"
    from family_consents where user_id = ${u} order by given_at`,
  // Staff are named by role only: their own e-mail addresses are theirs, not the family's.
  // About the family's bookings, and the family's own holds and waitlist answers (no booking yet).
  auditEntries: sql`select a.at, a.actor_kind as "actorKind", a.action, a.booking_id as "bookingId", a.slot_id as
  "slotId", a.order_id as "orderId", a.reason, a.before, a.after
    from audit_entries a where a.id in (
      select a1.id from audit_entries a1 join bookings b on b.id = a1.booking_id where b.user_id = ${u}
      union all select a2.id from audit_entries a2 where a2.actor_id = ${u} and a2.booking_id is null)
    order by a.at, a.seq`,
});

export type ExportPart = keyof ReturnType<typeof PARTS>;

/** Every part, read in one repeatable-read transaction so the parts agree with one another. */
export async function readExport(db: Db, userId: string): Promise<Record<ExportPart, Row[]>> {
  const parts = PARTS(sql`${userId}::uuid`);
  return db.transaction(
    async (tx) => {
      const out = {} as Record<ExportPart, Row[]>;
      for (const [name, query] of Object.entries(parts) as [ExportPart, SQL][])
        out[name] = (await tx.execute(query)).rows as Row[];
      return out;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * The zone the family lives by, for dating its export: its preferred location's, else that of its
 * latest booking, else the first location's (a family that never booked is still in Australia).
 */
export async function familyTimeZone(db: Db, userId: string): Promise<string | null> {
  const result = await db.execute(sql`
    select coalesce(
      (select l.timezone from users u join locations l on l.id = u.preferred_location_id where u.id = ${userId}::uuid),
      (select l.timezone from bookings b join locations l on l.id = b.location_id where b.user_id = ${userId}::uuid
      order by b.created_at desc limit 1),
      (select timezone from locations order by sort_order limit 1)
    ) as timezone`);
  return (result.rows[0]?.timezone as string | null) ?? null;
}
