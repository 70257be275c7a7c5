import { describe, expect, it } from 'vitest';
import type { BookingDetails } from './booking-rows.repository';
import { bookingCancelledMail, bookingConfirmedMail, paymentFailedMail, reminderMail } from './bookings.emails';

// Sat 12 Dec 2026, 10:40 am in Sydney (AEDT, UTC+11).
const startAt = new Date('2026-12-11T23:40:00Z');
const details = {
  booking: {
    id: '00000000-0000-4000-8000-000000000001',
    reference: 'KR-7K3Q9',
    amountCents: 3995,
    status: 'completed',
    rescheduleCount: 0,
    details: null,
    items: [{ name: 'Classic', quantity: 1, totalCents: 3995 }],
  },
  checkInCode: 'K7Q2-TEST-CODE',
  email: 'holly@kringle.test',
  firstName: 'mcKenzie',
  locationName: 'Westfield Sydney',
  address: '188 Pitt St',
  suburb: 'Sydney',
  state: 'NSW',
  timezone: 'Australia/Sydney',
  slotTypeName: 'Classic Santa',
  startAt,
  endAt: new Date(startAt.getTime() + 10 * 60_000),
} as unknown as BookingDetails;
const appUrl = 'https://kringle.test';

describe('booking e-mails', () => {
  it('confirms with one summary block in the location zone and this booking’s deadlines', () => {
    const mail = bookingConfirmedMail(details, 'Kringle', appUrl, new Date('2026-12-01T00:00:00Z'), {
      rescheduleCutoffHours: 24,
      rescheduleLimit: 2,
      refundCutoffHours: 48,
    });
    expect(mail.text).toContain('Hi McKenzie,');
    expect(mail.text).toContain('Date: Saturday 12 December 2026');
    expect(mail.text).toContain('Time: 10:40 am to 10:50 am AEDT');
    expect(mail.text).toContain('Place: Westfield Sydney, 188 Pitt St, Sydney NSW');
    expect(mail.text).toContain('Reference: KR-7K3Q9');
    expect(mail.text).toContain('Free reschedule until: Fri 11 Dec, 10:40 am AEDT');
    expect(mail.text).toContain('Full refund until: Thu 10 Dec, 10:40 am AEDT');
    expect(mail.text).toContain('up to 2 times');
    expect(mail.html).toContain('src="https://kringle.test/logo.png"');
  });

  it('follows the configured policy, not the defaults', () => {
    const mail = bookingConfirmedMail(details, 'Kringle', appUrl, new Date('2026-12-01T00:00:00Z'), {
      rescheduleCutoffHours: 2,
      rescheduleLimit: 1,
      refundCutoffHours: 72,
    });
    expect(mail.text).toContain('Free reschedule until: Sat 12 Dec, 8:40 am AEDT');
    expect(mail.text).toContain('Full refund until: Wed 9 Dec, 10:40 am AEDT');
    expect(mail.text).toContain('move this booking once');
  });

  it(
    'booked inside the cut-offs: no deadline already past, but what no longer applies, as the Policy step ' + 'said',
    () => {
      // Sat 12 Dec, 10:40 am AEDT is 30 hours away: inside the refund cut-off, outside the reschedule one.
      const late = bookingConfirmedMail(details, 'Kringle', appUrl, new Date(startAt.getTime() - 30 * 3_600_000), {
        rescheduleCutoffHours: 24,
        rescheduleLimit: 2,
        refundCutoffHours: 48,
      });
      expect(late.text).toContain('Free reschedule until: Fri 11 Dec, 10:40 am AEDT');
      expect(late.text).toContain('Refund if cancelled: None');
      expect(late.text).not.toContain('Full refund until');
      expect(late.text).toContain('a cancellation is not refunded: the session is less than 48 hours away.');
      const last = bookingConfirmedMail(details, 'Kringle', appUrl, new Date(startAt.getTime() - 5 * 3_600_000), {
        rescheduleCutoffHours: 24,
        rescheduleLimit: 2,
        refundCutoffHours: 48,
      });
      expect(last.text).toContain('Reschedule: No longer possible');
      expect(last.text).toContain(
        "This session is less than 24 hours away, so it can't be moved, and a cancellation is not refunded.",
      );
    },
  );

  it('makes the refund receipt the cancellation’s main button when money goes back', () => {
    const refunded = bookingCancelledMail(details, 'Kringle', appUrl, 3995);
    expect(refunded.text).toContain('Get my refund receipt: https://kringle.test/bookings?tab=past');
    expect(refunded.text).toContain('Refund: $39.95');
    expect(refunded.text).not.toContain('Book another session');
    const late = bookingCancelledMail(details, 'Kringle', appUrl, 0);
    expect(late.text).toContain('The session was less than 48 hours away, so this cancellation is not refunded.');
    expect(late.text).not.toContain('refund receipt');
  });

  it('puts the summary in the reminder too', () => {
    const mail = reminderMail(details, 'Kringle', appUrl, new Date('2026-12-11T01:00:00Z'));
    expect(mail.text).toContain('Reference: KR-7K3Q9');
    expect(mail.text).toContain('arrive 10 minutes early');
  });

  it('says "Today" for a session later the same (local) day, "Tomorrow" for the next (issue 37 item 3)', () => {
    // 7:00 am on Sat 12 Dec in Sydney: the 10:40 am session is today there (still Fri 11 Dec in UTC).
    expect(reminderMail(details, 'Kringle', appUrl, new Date('2026-12-11T20:00:00Z')).subject).toBe(
      'Today: photos with Santa, Sat 12 Dec, 10:40 am AEDT',
    );
    // 11:30 pm on Fri 11 Dec in Sydney.
    expect(reminderMail(details, 'Kringle', appUrl, new Date('2026-12-11T12:30:00Z')).subject).toBe(
      'Tomorrow: photos with Santa, Sat 12 Dec, 10:40 am AEDT',
    );
  });

  it('says "3-D Secure check failed" when that is why the lapsed checkout was not paid (issue 37 item 3)', () => {
    const mail = paymentFailedMail(details, 'Kringle', appUrl, 'three_d_secure');
    expect(mail.subject).toBe('Payment not completed for KR-7K3Q9');
    expect(mail.text).toContain('3-D Secure check failed');
    expect(paymentFailedMail(details, 'Kringle', appUrl).text).not.toContain('3-D Secure');
  });
});
