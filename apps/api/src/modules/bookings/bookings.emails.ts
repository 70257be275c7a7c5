import { formatSessionTime } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import { renderEmail } from '../mail/mail-layout';
import type { OutgoingMail } from '../mail/outbox.repository';
import type { BookingDetails } from '../payments/payments.repository';
import { bookingIcs } from './booking-calendar';
import { checkInAttachment, checkInImage, whoIsComingLines } from './booking-details.emails';

const hi = (d: BookingDetails) => (d.firstName.trim() ? `Hi ${d.firstName.trim()},` : 'Hi,');
const when = (d: BookingDetails) => formatSessionTime(d.startAt, d.timezone);
const where = (d: BookingDetails) => `${d.locationName}, ${d.address}, ${d.suburb} ${d.state}`;
const itemLines = (d: BookingDetails) => d.booking.items.map((i) => `${i.quantity} × ${i.name}: ${formatAud(i.totalCents)}`);

export function bookingConfirmedMail(d: BookingDetails, brandName: string, appUrl: string, now: Date): OutgoingMail {
  return {
    to: d.email,
    subject: `Booked: ${d.slotTypeName}, ${when(d)} (${d.booking.reference})`,
    ...renderEmail({
      brandName,
      title: 'Your photos with Santa are booked',
      intro: [
        hi(d),
        `You are booked for ${d.slotTypeName} on ${when(d)} at ${where(d)}.`,
        `Booking reference: ${d.booking.reference}`,
        ...itemLines(d),
        `Total paid: ${formatAud(d.booking.amountCents)} (includes GST).`,
        ...whoIsComingLines(d),
      ],
      action: { label: 'See my bookings', url: `${appUrl}/bookings` },
      image: checkInImage(d),
      outro: ['The calendar file attached adds the session to your calendar. Please arrive 10 minutes early.'],
    }),
    attachments: [{ filename: `${d.booking.reference}.ics`, contentType: 'text/calendar; charset=utf-8; method=PUBLISH', content: Buffer.from(bookingIcs(d, brandName, now)).toString('base64') }, checkInAttachment(d)],
  };
}

export function paymentFailedMail(d: BookingDetails, brandName: string, appUrl: string): OutgoingMail {
  return {
    to: d.email,
    subject: `Payment not completed for ${d.booking.reference}`,
    ...renderEmail({
      brandName,
      title: 'Your payment did not go through',
      intro: [hi(d), `The card payment for ${d.slotTypeName} on ${when(d)} was declined. Your session stays held for a few more minutes: you can try another card from My Bookings.`],
      action: { label: 'Try again', url: `${appUrl}/bookings` },
      outro: ['If the hold runs out, the session is released and nothing is charged.'],
    }),
  };
}

export function slotLostRefundMail(d: BookingDetails, brandName: string, appUrl: string): OutgoingMail {
  return {
    to: d.email,
    subject: `Refund for ${d.booking.reference}: the session was no longer free`,
    ...renderEmail({
      brandName,
      title: 'Sorry, that session was taken',
      intro: [
        hi(d),
        `Your payment for ${d.slotTypeName} on ${when(d)} arrived after your hold had ended, and another family had booked the session in the meantime.`,
        `We have refunded the full ${formatAud(d.booking.amountCents)} to your card. It can take 5 to 10 business days to appear.`,
      ],
      action: { label: 'Choose another session', url: `${appUrl}/create-booking` },
      outro: ['We are sorry for the trouble.'],
    }),
  };
}

export function holdLapsedMail(d: BookingDetails, brandName: string, appUrl: string): OutgoingMail {
  return {
    to: d.email,
    subject: `Booking ${d.booking.reference} was not completed`,
    ...renderEmail({
      brandName,
      title: 'Your hold has ended',
      intro: [hi(d), `We did not receive payment for ${d.slotTypeName} on ${when(d)} before the hold ended, so the session has been released. Nothing was charged.`],
      action: { label: 'Book again', url: `${appUrl}/create-booking` },
    }),
  };
}

export function bookingCancelledMail(d: BookingDetails, brandName: string, appUrl: string, refundCents: number): OutgoingMail {
  const refundLine =
    refundCents > 0
      ? `We are refunding ${formatAud(refundCents)} to your card. It can take 5 to 10 business days to appear; your refund receipt is in My Bookings.`
      : d.booking.amountCents > 0 && d.booking.status !== 'payment_pending'
        ? 'As the session was less than the refund cut-off away, this cancellation is not refunded.'
        : 'Nothing was charged.';
  return {
    to: d.email,
    subject: `Cancelled: ${d.booking.reference}`,
    ...renderEmail({
      brandName,
      title: 'Your booking is cancelled',
      intro: [hi(d), `Your booking for ${d.slotTypeName} on ${when(d)} at ${d.locationName} is cancelled.`, refundLine],
      action: { label: 'Book another session', url: `${appUrl}/create-booking` },
    }),
  };
}

export function bookingRescheduledMail(d: BookingDetails, brandName: string, appUrl: string, previousStart: Date, now: Date): OutgoingMail {
  return {
    to: d.email,
    subject: `Moved: ${d.booking.reference} is now ${when(d)}`,
    ...renderEmail({
      brandName,
      title: 'Your session has moved',
      intro: [hi(d), `Your booking ${d.booking.reference} has moved from ${formatSessionTime(previousStart, d.timezone)} to ${when(d)} at ${d.locationName}.`, 'Everything else stays the same.', ...whoIsComingLines(d)],
      action: { label: 'See my bookings', url: `${appUrl}/bookings` },
      image: checkInImage(d),
      outro: ['The attached calendar file has the new time. Your check-in code has not changed.'],
    }),
    attachments: [{ filename: `${d.booking.reference}.ics`, contentType: 'text/calendar; charset=utf-8; method=PUBLISH', content: Buffer.from(bookingIcs(d, brandName, now)).toString('base64') }, checkInAttachment(d)],
  };
}

export function reminderMail(d: BookingDetails, brandName: string, appUrl: string): OutgoingMail {
  return {
    to: d.email,
    subject: `Tomorrow: photos with Santa, ${when(d)}`,
    ...renderEmail({
      brandName,
      title: 'See you soon',
      intro: [hi(d), `A reminder: ${d.slotTypeName} on ${when(d)} at ${where(d)}.`, `Booking reference: ${d.booking.reference}. Please arrive 10 minutes early.`],
      action: { label: 'See my booking', url: `${appUrl}/bookings` },
    }),
  };
}
