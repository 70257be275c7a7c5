import { formatClockTime, formatSessionTime, zoneAbbreviation } from '@kringle/contracts/dates';
import { greeting } from '@kringle/contracts/names';
import { mailLogoUrl, renderEmail } from '../mail/mail-layout';
import type { OutgoingMail } from '../mail/outbox.repository';

export interface OfferMailFacts {
  email: string;
  firstName: string;
  locationName: string;
  slotTypeName: string;
  timezone: string;
  startAt: Date;
  expiresAt: Date;
  reservationId: string;
}

/** The link opens the booking wizard at the Package step with the offer's hold (web: create-booking?offer=). */
export const offerLink = (appUrl: string, reservationId: string) =>
  `${appUrl}/create-booking?offer=${encodeURIComponent(reservationId)}`;

/** Says which session, until when (the location's clock), and that letting it lapse leaves the line for that day. */
export function waitlistOfferMail(f: OfferMailFacts, brandName: string, appUrl: string): OutgoingMail {
  const session = formatSessionTime(f.startAt, f.timezone);
  const until = formatSessionTime(f.expiresAt, f.timezone);
  return {
    to: f.email,
    subject:
      `A session came free: ` +
      `${f.slotTypeName}, ${session}. It is yours until ` +
      `${formatClockTime(f.expiresAt, f.timezone)} ${zoneAbbreviation(new Date(f.expiresAt), f.timezone)}`,
    ...renderEmail({
      brandName,
      logoUrl: mailLogoUrl(appUrl),
      title: 'A session is waiting for you',
      intro: [
        greeting(f.firstName),
        `A ${f.slotTypeName} session at ${f.locationName} came free on the day you are waiting for, and we are ` +
          `holding it for you alone until ${until}.`,
        'Choose your packages and pay before then to make it yours.',
      ],
      details: [
        { label: 'Session', value: session },
        { label: 'Location', value: f.locationName },
        { label: 'Held for you until', value: until },
      ],
      action: { label: 'Continue booking', url: offerLink(appUrl, f.reservationId) },
      outro: [
        `If you do not book it by ` +
          `${until}, the session goes to the next family in line and you leave the waitlist for that day.`,
        'Not needed any more? Leave the waitlist from My Bookings and the session goes to the next family straight ' +
          'away.',
      ],
    }),
  };
}
