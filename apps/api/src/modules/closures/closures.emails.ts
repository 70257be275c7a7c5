import { formatSessionTime } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import { greeting } from '@kringle/contracts/names';
import type { BookingDetails } from '../booking-lifecycle/booking-rows.repository';
import { bookingSummary } from '../booking-lifecycle/booking-summary.email';
import { mailLogoUrl, renderEmail } from '../mail/mail-layout';
import type { OutgoingMail } from '../mail/outbox.repository';

/** What the manager wrote: the reason always, the message when there is one. */
export interface ClosureWords {
  reason: string;
  message: string;
}

const sorry = (d: BookingDetails, w: ClosureWords) => [
  greeting(d.firstName),
  `We are very sorry: we have had to close the ` +
    `${d.slotTypeName} session on ${formatSessionTime(d.startAt, d.timezone)} at ${d.locationName} (${w.reason}).`,
  ...(w.message.trim() ? [w.message.trim()] : []),
];

/**
 * "All of it" only when nothing was refunded before: after a partial refund the family gets, and
 * is told, what is left (issue 53: "we refund all of it, $39.95" when $29.95 was left).
 */
const allOf = (d: BookingDetails, refundCents: number) =>
  refundCents < d.booking.amountCents
    ? `all that is left to refund, ${formatAud(refundCents)}`
    : `all of it, ${formatAud(refundCents)}`;

/** The refund remedy, a refused offer or one left unanswered: cancelled, everything still paid goes back. */
export function closureRefundMail(
  d: BookingDetails,
  w: ClosureWords,
  brandName: string,
  appUrl: string,
  refundCents: number,
  /** The credit remedy: what was paid is account credit, with this bonus on top. */
  asCredit: { bonusCents: number } | null = null,
): OutgoingMail {
  const money = asCredit
    ? `Your booking ${d.booking.reference} is cancelled and ${allOf(d, refundCents)} is now account credit, ` +
      `with ${formatAud(asCredit.bonusCents)} more from us as a thank-you for your patience: ` +
      `${formatAud(refundCents + asCredit.bonusCents)} to spend on your next booking. It lasts three years.`
    : refundCents > 0
      ? `Your booking ${d.booking.reference} is cancelled and we are refunding ` +
        `${allOf(d, refundCents)}, to your card. It can take 5 to 10 business days to appear.`
      : `Your booking ${d.booking.reference} is cancelled. Nothing is left to refund.`;
  return {
    to: d.email,
    subject: asCredit
      ? `Cancelled by us: ${d.booking.reference}, ${formatAud(refundCents + asCredit.bonusCents)} in account credit`
      : `Cancelled by us: ${d.booking.reference}${refundCents > 0 ? `, ${formatAud(refundCents)} refunded` : ''}`,
    ...renderEmail({
      brandName,
      logoUrl: mailLogoUrl(appUrl),
      title: 'Your session is cancelled',
      intro: [...sorry(d, w), money],
      details: [
        ...bookingSummary(d),
        ...(asCredit
          ? [{ label: 'Account credit', value: formatAud(refundCents + asCredit.bonusCents) }]
          : refundCents > 0
            ? [{ label: 'Refund', value: formatAud(refundCents) }]
            : []),
      ],
      action: { label: 'Book another session', url: `${appUrl}/create-booking` },
    }),
  };
}

export interface OfferFacts {
  startAt: Date;
  locationName: string;
  timezone: string;
  expiresAt: Date;
  /** What the refund instead gives back: left on the order after earlier refunds (money-left.ts). */
  refundCents: number;
}

/** The move offer: a replacement held for the family, accepted or turned into a full refund from My Bookings. */
export function closureOfferMail(
  d: BookingDetails,
  w: ClosureWords,
  o: OfferFacts,
  brandName: string,
  appUrl: string,
): OutgoingMail {
  const session = formatSessionTime(o.startAt, o.timezone);
  const until = formatSessionTime(o.expiresAt, d.timezone);
  return {
    to: d.email,
    subject: `Your session is closed: we are holding ${session} for you`,
    ...renderEmail({
      brandName,
      logoUrl: mailLogoUrl(appUrl),
      title: 'We are holding another session for you',
      intro: [
        ...sorry(d, w),
        `We are holding the ${d.slotTypeName} session on ${session} at ${o.locationName} for you until ${until}. ` +
          `One tap moves ` +
          `your booking there; nothing else changes.`,
        ...(o.refundCents > 0
          ? [
              `Would you rather have your money back? Choose the refund instead and we refund ` +
                `${allOf(d, o.refundCents)}.`,
            ]
          : []),
      ],
      details: [
        { label: 'Booking', value: d.booking.reference },
        { label: 'New session', value: `${session}, ${o.locationName}` },
        { label: 'Held for you until', value: until },
      ],
      action: {
        label: 'Accept the new session',
        url: `${appUrl}/bookings?closure=${encodeURIComponent(d.booking.id)}`,
      },
      outro: [`If we do not hear from you by ${until}, we cancel the booking and refund it in full.`],
    }),
  };
}

/** A family waiting for a day whose sessions were closed. */
export function closureWaitlistMail(
  to: { email: string; firstName: string },
  w: ClosureWords,
  day: { locationName: string; slotTypeName: string; date: string; ended: boolean },
  brandName: string,
  appUrl: string,
): OutgoingMail {
  return {
    to: to.email,
    subject: `Sessions closed at ${day.locationName} on ${day.date}`,
    ...renderEmail({
      brandName,
      logoUrl: mailLogoUrl(appUrl),
      title: 'Sessions on your waitlist day are closed',
      intro: [
        greeting(to.firstName),
        `We have had to close ${day.slotTypeName} sessions at ${day.locationName} on ${day.date} (${w.reason}).`,
        day.ended
          ? 'No session of that day is left, so you are no longer on its waitlist.'
          : 'You stay on the waitlist for the sessions of that day still open.',
      ],
      action: { label: 'Find another session', url: `${appUrl}/create-booking` },
    }),
  };
}
