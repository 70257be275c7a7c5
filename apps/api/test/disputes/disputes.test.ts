import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleStripeEvent } from '../../src/modules/payments/payments.service';
import { stageDueEvidence } from '../../src/modules/disputes/disputes.service';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { pdfText } from '../helpers/pdf-text';
import { checkOutClassic } from './checkout-fixture';

interface DisputeBody {
  id: string;
  orderId: string;
  bookingId: string;
  status: string;
  amountCents: number;
  dueBy: string | null;
  reason: string;
  evidence: Record<string, string | null> | null;
  evidenceStagedAt: string | null;
  receiptFileId: string | null;
  submittedAt: string | null;
  submittedBy: string | null;
  submitReason: string | null;
  closedAt: string | null;
}

/**
 * Chargebacks (issue 56, API.md "Money after the sale"): Stripe's dispute webhooks put a dispute on
 * the order, the evidence is drafted and staged (submit:false), support submits it with a statement,
 * the outcome closes it and the sales report shows disputed and lost amounts. Against the sandbox.
 */
describe('disputes', () => {
  let w: StaffDay;
  let sandbox: StripeSandbox;
  let support: Person;
  let manager: Person;
  let next = 0;

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    w = await staffDay(s.env);
    await listenForWebhooks(w.t.app, sandbox);
    support = await createPerson(
      w.t.db,
      true,
      { firstName: 'Sam', lastName: 'Support' },
      { role: 'support', mfaEnrolled: true },
    );
    manager = await createPerson(
      w.t.db,
      true,
      { firstName: 'Mo', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true },
    );
  });
  afterAll(async () => {
    await w?.t.close();
    await sandbox?.stop();
  });

  /** A family of its own each time (a family may hold only so many upcoming bookings) books and pays with `card`. */
  async function paidBooking(card = CARDS.dispute, family?: Person) {
    family ??= await createPerson(w.t.db, false, {
      firstName: 'Holly',
      lastName: `Dispute${String.fromCharCode(65 + next)}`,
    });
    const checkout = await checkOutClassic(w, family, w.sessions[next++]!.id);
    expect((await payWithCard(sandbox, checkout.clientSecret, card)).status).toBe('succeeded');
    await sandbox.webhooksIdle();
    return { ...checkout, family };
  }
  const disputes = async (who: Person = support) => {
    const res = await w.call('GET', '/staff/disputes', who);
    expect(res.statusCode).toBe(200);
    return res.json().items as DisputeBody[];
  };
  const disputeOf = async (orderId: string) => (await disputes()).find((d) => d.orderId === orderId)!;
  const onStripe = (id: string) => w.t.app.stripe!.disputes.retrieve(id);
  const trail = async (orderId: string) =>
    (
      await w.t.db.execute(
        sql`select actor_kind, action, reason from audit_entries where order_id = ${orderId}::uuid
          and action like 'dispute.%' order by seq`,
      )
    ).rows.map((r) => `${r.actor_kind as string}:${r.action as string}`);
  const submit = (id: string, reason: string, who: Person = support) =>
    w.call('POST', `/staff/disputes/${id}/submit`, who, { reason });

  it('the dispute card pays, then is disputed: support sees it with the evidence drafted and staged', async () => {
    const paid = await paidBooking();
    const d = await disputeOf(paid.orderId);
    expect(d).toMatchObject({
      bookingId: paid.bookingId,
      status: 'needs_response',
      reason: 'fraudulent',
      amountCents: paid.amountCents,
      submittedAt: null,
      closedAt: null,
    });
    expect(d.id).toMatch(/^dp_/);
    expect(Date.parse(d.dueBy!)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect(d.evidenceStagedAt).not.toBeNull();
    const e = d.evidence!;
    expect(e.customer_email_address).toBe(paid.family.email);
    expect(e.customer_name).toMatch(/^Holly Dispute[A-Z]$/);
    expect(e.customer_purchase_ip).toBe('127.0.0.1');
    expect(e.service_date).toBe(w.day);
    expect(e.cancellation_policy_disclosure).toMatch(/accepted before payment, on \d{4}-\d\d-\d\d/);
    expect(e.refund_policy_disclosure).toContain('at least 48 hours before its session is refunded in full');
    expect(e.access_activity_log).toBe('No check-in recorded.');
    expect(e.receipt).toMatch(/^Tax invoice for booking KR-[A-Z0-9]+: \$\d+\.\d\d paid by card on /);
    expect(e.customer_communication).toContain('Booked: Santa photos');
    expect(e.uncategorized_text).toBeNull();

    const staged = await onStripe(d.id);
    expect(staged.status).toBe('needs_response');
    expect(staged.evidence_details.submission_count).toBe(0);
    expect(staged.evidence.customer_purchase_ip).toBe('127.0.0.1');
    expect(staged.evidence.refund_policy_disclosure).toBe(e.refund_policy_disclosure);
    // Stripe takes receipt and customer_communication as files: the receipt is the tax invoice's PDF,
    // uploaded to Stripe; the e-mails' text is in uncategorized_text.
    expect(staged.evidence.receipt).toMatch(/^file_/);
    expect(d.receiptFileId).toBe(staged.evidence.receipt);
    const upload = await w.t.app.stripe!.files.retrieve(d.receiptFileId!);
    expect(upload).toMatchObject({ purpose: 'dispute_evidence', type: 'pdf' });
    const pdf = await fetch(upload.url!, { headers: { authorization: `Bearer ${sandbox.secretKey}` } });
    const invoice = pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(invoice).toContain('Tax invoice');
    expect(invoice).toContain(e.receipt!.match(/KR-[A-Z0-9]+/)![0]);
    expect(staged.evidence.uncategorized_text).not.toContain('Receipts');
    expect(staged.evidence.uncategorized_text).toContain(`Communication\n${e.customer_communication}`);
    expect(await trail(paid.orderId)).toEqual(['stripe:dispute.opened', 'stripe:dispute.evidence_staged']);

    const booking = (await w.call('GET', `/staff/bookings/${paid.bookingId}`, support)).json();
    expect(booking.disputes).toEqual([expect.objectContaining({ id: d.id, status: 'needs_response' })]);
  });

  it('redelivered and late events change nothing; a second staging run stages nothing twice', async () => {
    const paid = await paidBooking();
    // The draft is staged once both the dispute's and the payment's webhooks are in, whichever came last.
    for (let i = 0; i < 50 && !(await disputeOf(paid.orderId))?.evidenceStagedAt; i++)
      await new Promise((r) => setTimeout(r, 100));
    const before = await disputeOf(paid.orderId);
    expect(before.evidenceStagedAt).not.toBeNull();
    const created = sandbox
      .events('charge.dispute.created')
      .find((e) => (e.data.object as unknown as { id: string }).id === before.id)!;
    await handleStripeEvent(w.t.app, created as unknown as Stripe.Event);
    expect(await stageDueEvidence(w.t.app)).toBe(0);
    // A late `.updated` of an earlier state (a new event id, an older time) after the dispute was closed.
    const lost = await submit(before.id, 'The family attended: losing_evidence');
    expect(lost.json().status).toBe('lost');
    await sandbox.webhooksIdle();
    const late = {
      ...created,
      id: 'evt_late_dispute_update',
      type: 'charge.dispute.updated',
      created: (created as unknown as { created: number }).created - 60,
    };
    await handleStripeEvent(w.t.app, late as unknown as Stripe.Event);
    expect(await disputeOf(paid.orderId)).toMatchObject({ status: 'lost', closedAt: expect.any(String) });
    expect(await trail(paid.orderId)).toEqual([
      'stripe:dispute.opened',
      'stripe:dispute.evidence_staged',
      'staff:dispute.submitted',
      'stripe:dispute.closed',
    ]);
  });

  it('support submits with a statement: sent first, audited, closed by the outcome; again is 409', async () => {
    const paid = await paidBooking();
    const d = await disputeOf(paid.orderId);
    expectContractError(await submit(d.id, 'no'), 400, 'VALIDATION_FAILED');
    expectContractError(await submit(d.id, 'Attended and collected photos', w.family), 403);
    expectContractError(await submit(d.id, 'Attended and collected photos', w.elf), 403, 'ROLE_FORBIDDEN');
    expectContractError(await submit('dp_unknown1', 'Attended and collected photos'), 404, 'NOT_FOUND');
    expect((await disputeOf(paid.orderId)).submittedAt).toBeNull();

    const statement = 'The family booked, accepted the policy and came to the set. winning_evidence';
    const res = await submit(d.id, statement);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'won', submitReason: statement, submittedBy: support.email });
    const sent = await onStripe(d.id);
    expect(sent.evidence.uncategorized_text!.startsWith(statement)).toBe(true);
    expect(sent.evidence_details.submission_count).toBe(1);
    expectContractError(await submit(d.id, statement), 409, 'DISPUTE_CLOSED');
    await sandbox.webhooksIdle();
    expect(await disputeOf(paid.orderId)).toMatchObject({ status: 'won', closedAt: expect.any(String) });
    const reasons = (
      await w.t.db.execute(
        sql`select reason from audit_entries where order_id = ${paid.orderId}::uuid and action = 'dispute.submitted'`,
      )
    ).rows;
    expect(reasons).toEqual([{ reason: statement }]);
  });

  it('support of other locations neither sees a dispute nor submits it (403 LOCATION_FORBIDDEN)', async () => {
    const paid = await paidBooking();
    const d = await disputeOf(paid.orderId);
    const brisbane = await createPerson(
      w.t.db,
      true,
      { firstName: 'Bea', lastName: 'Brisbane' },
      { role: 'support', locationIds: [w.brisbane], mfaEnrolled: true },
    );
    expect((await disputes(brisbane)).map((x) => x.id)).not.toContain(d.id);
    expectContractError(await submit(d.id, 'Attended and collected photos', brisbane), 403, 'LOCATION_FORBIDDEN');
    expect((await onStripe(d.id)).evidence_details.submission_count).toBe(0);
  });

  it('two people submitting at once: Stripe takes one, the other is told 409', async () => {
    const paid = await paidBooking();
    const d = await disputeOf(paid.orderId);
    const answers = await Promise.all([
      submit(d.id, 'Support A: the family attended'),
      submit(d.id, 'Support B: photos were downloaded'),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await onStripe(d.id)).evidence_details.submission_count).toBe(1);
    expect((await disputeOf(paid.orderId)).status).toBe('under_review');
  });

  it('the sales report shows disputed and lost amounts on the orders of the day', async () => {
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(w.clock.now());
    const figures = async () =>
      (await w.call('GET', `/staff/reports/sales?from=${day}&to=${day}`, manager)).json().totals as {
        disputedCents: number;
        disputesLostCents: number;
      };
    const before = await figures();
    const other = await createPerson(w.t.db, false, { firstName: 'Rita', lastName: 'Report' });
    const paid = await paidBooking(CARDS.dispute, other);
    const d = await disputeOf(paid.orderId);
    expect(await figures()).toMatchObject({
      disputedCents: before.disputedCents + paid.amountCents,
      disputesLostCents: before.disputesLostCents,
    });
    await submit(d.id, 'We think the family attended: losing_evidence');
    await sandbox.webhooksIdle();
    expect(await figures()).toMatchObject({
      disputedCents: before.disputedCents + paid.amountCents,
      disputesLostCents: before.disputesLostCents + paid.amountCents,
    });
    // An ordinary payment is not disputed.
    await paidBooking(CARDS.success, other);
    expect((await figures()).disputedCents).toBe(before.disputedCents + paid.amountCents);
  });
});
