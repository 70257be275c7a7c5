import { importPKCS8, SignJWT } from 'jose';
import type { BookingDetails } from '../booking-lifecycle/booking-rows.repository';
import type { GoogleWalletKey } from './wallet-keys';

/**
 * "Save to Google Wallet": a link carrying an RS256 JWT signed by the issuer's service account,
 * with the event ticket object inside (Google's "skinny" JWT needs a class made once through the
 * API; the object here names it and carries the same QR code as the Apple pass and the e-mail).
 */
export async function googleSaveUrl(
  d: BookingDetails,
  key: GoogleWalletKey,
  opts: { brandName: string; origin: string; now: Date },
): Promise<string> {
  const id = `${key.issuerId}.${d.booking.id.replace(/-/g, '')}`;
  const object = {
    id,
    classId: `${key.issuerId}.santa-photos`,
    state: d.booking.status === 'completed' ? 'ACTIVE' : 'INACTIVE',
    ticketNumber: d.booking.reference,
    ticketHolderName: d.firstName || undefined,
    barcode: { type: 'QR_CODE', value: d.checkInCode, alternateText: d.booking.reference },
    validTimeInterval: { start: { date: d.startAt.toISOString() }, end: { date: d.endAt.toISOString() } },
    textModulesData: [
      { id: 'place', header: d.locationName, body: [d.address, d.suburb, d.state].filter(Boolean).join(', ') },
    ],
  };
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
