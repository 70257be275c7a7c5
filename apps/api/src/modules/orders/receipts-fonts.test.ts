import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { paymentReceiptPdf, refundReceiptPdf, type ReceiptData } from './receipts.pdf';

// Read back with poppler's tools (poppler-utils; .ci/run installs it), as an outside checker would.
const dir = mkdtempSync(path.join(tmpdir(), 'kringle-receipts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function poppler(pdf: Buffer): { text: string; fonts: string } {
  const file = path.join(dir, `receipt-${(n += 1)}.pdf`);
  writeFileSync(file, pdf);
  return {
    text: execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }),
    fonts: execFileSync('pdffonts', [file], { encoding: 'utf8' }),
  };
}

const receipt = (customerName: string, customerEmail: string): ReceiptData => ({
  brandName: 'Kringle',
  abn: '51 824 753 556',
  invoiceNumber: 'KR-7Q2M4X-1',
  bookingReference: 'KR-7Q2M4X',
  customerName,
  customerEmail,
  creditCents: 0,
  voucherCents: 0,
  sessionName: 'Santa photos',
  sessionStart: new Date('2026-12-05T23:40:00Z'),
  locationName: 'Kringle Sydney, Pitt Street',
  locationAddress: '188 Pitt Street Mall, Sydney NSW',
  timezone: 'Australia/Sydney',
  items: [
    {
      type: 'package',
      id: '5d0f6c2e-59a4-4c7b-8d47-2f8f0b4f6a11',
      name: 'Classic print',
      quantity: 1,
      unitPriceCents: 2995,
      totalCents: 2995,
    },
  ],
  amountCents: 2995,
  paidAt: new Date('2026-11-20T01:00:00Z'),
  paidBy: 'card',
  discount: null,
  business: null,
  donation: null,
});

/** pdftotext may break a line between a label and its value; compare with whitespace squeezed. */
const squeeze = (s: string) => s.replace(/\s+/g, ' ');

describe('receipts embed fonts for every name a family can register', () => {
  const names: [string, string][] = [
    ['Latin with Vietnamese, Polish and CJK', 'Zoë Łucja Nguyễn 王'],
    ['Greek', 'Ελένη Παπαδοπούλου'],
    ['Cyrillic', 'Анастасия Иванова'],
    ['Japanese and Korean', 'さくら 김민준'],
  ];

  for (const [script, name] of names) {
    it(`reads back "${name}" (${script}) and the e-mail after it`, async () => {
      const { text } = poppler(await paymentReceiptPdf(receipt(name, 'zoe.family@example.com')));
      expect(squeeze(text)).toContain(`${name}, zoe.family@example.com`);
      expect(text).toContain('Tax invoice');
    });
  }

  it('embeds (subsets of) its fonts: nothing relies on a reader having Helvetica', async () => {
    const { fonts } = poppler(await paymentReceiptPdf(receipt('Zoë Łucja Nguyễn 王', 'zoe@example.com')));
    const rows = fonts.split('\n').slice(2).filter(Boolean);
    expect(rows.length).toBeGreaterThanOrEqual(3); // regular, bold and the CJK fallback
    for (const row of rows) {
      // Columns: name, type, encoding, emb, sub, uni, object id.
      expect(row).toMatch(/\byes\s+yes\s+yes\s+\d+\s+\d+\s*$/);
    }
    expect(fonts).toMatch(/NotoSans-Regular/);
    expect(fonts).toMatch(/NotoSansSC/);
    expect(fonts).not.toMatch(/Helvetica/);
  });

  it('does the same on refund receipts', async () => {
    const { text } = poppler(
      await refundReceiptPdf(receipt('Анастасия Иванова', 'anya@example.com'), [
        { at: new Date('2026-11-21T01:00:00Z'), amountCents: 2995, method: 'card' },
      ]),
    );
    expect(squeeze(text)).toContain('Анастасия Иванова, anya@example.com');
    expect(text).toContain('Refund receipt');
  });
});
