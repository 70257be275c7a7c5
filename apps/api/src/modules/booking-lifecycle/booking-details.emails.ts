import { accessSummary } from '@kringle/contracts/access-needs';
import { detailsSummary } from '@kringle/contracts/booking-details';
import type { MailAttachment } from '../../db/schema/mail';
import { checkInQrPng } from '../check-in/check-in-qr';
import type { EmailImage } from '../mail/mail-layout';
import type { BookingDetails } from './booking-rows.repository';

/**
 * Issue 18's additions to the confirmation and reschedule mails, kept apart so the templates change by one line each.
 */

const CHECK_IN_CID = 'check-in-qr@kringle';

/** "Who's coming: Mia (6) and Leo (3), 2 adults" (first names only), the access needs, and the check-in code. */
export function whoIsComingLines(d: BookingDetails): string[] {
  const details = d.booking.details;
  const lines = details
    ? [`Who's coming: ${detailsSummary(details)}.`]
    : ["Who's coming: not told yet. Please add it in My Bookings so Santa can greet everyone by name."];
  if (details?.accessNeeds.length) lines.push(`Access needs: ${accessSummary(details)}.`);
  lines.push(
    `Check-in code: ${d.checkInCode}. Show the QR code below at the set, or tell Santa's team your reference ` +
      `${d.booking.reference}.`,
  );
  return lines;
}

export function checkInImage(d: BookingDetails): EmailImage {
  return {
    src: `cid:${CHECK_IN_CID}`,
    alt: `Check-in QR code for ${d.booking.reference}`,
    size: 200,
    caption: `${d.booking.reference} · ${d.checkInCode}`,
  };
}

/** An inline PNG: mail apps block SVG and data: URIs. */
export function checkInAttachment(d: BookingDetails): MailAttachment {
  return {
    filename: `check-in-${d.booking.reference}.png`,
    contentType: 'image/png',
    content: checkInQrPng(d.checkInCode).toString('base64'),
    cid: CHECK_IN_CID,
  };
}

/** The calendar event's description: first names only, the reference and the code. */
export function icsWhoIsComing(d: BookingDetails): string {
  const details = d.booking.details;
  const who = details ? ` Who's coming: ${detailsSummary(details)}.` : '';
  const code = d.booking.status === 'completed' ? ` Check-in code: ${d.checkInCode}.` : '';
  return `${who}${code}`;
}
