import { formatAud } from '@kringle/contracts/money';
import { greeting } from '@kringle/contracts/names';
import { formatSessionTime } from '@kringle/contracts/dates';
import { mailLogoUrl, renderEmail } from '../mail/mail-layout';
import type { OutgoingMail } from '../mail/outbox.repository';
import type { BookingDetails } from './booking-rows.repository';
import { bookingSummary } from './booking-summary.email';

/**
 * A payment that arrived after the hold ended and could not confirm the booking: the session was
 * taken, or the gift voucher or credit it used was spent meanwhile (retake-parts.ts). The card's
 * part goes back to the card; what a voucher or credit paid is already back on it.
 */
export function latePaymentRefundMail(
  d: BookingDetails,
  brandName: string,
  appUrl: string,
  why: 'session_lost' | 'parts_gone',
  cardCents: number,
): OutgoingMail {
  const reason =
    why === 'session_lost'
      ? 'another family had booked the session in the meantime.'
      : 'the gift voucher or account credit it used had been spent in the meantime, so it could not be completed.';
  return {
    to: d.email,
    subject:
      why === 'session_lost'
        ? `Refund for ${d.booking.reference}: the session was no longer free`
        : `Refund for ${d.booking.reference}: the booking could not be completed`,
    ...renderEmail({
      brandName,
      logoUrl: mailLogoUrl(appUrl),
      title: why === 'session_lost' ? 'Sorry, that session was taken' : 'Sorry, that booking could not be completed',
      intro: [
        greeting(d.firstName),
        `Your payment for ${d.slotTypeName} on ${formatSessionTime(d.startAt, d.timezone)} arrived after your ` +
          `hold had ended, and ${reason}`,
        `We have refunded ${formatAud(cardCents)} to your card. It can take 5 to 10 business days to appear.` +
          (cardCents < d.booking.amountCents ? ' What a gift voucher or account credit paid is back on it.' : ''),
      ],
      details: bookingSummary(d),
      action: { label: 'Choose another session', url: `${appUrl}/create-booking` },
      outro: ['We are sorry for the trouble.'],
    }),
  };
}
