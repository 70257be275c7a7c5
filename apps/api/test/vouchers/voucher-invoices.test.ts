import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../helpers/pdf-text';
import { createPerson } from '../staff/staff-fixtures';
import { voucherDay, type VoucherDay } from './voucher-fixtures';

/** A dollar figure after `label` in a PDF's text, in cents. */
const amount = (text: string, label: string) => {
  const m = new RegExp(`${label}\\s*\\$([\\d,]+\\.\\d\\d)`).exec(text);
  if (!m) throw new Error(`no "${label}" in ${text}`);
  return Math.round(Number(m[1]!.replaceAll(',', '')) * 100);
};

/**
 * Issue 52's "money that adds up": bookings paid wholly and partly by gift vouchers, summed from
 * their tax invoices as a bookkeeper would, agree with the sales report to the cent (GST on the full
 * price: the voucher's sale was not a taxable supply), and the voucher liability report's redeemed
 * figure is what the invoices say the vouchers paid.
 */
describe('gift vouchers in the tax invoices and the reports', () => {
  let d: VoucherDay;
  beforeAll(async () => {
    d = await voucherDay();
  });
  afterAll(async () => d?.close());

  it('the invoices of voucher-paid bookings sum to the sales report and the liability report', async () => {
    const who = await d.family('Bookkeeper');
    const v = await d.bought(who, Math.ceil((d.price + 1000) / 500) * 500);
    // One booking the voucher pays in full, then one it pays in part (the card the rest).
    const whole = await d.cart(who, { vouchers: [v.code] });
    const first = await d.checkout(who, whole.holdId, whole.res.json().id);
    expect(first.json().client_secret).toBeNull();
    const part = await d.cart(who, { vouchers: [v.code] });
    const second = await d.checkoutAndPay(who, part.holdId, part.res.json().id);

    const manager = await createPerson(
      d.w.t.db,
      true,
      { firstName: 'Mo', lastName: 'Ledger' },
      { role: 'manager', mfaEnrolled: true },
    );
    let total = 0;
    let gst = 0;
    let byVoucher = 0;
    for (const b of [first.json(), second.json()]) {
      const res = await d.w.call('GET', `/orders/${b.bookingId}/orders/${b.orderId}/payment-receipt`, who);
      expect(res.statusCode).toBe(200);
      const text = await pdfText(res.rawPayload);
      total += amount(text, 'Total \\(AUD\\)');
      gst += amount(text, 'GST included');
      byVoucher += amount(text, 'Gift voucher used');
    }
    expect(byVoucher).toBe(v.amountCents);
    expect(total).toBe(2 * d.price);

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(d.w.clock.now());
    const sales = await d.w.call('GET', `/staff/reports/sales?from=${today}&to=${today}&groupBy=day`, manager);
    expect(sales.statusCode, sales.body).toBe(200);
    // Only this file's two bookings were paid today in this database.
    const paid = await d.w.t.db.execute(sql`select count(*)::int as n from orders where paid_at is not null`);
    expect(paid.rows[0]!.n).toBe(2);
    expect(sales.json().totals).toMatchObject({ grossCents: total, gstCents: gst });
    const liability = await d.w.call('GET', `/staff/reports/vouchers?from=${today}&to=${today}`, manager);
    expect(liability.json().totals).toMatchObject({
      soldCents: v.amountCents,
      redeemedCents: byVoucher,
      outstandingCents: 0,
    });
  });
});
