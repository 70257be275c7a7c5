import { sql } from 'drizzle-orm';
import type { DisputeEvidence, DisputeStatus } from '@kringle/contracts/disputes';
import type { EvidenceFacts } from './dispute-evidence';
import type { DbOrTx, Tx } from '../../db/client';
import { mailOfAccount } from '../mail/outbox.repository';

/** The disputes' SQL (migration 0041, issue 56). */
export interface DisputeRow {
  id: string;
  orderId: string;
  bookingId: string;
  bookingReference: string;
  locationId: string;
  chargeId: string;
  reason: string;
  amountCents: number;
  status: DisputeStatus;
  dueBy: Date | null;
  stripeEventAt: Date;
  evidence: DisputeEvidence | null;
  evidenceStagedAt: Date | null;
  receiptFileId: string | null;
  submittedAt: Date | null;
  submittedBy: string | null;
  submitReason: string | null;
  createdAt: Date;
  closedAt: Date | null;
}

const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));

function rowOf(r: Record<string, unknown>): DisputeRow {
  return {
    id: r.id as string,
    orderId: r.order_id as string,
    bookingId: r.booking_id as string,
    bookingReference: r.reference as string,
    locationId: r.location_id as string,
    chargeId: r.charge_id as string,
    reason: r.reason as string,
    amountCents: Number(r.amount_cents),
    status: r.status as DisputeStatus,
    dueBy: date(r.due_by),
    stripeEventAt: new Date(r.stripe_event_at as string),
    evidence: (r.evidence as DisputeEvidence | null) ?? null,
    evidenceStagedAt: date(r.evidence_staged_at),
    receiptFileId: (r.receipt_file_id as string | null) ?? null,
    submittedAt: date(r.submitted_at),
    submittedBy: (r.submitted_by_email as string | null) ?? null,
    submitReason: (r.submit_reason as string | null) ?? null,
    createdAt: new Date(r.created_at as string),
    closedAt: date(r.closed_at),
  };
}

const SELECT = sql`select d.*, b.reference, b.location_id, u.email as submitted_by_email
  from disputes d join bookings b on b.id = d.booking_id left join users u on u.id = d.submitted_by`;

/** The order a PaymentIntent paid (a booking's or a photo order), with its booking; none when not ours. */
export async function orderOfPayment(
  db: DbOrTx,
  paymentIntentId: string,
): Promise<{ orderId: string; bookingId: string } | null> {
  const r = await db.execute(
    sql`select id, booking_id from orders where payment_intent_id = ${paymentIntentId} limit 1`,
  );
  const row = r.rows[0];
  return row ? { orderId: row.id as string, bookingId: row.booking_id as string } : null;
}

export interface StripeDisputeState {
  id: string;
  orderId: string;
  bookingId: string;
  chargeId: string;
  reason: string;
  amountCents: number;
  currency: string;
  status: DisputeStatus;
  dueBy: Date | null;
  eventAt: Date;
  createdAt: Date;
  closedAt: Date | null;
}

/** Inserts a dispute first seen; false when it was there already (another event, or a race). */
export async function insertDispute(tx: Tx, d: StripeDisputeState): Promise<boolean> {
  const r = await tx.execute(sql`
    insert into disputes (id, order_id, booking_id, charge_id, reason, amount_cents, currency, status, due_by,
      stripe_event_at, created_at, closed_at)
    values (${d.id}, ${d.orderId}::uuid, ${d.bookingId}::uuid, ${d.chargeId}, ${d.reason}, ${d.amountCents},
      ${d.currency}, ${d.status}, ${d.dueBy?.toISOString() ?? null}::timestamptz,
      ${d.eventAt.toISOString()}::timestamptz,
      ${d.createdAt.toISOString()}::timestamptz, ${d.closedAt?.toISOString() ?? null}::timestamptz)
    on conflict (id) do nothing`);
  return (r.rowCount ?? 0) === 1;
}

/** Stripe's newer state of a dispute already held. */
export async function updateDisputeState(tx: Tx, d: StripeDisputeState): Promise<void> {
  await tx.execute(sql`
    update disputes set reason = ${d.reason}, amount_cents = ${d.amountCents}, status = ${d.status},
      due_by = ${d.dueBy?.toISOString() ?? null}::timestamptz,
      stripe_event_at = ${d.eventAt.toISOString()}::timestamptz,
      closed_at = coalesce(closed_at, ${d.closedAt?.toISOString() ?? null}::timestamptz)
    where id = ${d.id}`);
}

export async function lockDispute(tx: Tx, id: string): Promise<DisputeRow | null> {
  const r = await tx.execute(sql`${SELECT} where d.id = ${id} for update of d`);
  return r.rows[0] ? rowOf(r.rows[0]) : null;
}

export async function findDispute(db: DbOrTx, id: string): Promise<DisputeRow | null> {
  const r = await db.execute(sql`${SELECT} where d.id = ${id}`);
  return r.rows[0] ? rowOf(r.rows[0]) : null;
}

/** Support's list: open ones first (soonest due), then the rest newest first; null locations = all. */
export async function listDisputes(db: DbOrTx, locationIds: string[] | null, limit = 200): Promise<DisputeRow[]> {
  const where = locationIds ? sql`where b.location_id = any(${sql.param(locationIds)}::uuid[])` : sql``;
  const r = await db.execute(sql`${SELECT} ${where}
    order by (d.status in ('needs_response', 'warning_needs_response')) desc, d.due_by nulls last, d.created_at desc
    limit ${limit}`);
  return r.rows.map(rowOf);
}

export async function disputesOfBooking(db: DbOrTx, bookingId: string): Promise<DisputeRow[]> {
  const r = await db.execute(sql`${SELECT} where d.booking_id = ${bookingId}::uuid order by d.created_at`);
  return r.rows.map(rowOf);
}

/** Disputes whose draft is not on Stripe yet, oldest first (the job tries them again). */
export async function unstagedDisputeIds(db: DbOrTx, limit: number, orderId?: string): Promise<string[]> {
  const r = await db.execute(sql`select id from disputes
    where evidence_staged_at is null and submitted_at is null
      and status in ('needs_response', 'warning_needs_response')
      ${orderId ? sql`and order_id = ${orderId}::uuid` : sql``}
    order by created_at limit ${limit}`);
  return r.rows.map((row) => row.id as string);
}

/** The receipt's upload, kept once: another process's first upload wins; the one kept is answered. */
export async function keepReceiptFile(db: DbOrTx, id: string, fileId: string): Promise<string> {
  const r = await db.execute(sql`update disputes set receipt_file_id = coalesce(receipt_file_id, ${fileId})
    where id = ${id} returning receipt_file_id`);
  return r.rows[0]!.receipt_file_id as string;
}

/** The owner of the order a dispute is on (the tax invoice is made as the family's own). */
export async function orderOwner(db: DbOrTx, orderId: string): Promise<string | null> {
  const r = await db.execute(sql`select user_id from orders where id = ${orderId}::uuid and paid_at is not null`);
  return (r.rows[0]?.user_id as string | undefined) ?? null;
}

/** False when another process staged it first. */
export async function markStaged(tx: Tx, id: string, evidence: DisputeEvidence, at: Date): Promise<boolean> {
  const r = await tx.execute(sql`update disputes set evidence = ${JSON.stringify(evidence)}::jsonb,
    evidence_staged_at = ${at.toISOString()}::timestamptz
    where id = ${id} and evidence_staged_at is null and submitted_at is null`);
  return (r.rowCount ?? 0) === 1;
}

export async function markSubmitted(
  tx: Tx,
  id: string,
  s: { at: Date; by: string; reason: string; evidence: DisputeEvidence },
): Promise<void> {
  await tx.execute(sql`update disputes set submitted_at = ${s.at.toISOString()}::timestamptz,
    submitted_by = ${s.by}::uuid, submit_reason = ${s.reason}, evidence = ${JSON.stringify(s.evidence)}::jsonb
    where id = ${id}`);
}

export async function evidenceFacts(db: DbOrTx, orderId: string): Promise<EvidenceFacts | null> {
  const main = await db.execute(sql`
    select o.kind, o.amount_cents, o.credit_cents, o.voucher_cents, o.paid_at, o.items, o.policy_accepted_at,
      o.policy_accepted, o.purchase_ip, o.invoice_name,
      b.id as booking_id, b.reference, b.status, b.checked_in_at, b.no_show_at, b.cancelled_at,
      s.start_at, s.end_at, st.name as type_name, l.name as location_name, l.timezone,
      u.id as user_id, u.first_name, u.last_name, u.email, u.deleted_at,
      g.first_viewed_at, g.last_viewed_at, g.views, g.booking_id as gallery_booking,
      (select count(*) from photos p where p.booking_id = b.id)::int as photos,
      (select count(*) from photos p where p.booking_id = b.id and p.unlocked_at is not null)::int as unlocked
    from orders o
    join bookings b on b.id = o.booking_id
    join slots s on s.id = b.slot_id
    join slot_types st on st.id = b.slot_type_id
    join locations l on l.id = b.location_id
    join users u on u.id = o.user_id
    left join photo_galleries g on g.booking_id = b.id
    where o.id = ${orderId}::uuid`);
  const r = main.rows[0];
  if (!r) return null;
  const bookingId = r.booking_id as string;
  const [downloads, refundRows, emails] = await Promise.all([
    db.execute(sql`select at, action, (after->>'count')::int as photos from audit_entries
      where booking_id = ${bookingId}::uuid and action in ('downloadPhotoOriginal', 'downloadPhotoZip')
      order by at limit 200`),
    db.execute(sql`select amount_cents, status, method, created_at from refunds where order_id = ${orderId}::uuid
      order by created_at`),
    db.execute(sql`select m.subject, m.sent_at, m.status from mail_outbox m
      where ${mailOfAccount(sql`${r.user_id}::uuid`, sql`${r.email}`)}
      order by m.created_at limit 50`),
  ]);
  return {
    customer: {
      firstName: r.first_name as string,
      lastName: r.last_name as string,
      email: r.email as string,
      deleted: r.deleted_at !== null,
    },
    order: {
      kind: r.kind as 'booking' | 'photos',
      amountCents: Number(r.amount_cents),
      otherCents: { credit: Number(r.credit_cents), voucher: Number(r.voucher_cents) },
      paidAt: date(r.paid_at),
      items: (r.items as { name: string; quantity: number; totalCents: number }[]).map((i) => ({
        name: i.name,
        quantity: i.quantity,
        totalCents: i.totalCents,
      })),
      policyAcceptedAt: date(r.policy_accepted_at),
      policyAccepted: (r.policy_accepted as Record<string, unknown> | null) ?? null,
      purchaseIp: (r.purchase_ip as string | null) ?? null,
      invoiceName: (r.invoice_name as string | null) ?? null,
    },
    booking: {
      reference: r.reference as string,
      status: r.status as string,
      checkedInAt: date(r.checked_in_at),
      noShowAt: date(r.no_show_at),
      cancelledAt: date(r.cancelled_at),
    },
    session: {
      startAt: new Date(r.start_at as string),
      endAt: new Date(r.end_at as string),
      typeName: r.type_name as string,
      locationName: r.location_name as string,
      timeZone: r.timezone as string,
    },
    gallery: r.gallery_booking
      ? {
          photos: r.photos as number,
          unlocked: r.unlocked as number,
          firstViewedAt: date(r.first_viewed_at),
          lastViewedAt: date(r.last_viewed_at),
          views: Number(r.views),
        }
      : null,
    downloads: downloads.rows.map((d) => ({
      at: new Date(d.at as string),
      photos: Number(d.photos ?? 0),
      zip: d.action === 'downloadPhotoZip',
    })),
    refunds: refundRows.rows.map((f) => ({
      amountCents: Number(f.amount_cents),
      status: f.status as string,
      method: f.method as string,
      createdAt: new Date(f.created_at as string),
    })),
    emails: emails.rows.map((m) => ({
      subject: m.subject as string,
      sentAt: date(m.sent_at),
      status: m.status as string,
    })),
  };
}
