import { importPKCS8, SignJWT } from 'jose';
import type { BookingDetails } from '../booking-lifecycle/booking-rows.repository';
import type { GoogleWalletKey } from './wallet-keys';

/** The object's id: the issuer's, then the booking's (Google allows [A-Za-z0-9._-] after the issuer). */
export const googleObjectId = (key: GoogleWalletKey, bookingId: string) =>
  `${key.issuerId}.${bookingId.replace(/-/g, '')}`;

/**
 * The booking's event ticket object, as the save link carries it and as an update sends it again: its
 * time, place and the same QR code as the Apple pass and the e-mail; a cancelled booking's is INACTIVE.
 */
export function googleTicketObject(d: BookingDetails, key: GoogleWalletKey) {
  return {
    id: googleObjectId(key, d.booking.id),
    classId: `${key.issuerId}.santa-photos`,
    state: d.booking.status === 'completed' ? 'ACTIVE' : 'INACTIVE',
    ticketNumber: d.booking.reference,
    ticketHolderName: d.firstName || undefined,
    barcode: { type: 'QR_CODE', value: d.checkInCode ?? d.booking.reference, alternateText: d.booking.reference },
    validTimeInterval: { start: { date: d.startAt.toISOString() }, end: { date: d.endAt.toISOString() } },
    textModulesData: [
      { id: 'place', header: d.locationName, body: [d.address, d.suburb, d.state].filter(Boolean).join(', ') },
    ],
  };
}

/**
 * "Save to Google Wallet": a link carrying an RS256 JWT signed by the issuer's service account,
 * with the event ticket object inside (Google's "skinny" JWT needs a class made once through the
 * API; the object here names it).
 */
export async function googleSaveUrl(
  d: BookingDetails,
  key: GoogleWalletKey,
  opts: { brandName: string; origin: string; now: Date },
): Promise<string> {
  const object = googleTicketObject(d, key);
  const jwt = await new SignJWT({
    typ: 'savetowallet',
    origins: [opts.origin],
    payload: { eventTicketObjects: [object] },
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(key.clientEmail)
    .setAudience('google')
    .setIssuedAt(Math.floor(opts.now.getTime() / 1000))
    .sign(await importPKCS8(key.privateKeyPem, 'RS256'));
  return `https://pay.google.com/gp/v/save/${jwt}`;
}
