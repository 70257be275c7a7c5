import { addDays, formatSessionTime, localDateOf } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import type { RefundTo } from '@kringle/contracts/credit';
import { greeting } from '@kringle/contracts/names';
import { DEFAULT_POLICY, hours, refundDeadline, rescheduleDeadline, type PolicyRules } from '@kringle/contracts/policy';
import { mailLogoUrl, renderEmail } from '../mail/mail-layout';
import type { OutgoingMail } from '../mail/outbox.repository';
import type { BookingDetails } from './booking-rows.repository';
import { bookingIcs } from './booking-calendar';
import { checkInAttachment, checkInImage, whoIsComingLines } from './booking-details.emails';
import { bookingSummary } from './booking-summary.email';

const hi = (d: BookingDetails) => greeting(d.firstName);
const when = (d: BookingDetails) => formatSessionTime(d.startAt, d.timezone);
const itemLines = (d: BookingDetails) =>
  d.booking.items.map((i) => `${i.quantity} × ${i.name}: ${formatAud(i.totalCents)}`);
const logoUrl = mailLogoUrl;

/**
 * This booking's deadlines as the Policy step showed them: a session booked inside a cut-off gets
 * no date already past, but says what no longer applies.
 */
function policyLines(d: BookingDetails, now: Date, policy: PolicyRules) {
  const moveBy = rescheduleDeadline(d.startAt, policy);
  const refundBy = refundDeadline(d.startAt, policy);
  const canMove = now < moveBy;
  const canRefund = now < refundBy;
  const moves = policy.rescheduleLimit === 1 ? 'once' : `up to ${policy.rescheduleLimit} times`;
  const refundTerms =
    'cancel for a full refund until the refund date above; after that a cancellation is not refunded.';
  const tooCloseToRefund = `the session is less than ${hours(policy.refundCutoffHours)} away.`;
  const outro = canMove
    ? `You can move this booking ` +
      `${moves} for free until the reschedule date above, and ` +
      `${canRefund ? refundTerms : `a cancellation is not refunded: ${tooCloseToRefund}`}`
    : `This session is less than ` +
      `${hours(policy.rescheduleCutoffHours)} away, so it can't be ` +
      `moved${canRefund ? `, but you can ${refundTerms}` : ', and a cancellation is not refunded.'}`;
  return {
    details: [
      canMove
        ? { label: 'Free reschedule until', value: formatSessionTime(moveBy, d.timezone) }
        : { label: 'Reschedule', value: 'No longer possible' },
      canRefund
        ? { label: 'Full refund until', value: formatSessionTime(refundBy, d.timezone) }
        : { label: 'Refund if cancelled', value: 'None' },
    ],
    outro,
  };
}

export function bookingConfirmedMail(
  d: BookingDetails,
  brandName: string,
  appUrl: string,
  now: Date,
  policy: PolicyRules = DEFAULT_POLICY,
): OutgoingMail {
  const terms = policyLines(d, now, policy);
  return {
    to: d.email,
    subject: `Booked: ${d.slotTypeName}, ${when(d)} (${d.booking.reference})`,
    ...renderEmail({
      brandName,
      logoUrl: logoUrl(appUrl),
      title: 'Your photos with Santa are booked',
      intro: [hi(d), `You are booked for ${d.slotTypeName}. Please arrive 10 minutes early.`, ...whoIsComingLines(d)],
      details: [
        ...bookingSummary(d),
        { label: 'Packages', value: itemLines(d).join('; ') || 'None' },
        { label: 'Total paid', value: `${formatAud(d.booking.amountCents)} (includes GST)` },
        ...terms.details,
      ],
      action: { label: 'See my bookings', url: `${appUrl}/bookings` },
      image: checkInImage(d),
      outro: [terms.outro, 'The calendar file attached adds the session to your calendar.'],
    }),
    attachments: [
      {
        filename: `${d.booking.reference}.ics`,
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
        content: Buffer.from(bookingIcs(d, brandName, now)).toString('base64'),
      },
      checkInAttachment(d),
    ],
  };
}

/**
 * Sent once, when an unpaid checkout that had a declined payment finally lapses (issue 37 item 3):
 * never while the family can still pay. Says "3-D Secure check failed" when that is what happened.
 */
export function paymentFailedMail(
  d: BookingDetails,
  brandName: string,
  appUrl: string,
  reason: 'declined' | 'three_d_secure' = 'declined',
): OutgoingMail {
  const what = reason === 'three_d_secure' ? 'The 3-D Secure check failed, so the card payment' : 'The card payment';
  return {
    to: d.email,
    subject: `Payment not completed for ${d.booking.reference}`,
    ...renderEmail({
      brandName,
      logoUrl: logoUrl(appUrl),
      title: reason === 'three_d_secure' ? '3-D Secure check failed' : 'Your payment did not go through',
      intro: [
        hi(d),
        `${what} for ${d.slotTypeName} on ${when(d)} did not go through before the hold ended, so the session has ` +
          `been released. Nothing was charged.`,
      ],
      details: bookingSummary(d),
      action: { label: 'Book again', url: `${appUrl}/create-booking` },
      outro: ['If the session is still free, you can book it again with another card.'],
    }),
  };
}

export function holdLapsedMail(d: BookingDetails, brandName: string, appUrl: string): OutgoingMail {
  return {
    to: d.email,
    subject: `Booking ${d.booking.reference} was not completed`,
    ...renderEmail({
      brandName,
      logoUrl: logoUrl(appUrl),
      title: 'Your hold has ended',
      intro: [
        hi(d),
        `We did not receive payment for ` +
          `${d.slotTypeName} on ${when(d)} before the hold ended, so the session has been released. Nothing was ` +
          `charged.`,
      ],
      details: bookingSummary(d),
      action: { label: 'Book again', url: `${appUrl}/create-booking` },
    }),
  };
}

/** The line that tells the family a change was the brand's team's, not their own (support desk, decision 0051). */
const teamLine = (brandName: string) =>
  `The ${brandName} team made this change for you. Reply to this e-mail if anything looks wrong.`;

export function bookingCancelledMail(
  d: BookingDetails,
  brandName: string,
  appUrl: string,
  refundCents: number,
  policy: PolicyRules = DEFAULT_POLICY,
  byTeam = false,
  refundTo: RefundTo = 'card',
): OutgoingMail {
  const paid = d.booking.amountCents > 0 && d.booking.status !== 'payment_pending';
  const refundLine =
    refundCents > 0 && refundTo === 'credit'
      ? `${formatAud(refundCents)} is now account credit, ready to pay for your next booking. It lasts three years.`
      : refundCents > 0
        ? `We are refunding ${formatAud(refundCents)} to your card. It can take 5 to 10 business days to appear.`
        : paid && byTeam
          ? 'This cancellation is not refunded.'
          : paid
            ? `The session was less than ${hours(policy.refundCutoffHours)} away, so this cancellation is not refunded.`
            : 'Nothing was charged.';
  return {
    to: d.email,
    subject: `Cancelled: ${d.booking.reference}`,
    ...renderEmail({
      brandName,
      logoUrl: logoUrl(appUrl),
      title: 'Your booking is cancelled',
      intro: [
        hi(d),
        `Your booking for ${d.slotTypeName} on ${when(d)} at ${d.locationName} is cancelled.`,
        refundLine,
        ...(byTeam ? [teamLine(brandName)] : []),
      ],
      details: [
        ...bookingSummary(d),
        ...(refundCents > 0
          ? [{ label: refundTo === 'credit' ? 'Account credit' : 'Refund', value: formatAud(refundCents) }]
          : []),
      ],
      // Receipts are PDFs behind the family's sign-in, so the button opens My Bookings (signing in
      // first brings them back there) rather than carrying a download token anyone could forward.
      // A cancelled booking is listed under Past.
      action:
        refundCents > 0
          ? { label: 'Get my refund receipt', url: `${appUrl}/bookings?tab=past` }
          : { label: 'Book another session', url: `${appUrl}/create-booking` },
      outro:
        refundCents > 0
          ? ['Your refund receipt is on this booking under Past in My Bookings: tap "Refund receipt" to download it.']
          : undefined,
    }),
  };
}

export function bookingRescheduledMail(
  d: BookingDetails,
  brandName: string,
  appUrl: string,
  previousStart: Date,
  now: Date,
  byTeam = false,
): OutgoingMail {
  return {
    to: d.email,
    subject: `Moved: ${d.booking.reference} is now ${when(d)}`,
    ...renderEmail({
      brandName,
      logoUrl: logoUrl(appUrl),
      title: 'Your session has moved',
      intro: [
        hi(d),
        `Your booking ${d.booking.reference} has moved from ${formatSessionTime(previousStart, d.timezone)} to ` +
          `${when(d)} at ${d.locationName}.`,
        'Everything else stays the same.',
        ...(byTeam ? [teamLine(brandName)] : []),
        ...whoIsComingLines(d),
      ],
      details: bookingSummary(d),
      action: { label: 'See my bookings', url: `${appUrl}/bookings` },
      image: checkInImage(d),
      outro: ['The attached calendar file has the new time. Your check-in code has not changed.'],
    }),
    attachments: [
      {
        filename: `${d.booking.reference}.ics`,
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
        content: Buffer.from(bookingIcs(d, brandName, now)).toString('base64'),
      },
      checkInAttachment(d),
    ],
  };
}

/** A part of an order given back by the brand's team (support desk). */
export function partRefundMail(
  d: BookingDetails,
  brandName: string,
  appUrl: string,
  refundCents: number,
  /** Gift vouchers or account credit paid part of the order: their part goes back to them first. */
  notAllCard = false,
): OutgoingMail {
  const where = notAllCard
    ? `We are refunding ${formatAud(refundCents)} of your booking ${d.booking.reference}: what a gift voucher or ` +
      'account credit paid goes back to it at once, and the rest to your card, which can take 5 to 10 business days.'
    : `We are refunding ${formatAud(refundCents)} of your booking ${d.booking.reference} to your card. It can take ` +
      `5 to 10 business days to appear.`;
  return {
    to: d.email,
    subject: `Refund: ${formatAud(refundCents)} for ${d.booking.reference}`,
    ...renderEmail({
      brandName,
      logoUrl: logoUrl(appUrl),
      title: 'We are refunding part of your booking',
      intro: [hi(d), where, 'Your booking itself has not changed.', teamLine(brandName)],
      details: [...bookingSummary(d), { label: 'Refund', value: formatAud(refundCents) }],
      action: { label: 'See my bookings', url: `${appUrl}/bookings` },
    }),
  };
}

/** "Today" or "Tomorrow" in the location's own calendar, as the family reads the reminder (issue 37 item 3). */
function reminderDay(d: BookingDetails, now: Date): string {
  const today = localDateOf(now, d.timezone);
  const day = localDateOf(d.startAt, d.timezone);
  if (day === today) return 'Today';
  return day === addDays(today, 1) ? 'Tomorrow' : 'Soon';
}

export function reminderMail(d: BookingDetails, brandName: string, appUrl: string, now: Date): OutgoingMail {
  return {
    to: d.email,
    subject: `${reminderDay(d, now)}: photos with Santa, ${when(d)}`,
    ...renderEmail({
      brandName,
      logoUrl: logoUrl(appUrl),
      title: 'See you soon',
      intro: [
        hi(d),
        `A reminder: ${d.slotTypeName} on ${when(d)} at ${d.locationName}. Please arrive 10 minutes early.`,
      ],
      details: bookingSummary(d),
      action: { label: 'See my booking', url: `${appUrl}/bookings` },
    }),
  };
}
