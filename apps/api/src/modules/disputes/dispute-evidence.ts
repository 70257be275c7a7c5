import type { DisputeEvidence } from '@kringle/contracts/disputes';
import { formatSessionTime, localDateOf } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';

/** Everything the evidence is drawn from, for one order (disputes.repository.ts reads them). */
export interface EvidenceFacts {
  customer: { firstName: string; lastName: string; email: string; deleted: boolean };
  order: {
    kind: 'booking' | 'photos';
    amountCents: number;
    /** What account credit and gift vouchers paid of it: the card paid the rest. */
    otherCents: { credit: number; voucher: number };
    paidAt: Date | null;
    items: { name: string; quantity: number; totalCents: number }[];
    policyAcceptedAt: Date | null;
    policyAccepted: Record<string, unknown> | null;
    purchaseIp: string | null;
    invoiceName: string | null;
  };
  booking: {
    reference: string;
    status: string;
    checkedInAt: Date | null;
    noShowAt: Date | null;
    cancelledAt: Date | null;
  };
  session: { startAt: Date; endAt: Date; typeName: string; locationName: string; timeZone: string };
  gallery: {
    photos: number;
    unlocked: number;
    firstViewedAt: Date | null;
    lastViewedAt: Date | null;
    views: number;
  } | null;
  downloads: { at: Date; photos: number; zip: boolean }[];
  refunds: { amountCents: number; status: string; method: string; createdAt: Date }[];
  emails: { subject: string; sentAt: Date | null; status: string }[];
}

/**
 * The evidence draft (issue 56), from what Kringle holds about one order, in Stripe's evidence
 * fields. Plain sentences: a bank's reviewer reads them, and support reads them first.
 */
/** The card's part and what credit or a voucher paid: a cardholder disputes only the card's. */
function paidWith(o: EvidenceFacts['order']): string {
  const card = o.amountCents - o.otherCents.credit - o.otherCents.voucher;
  const others = [
    o.otherCents.voucher && `${formatAud(o.otherCents.voucher)} by gift voucher`,
    o.otherCents.credit && `${formatAud(o.otherCents.credit)} from account credit`,
  ].filter(Boolean);
  return others.length
    ? `${formatAud(o.amountCents)} in all, ${formatAud(card)} paid by card (${others.join(', ')})`
    : `${formatAud(o.amountCents)} paid by card`;
}
const REFUNDED_TO: Record<string, string> = {
  card: ' to the card',
  voucher: ' to the gift voucher',
  credit: ' as account credit',
};

export function draftEvidence(f: EvidenceFacts): DisputeEvidence {
  const zone = f.session.timeZone;
  const when = (at: Date) => `${localDateOf(at, zone)} (${formatSessionTime(at, zone)})`;
  const session = `${f.session.typeName} at ${f.session.locationName} on ${when(f.session.startAt)}`;
  const hours = (key: string) => {
    const v = f.order.policyAccepted?.[key];
    return typeof v === 'number' ? v : null;
  };
  const refundHours = hours('refundCutoffHours');
  const moveHours = hours('rescheduleCutoffHours');
  const moveLimit = hours('rescheduleLimit');
  const accepted = f.order.policyAcceptedAt
    ? `Shown on the booking's Policy step and accepted before payment, on ${when(f.order.policyAcceptedAt)}.`
    : null;
  const refundRule =
    refundHours === null
      ? null
      : `A booking cancelled in the app at least ${refundHours} hours before its session is refunded in full to the ` +
        `card; cancelled later, or not attended, it is not refunded.`;
  const moveRule =
    moveHours === null || moveLimit === null
      ? ''
      : ` It may be moved to another session up to ${moveHours} hours before, at most ${moveLimit} times.`;

  const attendance = f.booking.checkedInAt
    ? `Checked in at the photo set at ${when(f.booking.checkedInAt)} (the family's check-in code scanned by the team).`
    : f.booking.noShowAt
      ? `Did not attend: marked no-show by the team at ${when(f.booking.noShowAt)}.`
      : f.booking.cancelledAt
        ? `Booking cancelled at ${when(f.booking.cancelledAt)}.`
        : 'No check-in recorded.';
  const g = f.gallery;
  const galleryLine = !g
    ? null
    : `Photo gallery: ${g.photos} photo(s), ${g.unlocked} unlocked; opened by the family ${g.views} time(s)` +
      (g.firstViewedAt && g.lastViewedAt
        ? `, first on ${when(g.firstViewedAt)}, last on ${when(g.lastViewedAt)}.`
        : '.');
  const downloadLines = f.downloads.map(
    (d) => `Downloaded by the family at ${when(d.at)}: ${d.photos} original(s)${d.zip ? ' as a zip' : ''}.`,
  );

  const paid = f.order.paidAt ? ` on ${when(f.order.paidAt)}` : '';
  const refunds = f.refunds.filter((r) => r.status === 'succeeded');
  const receipt = [
    `Tax invoice for booking ${f.booking.reference}: ${paidWith(f.order)}${paid}.`,
    ...f.order.items.map((i) => `- ${i.quantity} x ${i.name}: ${formatAud(i.totalCents)}`),
    refunds.length
      ? refunds
          .map((r) => `Refunded ${formatAud(r.amountCents)}${REFUNDED_TO[r.method] ?? ''} on ${when(r.createdAt)}.`)
          .join(' ')
      : 'No refund was made.',
  ].join('\n');
  const communication = f.emails.length
    ? [
        `E-mails sent to ${f.customer.deleted ? "the family's address" : f.customer.email}:`,
        ...f.emails.map((m) => `- ${m.sentAt ? when(m.sentAt) : `not sent (${m.status})`}: ${m.subject}`),
      ].join('\n')
    : null;

  const product =
    f.order.kind === 'photos'
      ? `Extra digital photos from the gallery of booking ${f.booking.reference} (${session}).`
      : `Photos with Santa: ${session}, booking ${f.booking.reference}.` +
        (f.order.items.length ? ` Included: ${f.order.items.map((i) => `${i.quantity} x ${i.name}`).join(', ')}.` : '');
  const name = f.customer.deleted ? f.order.invoiceName : `${f.customer.firstName} ${f.customer.lastName}`.trim();

  return {
    customer_name: name || null,
    customer_email_address: f.customer.deleted ? null : f.customer.email,
    customer_purchase_ip: f.order.purchaseIp,
    product_description: product,
    service_date: localDateOf(f.session.startAt, zone),
    cancellation_policy_disclosure: refundRule ? [accepted, refundRule + moveRule].filter(Boolean).join(' ') : null,
    refund_policy_disclosure: refundRule ? [accepted, refundRule].filter(Boolean).join(' ') : null,
    access_activity_log: [attendance, galleryLine, ...downloadLines].filter(Boolean).join('\n'),
    receipt,
    customer_communication: communication,
    uncategorized_text: null,
  };
}

/** Support's statement, first in uncategorized_text (Stripe's test words in it decide a sandbox dispute). */
export function withStatement(evidence: DisputeEvidence, statement: string): DisputeEvidence {
  return { ...evidence, uncategorized_text: statement.trim() };
}

/**
 * The evidence as Stripe takes it. Stripe's `receipt` and `customer_communication` are uploaded files
 * (File ids): the receipt is the tax invoice's upload when there is one; otherwise, and for the
 * e-mails, their text goes under headings in `uncategorized_text` (decision 0105). Empty fields are
 * left out.
 */
export function stripeEvidence(e: DisputeEvidence, files: { receipt?: string | null } = {}): Record<string, string> {
  const { receipt, customer_communication, uncategorized_text, ...text } = e;
  const combined = [
    uncategorized_text,
    !files.receipt && receipt && `Receipts\n${receipt}`,
    customer_communication && `Communication\n${customer_communication}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(text)) if (value) fields[key] = value;
  if (files.receipt) fields.receipt = files.receipt;
  if (combined) fields.uncategorized_text = combined;
  return fields;
}
