import { formatAud } from '@kringle/contracts/money';
import { formatVoucherCode } from '@kringle/contracts/vouchers';
import type { MailAttachment } from '../../db/schema/mail';
import { mailLogoUrl, renderEmail } from '../mail/mail-layout';
import type { OutgoingMail } from '../mail/outbox.repository';
import { dateIn } from '../orders/receipts.pdf';

interface GiftMail {
  to: string;
  brandName: string;
  appUrl: string;
  recipientName: string;
  fromName: string;
  message: string | null;
  amountCents: number;
  code: string;
  expiresAt: Date;
  timezone: string;
  certificate: Buffer;
}

/** The recipient's e-mail (or the buyer's, to pass on): the code, how to use it, the certificate to print. */
export function giftVoucherMail(m: GiftMail): OutgoingMail {
  const attachment: MailAttachment = {
    filename: 'santa-gift-voucher.pdf',
    contentType: 'application/pdf',
    content: m.certificate.toString('base64'),
  };
  return {
    to: m.to,
    subject: `${m.fromName} gave you a visit to Santa`,
    attachments: [attachment],
    ...renderEmail({
      brandName: m.brandName,
      logoUrl: mailLogoUrl(m.appUrl),
      title: `A ${formatAud(m.amountCents)} gift voucher for ${m.recipientName}`,
      intro: [
        `${m.fromName} has given ${m.recipientName} a visit to Santa with ${m.brandName}.`,
        ...(m.message ? [`“${m.message}”`] : []),
        'Add the voucher to your account, then book a session: it pays before your card, over as many bookings ' +
          'as you like.',
      ],
      details: [
        { label: 'Voucher code', value: formatVoucherCode(m.code) },
        { label: 'Value', value: formatAud(m.amountCents) },
        { label: 'Valid until', value: dateIn(m.expiresAt, m.timezone) },
      ],
      action: { label: 'Add it to my account', url: `${m.appUrl}/gift/redeem#${formatVoucherCode(m.code)}` },
      outro: ['The printable certificate is attached. There are no fees, and the voucher lasts three years.'],
    }),
  };
}

/** The buyer's confirmation, with the receipt's place (behind the sign-in, as a booking's is). */
export function voucherBoughtMail(m: {
  to: string;
  brandName: string;
  appUrl: string;
  recipientName: string;
  amountCents: number;
  sendOn: string;
  recipientEmail: string | null;
}): OutgoingMail {
  const goesTo = m.recipientEmail
    ? `We will e-mail it to ${m.recipientName} at ${m.recipientEmail} on ${m.sendOn}.`
    : `We will e-mail it to you on ${m.sendOn}, with a certificate to print and give.`;
  return {
    to: m.to,
    subject: `Your gift voucher for ${m.recipientName}`,
    ...renderEmail({
      brandName: m.brandName,
      logoUrl: mailLogoUrl(m.appUrl),
      title: 'Thank you for your gift',
      intro: [`Your ${formatAud(m.amountCents)} gift voucher for ${m.recipientName} is paid.`, goesTo],
      action: { label: 'See my gift vouchers', url: `${m.appUrl}/gift` },
      outro: ['Its receipt and certificate are under "Gift vouchers you gave" on that page.'],
    }),
  };
}
