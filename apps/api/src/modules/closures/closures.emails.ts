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
  `We are very sorry: we have had to close the ${d.slotTypeName} session on ${formatSessionTime(d.startAt, d.timezone)} at ${d.locationName} (${w.reason}).`,
  ...(w.message.trim() ? [w.message.trim()] : []),
];

/** The refund remedy, a refused offer or one left unanswered: cancelled, everything paid goes back. */
export function closureRefundMail(d: BookingDetails, w: ClosureWords, brandName: string, appUrl: string, refundCents: number): OutgoingMail {
  const money = refundCents > 0 ? `Your booking ${d.booking.reference} is cancelled and we are refunding all of it, ${formatAud(refundCents)}, to your card. It can take 5 to 10 business days to appear.` : `Your booking ${d.booking.reference} is cancelled. Nothing was charged.`;
  return {
    to: d.email,
    subject: `Cancelled by us: ${d.booking.reference}${refundCents > 0 ? `, ${formatAud(refundCents)} refunded` : ''}`,
    ...renderEmail({
      brandName,
      logoUrl: mailLogoUrl(appUrl),
      title: 'Your session is cancelled',
      intro: [...sorry(d, w), money],
      details: [...bookingSummary(d), ...(refundCents > 0 ? [{ label: 'Refund', value: formatAud(refundCents) }] : [])],
      action: { label: 'Book another session', url: `${appUrl}/create-booking` },
    }),
  };
}

export interface OfferFacts {
  startAt: Date;
  locationName: string;
  timezone: string;
  expiresAt: Date;
  paidCents: number;
}

/** The move offer: a replacement held for the family, accepted or turned into a full refund from My Bookings. */
export function closureOfferMail(d: BookingDetails, w: ClosureWords, o: OfferFacts, brandName: string, appUrl: string): OutgoingMail {
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
        `We are holding the ${d.slotTypeName} session on ${session} at ${o.locationName} for you until ${until}. One tap moves your booking there; nothing else changes.`,
        `Would you rather have your money back? Choose the refund instead and we refund all of it, ${formatAud(o.paidCents)}.`,
      ],
      details: [
        { label: 'Booking', value: d.booking.reference },
        { label: 'New session', value: `${session}, ${o.locationName}` },
        { label: 'Held for you until', value: until },
      ],
      action: { label: 'Accept the new session', url: `${appUrl}/bookings?closure=${encodeURIComponent(d.booking.id)}` },
      outro: [`If we do not hear from you by ${until}, we cancel the booking and refund it in full.`],
    }),
  };
}

/** A family waiting for a day whose sessions were closed. */
export function closureWaitlistMail(to: { email: string; firstName: string }, w: ClosureWords, day: { locationName: string; slotTypeName: string; date: string; ended: boolean }, brandName: string, appUrl: string): OutgoingMail {
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
        day.ended ? 'No session of that day is left, so you are no longer on its waitlist.' : 'You stay on the waitlist for the sessions of that day still open.',
      ],
      action: { label: 'Find another session', url: `${appUrl}/create-booking` },
    }),
  };
}
