import { createHmac } from 'node:crypto';
import { PKPass } from 'passkit-generator';
import { PNG } from 'pngjs';
import type { BookingDetails } from '../booking-lifecycle/booking-rows.repository';
import type { PassCertificates } from './pass-certificates';

/** A plain square in the brand's red: Wallet requires an icon; a brand sets its own art later. */
function squarePng(side: number): Buffer {
  const png = new PNG({ width: side, height: side });
  for (let i = 0; i < side * side; i++) png.data.set([0xb3, 0x1b, 0x1b, 0xff], i * 4);
  return PNG.sync.write(png);
}
const ICONS = { 'icon.png': squarePng(29), 'icon@2x.png': squarePng(58), 'icon@3x.png': squarePng(87) };

/**
 * The pass's authenticationToken: an HMAC of the booking id under the signing key, so nothing is
 * stored per pass and a serial number alone never opens the web service (at least 16 characters).
 */
export function passAuthToken(key: string, bookingId: string): string {
  return createHmac('sha256', key).update(`kringle-wallet:v1:${bookingId}`).digest('base64url');
}

const when = (d: Date, timeZone: string, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('en-AU', { timeZone, ...options }).format(d);

export interface PassContext {
  certificates: PassCertificates;
  brandName: string;
  /** `{PUBLIC_URL}/api/v1/wallet/apple` */
  webServiceUrl: string;
  authToken: string;
  /** The pass's version: the booking's updated_at. */
  updatedAt: Date;
}

/**
 * The signed `.pkpass` of a booking (decision 0099): an event ticket with the check-in code as
 * its QR barcode, the session's time in the location's zone, the place and the children's first
 * names. passkit-generator builds pass.json, manifest.json and the detached PKCS#7 signature.
 * A cancelled booking's pass is voided (Wallet greys it out); its code no longer checks in anyway.
 */
export function buildApplePass(d: BookingDetails, ctx: PassContext): Buffer {
  const tz = d.timezone;
  const children = d.booking.details?.children.map((c) => c.firstName).join(', ') ?? '';
  const passJson = {
    formatVersion: 1,
    passTypeIdentifier: ctx.certificates.passTypeId,
    teamIdentifier: ctx.certificates.teamId,
    serialNumber: d.booking.id,
    organizationName: ctx.brandName,
    description: `${ctx.brandName}: photos with Santa at ${d.locationName}`,
    logoText: ctx.brandName,
    foregroundColor: 'rgb(255, 255, 255)',
    backgroundColor: 'rgb(179, 27, 27)',
    labelColor: 'rgb(255, 230, 230)',
    webServiceURL: ctx.webServiceUrl,
    authenticationToken: ctx.authToken,
    voided: d.booking.status === 'cancelled',
    eventTicket: {
      headerFields: [{ key: 'reference', label: 'BOOKING', value: d.booking.reference }],
      primaryFields: [{ key: 'event', label: d.slotTypeName.toUpperCase(), value: d.locationName }],
      secondaryFields: [
        {
          key: 'date',
          label: 'DATE',
          value: when(d.startAt, tz, { weekday: 'short', day: 'numeric', month: 'short' }),
        },
        {
          key: 'time',
          label: 'TIME',
          value: when(d.startAt, tz, { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }),
          changeMessage: 'Your session is now at %@',
        },
      ],
      auxiliaryFields: children ? [{ key: 'children', label: 'FOR', value: children }] : [],
      backFields: [
        { key: 'address', label: 'Where', value: [d.address, d.suburb, d.state].filter(Boolean).join(', ') },
        { key: 'code', label: 'Check-in code', value: d.checkInCode },
        {
          key: 'updated',
          label: 'Updated',
          value: when(ctx.updatedAt, tz, { dateStyle: 'medium', timeStyle: 'short' }),
        },
      ],
    },
  };
  const pass = new PKPass(
    { ...ICONS, 'pass.json': Buffer.from(JSON.stringify(passJson)) },
    {
      wwdr: ctx.certificates.wwdr,
      signerCert: ctx.certificates.signerCert,
      signerKey: ctx.certificates.signerKey,
      signerKeyPassphrase: ctx.certificates.signerKeyPassphrase,
    },
  );
  pass.setBarcodes({
    format: 'PKBarcodeFormatQR',
    message: d.checkInCode,
    messageEncoding: 'iso-8859-1',
    altText: d.booking.reference,
  });
  pass.setRelevantDate(d.startAt);
  pass.setExpirationDate(new Date(d.endAt.getTime() + 24 * 3600_000));
  return pass.getAsBuffer();
}
