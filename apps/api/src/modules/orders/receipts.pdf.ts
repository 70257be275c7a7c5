import { BRAND_COLOURS } from '@kringle/contracts/brand-colours';
import { formatSessionTime } from '@kringle/contracts/dates';
import { formatAbn } from '@kringle/contracts/abn';
import { formatAud, gstOf } from '@kringle/contracts/money';
import { donationLabel } from '@kringle/contracts/donations';
import PDFDocument from 'pdfkit';
import type { LineItem } from '../../db/schema/bookings';
import { writeText } from './receipt-fonts';

export interface ReceiptData {
  brandName: string;
  abn: string;
  invoiceNumber: string;
  bookingReference: string;
  customerName: string;
  customerEmail: string;
  sessionName: string;
  sessionStart: Date;
  locationName: string;
  locationAddress: string;
  timezone: string;
  items: LineItem[];
  amountCents: number;
  paidAt: Date;
  paidBy: 'card' | 'store' | 'credit' | 'voucher' | 'nothing';
  /** The part account credit paid (decision 0111); the card paid the rest. */
  creditCents: number;
  /** The part gift vouchers paid (decision 0112), before the credit. */
  voucherCents: number;
  /** A promo code's cents off the goods: `amountCents` is what was paid, after it (decision 0106). */
  discount: { code: string; cents: number } | null;
  /** A booking for a business or school: the buyer's name and ABN (11 digits). */
  business: { name: string; abn: string } | null;
  /** A donation paid with it (decision 0109): part of `amountCents`, outside GST. */
  donation: { to: string; cents: number } | null;
}

export interface RefundLine {
  at: Date;
  amountCents: number;
  /** 'credit': taken as account credit (decision 0111); 'voucher': back on the gift vouchers that paid (0112). */
  method: 'card' | 'credit' | 'voucher';
}

const { red: RED, ink: INK, muted: MUTED } = BRAND_COLOURS;

export const dateIn = (d: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-AU', { timeZone, day: 'numeric', month: 'long', year: 'numeric' }).format(d);

export function toBuffer(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

export function header(doc: PDFKit.PDFDocument, data: Pick<ReceiptData, 'brandName' | 'abn'>, title: string) {
  writeText(doc.fillColor(RED).fontSize(22), data.brandName, 'bold', 50, 50);
  writeText(doc.fillColor(MUTED).fontSize(10), `ABN ${data.abn}`, 'regular', 50, 78);
  writeText(doc.fillColor(INK).fontSize(18), title, 'bold', 50, 50, { align: 'right' });
  doc.moveTo(50, 105).lineTo(545, 105).strokeColor(BRAND_COLOURS.goldDeep).lineWidth(1.5).stroke();
  doc.y = 120;
}

export function facts(doc: PDFKit.PDFDocument, rows: [string, string][]) {
  doc.fontSize(10);
  for (const [label, value] of rows) {
    const y = doc.y;
    writeText(doc.fillColor(MUTED), label, 'regular', 50, y, { width: 140 });
    writeText(doc.fillColor(INK), value, 'regular', 190, y, { width: 355 });
    doc.moveDown(0.4);
  }
  doc.moveDown(1);
}

function itemsTable(doc: PDFKit.PDFDocument, items: LineItem[]) {
  const cols = { desc: 50, qty: 330, unit: 390, total: 470 };
  const row = (cells: [string, string, string, string], bold = false) => {
    const y = doc.y;
    const weight = bold ? 'bold' : 'regular';
    doc.fillColor(INK).fontSize(10);
    writeText(doc, cells[0], weight, cols.desc, y, { width: 270 });
    const below = doc.y;
    writeText(doc, cells[1], weight, cols.qty, y, { width: 50, align: 'right' });
    writeText(doc, cells[2], weight, cols.unit, y, { width: 70, align: 'right' });
    writeText(doc, cells[3], weight, cols.total, y, { width: 75, align: 'right' });
    // A long name wraps: the next row starts below it, not below the one-line amounts.
    doc.y = Math.max(doc.y, below);
    doc.moveDown(0.5);
  };
  row(['Description', 'Qty', 'Unit price', 'Amount'], true);
  doc.moveTo(50, doc.y).lineTo(545, doc.y).strokeColor('#ddd').lineWidth(0.5).stroke();
  doc.moveDown(0.4);
  for (const i of items) row([i.name, String(i.quantity), formatAud(i.unitPriceCents), formatAud(i.totalCents)]);
  doc.moveTo(50, doc.y).lineTo(545, doc.y).strokeColor('#ddd').lineWidth(0.5).stroke();
  doc.moveDown(0.6);
}

function totals(doc: PDFKit.PDFDocument, rows: [string, string, boolean?][]) {
  for (const [label, value, bold] of rows) {
    const y = doc.y;
    doc.fontSize(bold ? 12 : 10).fillColor(INK);
    // Right-aligned against the amounts from the left margin: a charity's long name stays on one line.
    writeText(doc, label, bold ? 'bold' : 'regular', 50, y, { width: 380, align: 'right' });
    writeText(doc, value, bold ? 'bold' : 'regular', 440, y, { width: 105, align: 'right' });
    doc.moveDown(0.4);
  }
}

const PAID_BY: Record<ReceiptData['paidBy'], string> = {
  card: 'Paid by card',
  store: 'Paid in store',
  credit: 'Paid with account credit',
  voucher: 'Paid with a gift voucher',
  nothing: 'Nothing to pay, confirmed',
};

/** What was paid for the goods: the total less a donation, the only part with GST in it. */
export const goodsPaidCents = (d: Pick<ReceiptData, 'amountCents' | 'donation'>) =>
  d.amountCents - (d.donation?.cents ?? 0);

/** The goods at full price, then the code's cents off, then the donation: the total is what was paid. */
const discountRows = (d: ReceiptData): [string, string][] => [
  ...(d.discount
    ? ([
        ['Subtotal', formatAud(goodsPaidCents(d) + d.discount.cents)],
        [`Promo code ${d.discount.code}`, `-${formatAud(d.discount.cents)}`],
      ] as [string, string][])
    : []),
  ...(d.donation ? ([[donationLabel(d.donation.to), formatAud(d.donation.cents)]] as [string, string][]) : []),
];

/** A refund takes the goods first: past them, the rest is the donation's (decision 0109). */
const refundedGoodsCents = (d: ReceiptData, refunded: number) => Math.min(refunded, goodsPaidCents(d));

export function footer(doc: PDFKit.PDFDocument, text: string) {
  doc.moveDown(2).fontSize(9).fillColor(MUTED);
  writeText(doc, text, 'regular', 50, doc.y, { width: 495 });
}

const sessionFacts = (d: ReceiptData): [string, string][] => [
  ['Booking reference', d.bookingReference],
  ...(d.business ? ([['Buyer', `${d.business.name}, ABN ${formatAbn(d.business.abn)}`]] as [string, string][]) : []),
  [d.business ? 'Booked by' : 'Billed to', [d.customerName, d.customerEmail].filter(Boolean).join(', ')],
  ['Session', `${d.sessionName}, ${formatSessionTime(d.sessionStart, d.timezone)}`],
  ['Location', `${d.locationName}, ${d.locationAddress}`],
];

/**
 * An Australian tax invoice with the ATO's seven elements (issue 51): the words "Tax invoice", the
 * seller's identity and ABN, the date of issue, each item with its quantity and price, the GST,
 * and the extent each sale is taxable; and the buyer (its name, or the business and its ABN) which
 * the ATO asks for from $1,000 including GST and we print on every invoice. Checked, element by
 * element, by reading the PDF back (apps/api/test/orders/tax-invoice.test.ts).
 */
export function paymentReceiptPdf(d: ReceiptData): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `Tax invoice ${d.invoiceNumber}`, Author: d.brandName },
  });
  header(doc, d, 'Tax invoice');
  facts(doc, [
    ['Invoice number', d.invoiceNumber],
    ['Date of issue', dateIn(d.paidAt, d.timezone)],
    ...sessionFacts(d),
  ]);
  itemsTable(doc, d.items);
  totals(doc, [
    ...discountRows(d),
    ['Total (AUD)', formatAud(d.amountCents), true],
    ['GST included', formatAud(gstOf(goodsPaidCents(d)))],
    ...(d.voucherCents > 0 ? ([['Gift voucher used', formatAud(d.voucherCents)]] as [string, string][]) : []),
    ...(d.creditCents > 0 ? ([['Account credit used', formatAud(d.creditCents)]] as [string, string][]) : []),
    ...(d.creditCents + d.voucherCents > 0 && d.paidBy === 'card'
      ? ([['Card payment', formatAud(d.amountCents - d.creditCents - d.voucherCents)]] as [string, string][])
      : []),
    [PAID_BY[d.paidBy], dateIn(d.paidAt, d.timezone)],
  ]);
  const extent = d.donation
    ? `Every item in the table is a taxable sale: its price includes GST (one eleventh). The donation to ` +
      `${d.donation.to} is not a sale and has no GST. `
    : `Every item on this invoice is a taxable sale: its price includes GST (one eleventh). `;
  footer(doc, `${extent}Thank you for booking photos with Santa with ${d.brandName}.`);
  return toBuffer(doc);
}

const REFUNDED_AS: Record<RefundLine['method'], string> = {
  card: '',
  credit: 'as account credit ',
  voucher: 'to gift voucher ',
};

/** A refund receipt that points back at the original tax invoice. */
export function refundReceiptPdf(d: ReceiptData, refunds: RefundLine[]): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `Refund receipt ${d.invoiceNumber}`, Author: d.brandName },
  });
  const refunded = refunds.reduce((n, r) => n + r.amountCents, 0);
  header(doc, d, 'Refund receipt');
  facts(doc, [
    ['Original tax invoice', d.invoiceNumber],
    ['Date of issue', dateIn(refunds.at(-1)?.at ?? d.paidAt, d.timezone)],
    ...sessionFacts(d),
  ]);
  itemsTable(doc, d.items);
  totals(doc, [
    ...discountRows(d),
    ['Original total (AUD)', formatAud(d.amountCents)],
    ...refunds.map((r): [string, string] => [
      `Refunded ${REFUNDED_AS[r.method]}${dateIn(r.at, d.timezone)}`,
      `-${formatAud(r.amountCents)}`,
    ]),
    ['Total refunded (AUD)', formatAud(refunded), true],
    ...(d.donation && refunded > goodsPaidCents(d)
      ? ([[`Of which the donation (no GST)`, formatAud(refunded - goodsPaidCents(d))]] as [string, string][])
      : []),
    ['GST refunded', formatAud(gstOf(refundedGoodsCents(d, refunded)))],
  ]);
  const toCard = refunds.some((r) => r.method === 'card');
  const toCredit = refunds.some((r) => r.method === 'credit');
  const toVoucher = refunds.some((r) => r.method === 'voucher');
  footer(
    doc,
    [
      toCard ? 'Refunds go back to the card that paid. They can take 5 to 10 business days to appear.' : '',
      toCredit ? 'Account credit pays for a later booking and lasts three years.' : '',
      toVoucher ? 'What gift vouchers paid is back on them, to spend until they expire.' : '',
    ]
      .filter(Boolean)
      .join(' '),
  );
  return toBuffer(doc);
}
