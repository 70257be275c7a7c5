import { BRAND_COLOURS } from '@kringle/contracts/brand-colours';
import { formatAud } from '@kringle/contracts/money';
import { formatVoucherCode } from '@kringle/contracts/vouchers';
import PDFDocument from 'pdfkit';
import { checkInQrPng } from '../check-in/check-in-qr';
import { dateIn, facts, footer, header, toBuffer } from '../orders/receipts.pdf';
import { writeText } from '../orders/receipt-fonts';

const { red: RED, ink: INK, muted: MUTED, cream: CREAM, goldDeep: GOLD, pine: PINE } = BRAND_COLOURS;

export interface CertificateData {
  brandName: string;
  recipientName: string;
  /** The buyer's first name, as the card signs it. */
  fromName: string;
  message: string | null;
  amountCents: number;
  /** Unformatted, 12 letters. */
  code: string;
  expiresAt: Date;
  /** Where the QR leads: the app's page that adds the voucher to an account (the code in the fragment). */
  redeemUrl: string;
  timezone: string;
}

/**
 * The printable gift certificate (A4 landscape): the brand's cream card with a gold border, who it
 * is for, the value, the message, the code in large letters and its QR, and the expiry.
 */
export function certificatePdf(d: CertificateData): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 40,
    info: { Title: `${d.brandName} gift voucher`, Author: d.brandName },
  });
  const { width, height } = doc.page;
  doc.rect(0, 0, width, height).fill(CREAM);
  doc
    .rect(24, 24, width - 48, height - 48)
    .lineWidth(3)
    .strokeColor(GOLD)
    .stroke();
  doc
    .rect(32, 32, width - 64, height - 64)
    .lineWidth(0.8)
    .strokeColor(GOLD)
    .stroke();

  writeText(doc.fillColor(RED).fontSize(16), d.brandName, 'bold', 60, 60);
  writeText(doc.fillColor(PINE).fontSize(34), 'A visit to Santa', 'bold', 60, 100, { width: 480 });
  writeText(doc.fillColor(INK).fontSize(16), `For ${d.recipientName}`, 'regular', 60, 152, { width: 480 });
  writeText(doc.fillColor(MUTED).fontSize(12), `With love from ${d.fromName}`, 'regular', 60, 178, { width: 480 });
  if (d.message) writeText(doc.fillColor(INK).fontSize(13), `“${d.message}”`, 'regular', 60, 212, { width: 470 });

  writeText(doc.fillColor(RED).fontSize(40), formatAud(d.amountCents), 'bold', 60, 330, { width: 480 });
  writeText(doc.fillColor(MUTED).fontSize(10), 'Gift voucher code', 'regular', 60, 390);
  writeText(doc.fillColor(INK).fontSize(26), formatVoucherCode(d.code), 'bold', 60, 404);
  writeText(
    doc.fillColor(MUTED).fontSize(10),
    `Valid until ${dateIn(d.expiresAt, d.timezone)}. No fees. Spend it over as many bookings as you like: ` +
      `add it in My Bookings, or type the code when you book.`,
    'regular',
    60,
    448,
    { width: 470 },
  );

  const qrSize = 190;
  doc.image(checkInQrPng(d.redeemUrl), width - 60 - qrSize, 150, { width: qrSize, height: qrSize });
  writeText(doc.fillColor(MUTED).fontSize(9), 'Scan to add it to your account', 'regular', width - 60 - qrSize, 350, {
    width: qrSize,
    align: 'center',
  });
  return toBuffer(doc);
}

export interface VoucherReceiptData {
  brandName: string;
  abn: string;
  receiptNumber: string;
  buyerName: string;
  buyerEmail: string;
  recipientName: string;
  amountCents: number;
  paidAt: Date;
  expiresAt: Date;
  maskedCode: string;
  timezone: string;
}

/**
 * The receipt of a voucher's sale: a receipt, not a tax invoice. A voucher is not a taxable supply
 * when sold (GST is on the booking it pays for, whose tax invoice shows it), so there is no GST line.
 */
export function voucherReceiptPdf(d: VoucherReceiptData): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `Receipt ${d.receiptNumber}`, Author: d.brandName },
  });
  header(doc, d, 'Receipt');
  facts(doc, [
    ['Receipt number', d.receiptNumber],
    ['Date', dateIn(d.paidAt, d.timezone)],
    ['Bought by', `${d.buyerName}, ${d.buyerEmail}`],
    ['Item', `Gift voucher for ${d.recipientName} (${d.maskedCode})`],
    ['Valid until', dateIn(d.expiresAt, d.timezone)],
    ['Amount paid', formatAud(d.amountCents)],
    ['Paid by', 'Card'],
  ]);
  footer(
    doc,
    'This is a receipt, not a tax invoice. A gift voucher is not a taxable supply when it is sold: GST is charged ' +
      'on the booking it pays for, and that booking’s tax invoice shows it.',
  );
  return toBuffer(doc);
}
