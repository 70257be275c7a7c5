import { formatSessionTime, localDateOf } from '@kringle/contracts/dates';
import { greeting } from '@kringle/contracts/names';
import { mailLogoUrl, renderEmail } from '../mail/mail-layout';
import type { OutgoingMail } from '../mail/outbox.repository';
import type { BookingDetails } from './booking-rows.repository';
import { bookingSummary } from './booking-summary.email';

/**
 * After a session the family missed (marked no-show at the set, issue 56): a friendly way back. The
 * wizard opens on the missed session's day (`?date=`), or the first day with free sessions when that
 * one is full, where a full day offers the waitlist. A missed session is past every refund deadline
 * of the policy, so the e-mail says no refund is due rather than promising one.
 */
export function noShowInviteMail(d: BookingDetails, brandName: string, appUrl: string): OutgoingMail {
  const day = localDateOf(new Date(d.startAt), d.timezone);
  return {
    to: d.email,
    subject: `We missed you at ${d.locationName}`,
    ...renderEmail({
      brandName,
      logoUrl: mailLogoUrl(appUrl),
      title: 'Sorry we missed you',
      intro: [
        greeting(d.firstName),
        `Santa was sorry not to see you at ${d.slotTypeName} on ` +
          `${formatSessionTime(d.startAt, d.timezone)} at ${d.locationName}.`,
        'If you would still like your photos with Santa, you can book another session, later that day or on ' +
          'another day. When a day is full, you can join its waitlist and we will e-mail you when a place opens.',
        `Missed sessions are not refunded under the booking policy, so booking ${d.booking.reference} stays as it ` +
          `is. Reply to this e-mail if something went wrong on the day.`,
      ],
      details: bookingSummary(d),
      action: { label: 'Book another session', url: `${appUrl}/create-booking?date=${day}` },
    }),
  };
}
