import { describe, expect, it } from 'vitest';
import { draftEvidence, stripeEvidence, withStatement } from './dispute-evidence';
import type { EvidenceFacts } from './dispute-evidence';

const SYDNEY = 'Australia/Sydney';
const at = (iso: string) => new Date(iso);

const facts = (over: Partial<EvidenceFacts> = {}): EvidenceFacts => ({
  customer: { firstName: 'Wilhelmina', lastName: 'Quixote', email: 'w@example.com', deleted: false },
  order: {
    kind: 'booking',
    amountCents: 3995,
    otherCents: { credit: 0, voucher: 0 },
    paidAt: at('2026-12-01T01:00:00Z'),
    items: [{ name: 'Classic Print', quantity: 1, totalCents: 3995 }],
    policyAcceptedAt: at('2026-12-01T00:59:00Z'),
    policyAccepted: { refundCutoffHours: 48, rescheduleCutoffHours: 24, rescheduleLimit: 2 },
    purchaseIp: '203.0.113.7',
    invoiceName: null,
  },
  booking: { reference: 'KR-7K3Q9X', status: 'completed', checkedInAt: null, noShowAt: null, cancelledAt: null },
  session: {
    startAt: at('2026-12-06T23:40:00Z'),
    endAt: at('2026-12-07T00:00:00Z'),
    typeName: 'Standard',
    locationName: 'Sydney Pitt Street',
    timeZone: SYDNEY,
  },
  gallery: null,
  downloads: [],
  refunds: [],
  emails: [],
  ...over,
});

describe('draftEvidence', () => {
  it('says what was bought, when the session was (local day), the policy accepted and from where', () => {
    const e = draftEvidence(facts());
    expect(e.service_date).toBe('2026-12-07');
    expect(e.product_description).toBe(
      'Photos with Santa: Standard at Sydney Pitt Street on 2026-12-07 (Mon 7 Dec, 10:40 am AEDT), booking ' +
        'KR-7K3Q9X. Included: 1 x Classic Print.',
    );
    expect(e.customer_purchase_ip).toBe('203.0.113.7');
    expect(e.refund_policy_disclosure).toBe(
      "Shown on the booking's Policy step and accepted before payment, on 2026-12-01 (Tue 1 Dec, 11:59 am AEDT). " +
        'A booking cancelled in the app at least 48 hours before its session is refunded in full to the card; ' +
        'cancelled later, or not attended, it is not refunded.',
    );
    expect(e.cancellation_policy_disclosure).toContain('at most 2 times.');
    expect(e.receipt).toBe(
      'Tax invoice for booking KR-7K3Q9X: $39.95 paid by card on 2026-12-01 (Tue 1 Dec, 12:00 pm AEDT).\n' +
        '- 1 x Classic Print: $39.95\nNo refund was made.',
    );
    expect(e.customer_communication).toBeNull();
  });

  it("names the card's part of a booking a voucher and credit paid too, and where each refund went", () => {
    const base = facts().order;
    const e = draftEvidence(
      facts({
        order: { ...base, otherCents: { credit: 500, voucher: 2000 } },
        refunds: [{ amountCents: 2000, status: 'succeeded', method: 'voucher', createdAt: at('2026-12-02T01:00:00Z') }],
      }),
    );
    expect(e.receipt).toContain(
      'KR-7K3Q9X: $39.95 in all, $14.95 paid by card ($20.00 by gift voucher, $5.00 from account credit) on ',
    );
    expect(e.receipt).toContain('Refunded $20.00 to the gift voucher on 2026-12-02');
  });

  it('gives the check-in, the gallery opened and the originals downloaded as the proof of delivery', () => {
    const e = draftEvidence(
      facts({
        booking: {
          reference: 'KR-7K3Q9X',
          status: 'completed',
          checkedInAt: at('2026-12-06T23:38:00Z'),
          noShowAt: null,
          cancelledAt: null,
        },
        gallery: {
          photos: 5,
          unlocked: 2,
          firstViewedAt: at('2026-12-07T05:00:00Z'),
          lastViewedAt: at('2026-12-08T05:00:00Z'),
          views: 3,
        },
        downloads: [{ at: at('2026-12-07T05:01:00Z'), photos: 2, zip: true }],
        emails: [{ subject: 'Your photos are ready', sentAt: at('2026-12-07T04:00:00Z'), status: 'sent' }],
      }),
    );
    expect(e.access_activity_log).toBe(
      [
        'Checked in at the photo set at 2026-12-07 (Mon 7 Dec, 10:38 am AEDT) (the family’s check-in code scanned by ' +
          'the team).',
        'Photo gallery: 5 photo(s), 2 unlocked; opened by the family 3 time(s), first on 2026-12-07 (Mon 7 Dec, ' +
          '4:00 pm AEDT), last on 2026-12-08 (Tue 8 Dec, 4:00 pm AEDT).',
        'Downloaded by the family at 2026-12-07 (Mon 7 Dec, 4:01 pm AEDT): 2 original(s) as a zip.',
      ]
        .join('\n')
        .replace('’', "'"),
    );
    expect(e.customer_communication).toBe(
      'E-mails sent to w@example.com:\n- 2026-12-07 (Mon 7 Dec, 3:00 pm AEDT): Your photos are ready',
    );
  });

  it('names no one from a deleted account but the name its tax invoice keeps; a no-show is said so', () => {
    const e = draftEvidence(
      facts({
        customer: { firstName: '', lastName: '', email: 'deleted-x@deleted.invalid', deleted: true },
        order: { ...facts().order, invoiceName: 'Wilhelmina Quixote', purchaseIp: null },
        booking: {
          reference: 'KR-7K3Q9X',
          status: 'completed',
          checkedInAt: null,
          noShowAt: at('2026-12-07T00:05:00Z'),
          cancelledAt: null,
        },
      }),
    );
    expect(e.customer_name).toBe('Wilhelmina Quixote');
    expect(e.customer_email_address).toBeNull();
    expect(e.customer_purchase_ip).toBeNull();
    expect(e.access_activity_log).toBe(
      'Did not attend: marked no-show by the team at 2026-12-07 (Mon 7 Dec, 11:05 am AEDT).',
    );
  });
});

describe('stripeEvidence', () => {
  it("puts support's statement, then receipts and e-mails in uncategorized_text; leaves out empty fields", () => {
    const draft = draftEvidence(
      facts({ emails: [{ subject: 'Booked', sentAt: at('2026-12-01T01:00:00Z'), status: 'sent' }] }),
    );
    const sent = stripeEvidence(withStatement(draft, '  The family attended.  '));
    expect(sent.receipt).toBeUndefined();
    expect(sent.customer_communication).toBeUndefined();
    expect(sent.uncategorized_text).toBe(
      `The family attended.\n\nReceipts\n${draft.receipt}\n\nCommunication\n${draft.customer_communication}`,
    );
    expect(Object.values(sent).every((v) => v.length > 0)).toBe(true);
    expect(sent.customer_purchase_ip).toBe('203.0.113.7');
  });

  it('sends the tax invoice upload as the receipt, and then not its text', () => {
    const draft = draftEvidence(facts());
    const sent = stripeEvidence(withStatement(draft, 'The family attended.'), { receipt: 'file_abc' });
    expect(sent.receipt).toBe('file_abc');
    expect(sent.uncategorized_text).toBe('The family attended.');
  });
});
