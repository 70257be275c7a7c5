import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOns, packages } from '../../src/db/schema/catalogue';
import { runPrivacyPurges } from '../../src/jobs/privacy-purges.job';
import { taxInvoiceOf } from '../../src/modules/staff/staff-receipt.service';
import { STRONG_PASSWORD } from '../helpers/accounts';
import { CARDS, payWithCard } from '../helpers/payments';
import { privacyWorld, type Family, type PrivacyWorld } from '../privacy/privacy-world';

const DAY = 86_400_000;
const SELLER_ABN = '51 824 753 556';
const SCHOOL = { name: 'Bondi Public School', abn: '53 004 085 616' };

/** The text of a PDF as poppler's pdftotext reads it (what a person, or the ATO, reads). */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kringle-invoice-'));
  try {
    const file = path.join(dir, 'invoice.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The ATO's seven elements of a tax invoice (GST Act s 29-70, the ATO's "Tax invoices" page). */
function expectSevenElements(text: string, items: { name: string; quantity: number; totalCents: number }[]) {
  const aud = (cents: number) => `$${(cents / 100).toLocaleString('en-AU', { minimumFractionDigits: 2 })}`;
  const total = items.reduce((n, i) => n + i.totalCents, 0);
  expect(text, '1. intended to be a tax invoice').toMatch(/Tax invoice/);
  expect(text, "2. the seller's identity").toContain('Kringle');
  expect(text, "3. the seller's ABN").toContain(`ABN ${SELLER_ABN}`);
  expect(text, '4. the date of issue').toMatch(/Date of issue\s+\d{1,2} [A-Z][a-z]+ 20\d\d/);
  for (const i of items)
    expect(text, `5. ${i.name}: description, quantity and price`).toMatch(
      new RegExp(
        `${i.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+${i.quantity}\\s+\\$[\\d,.]+\\s+\\${aud(i.totalCents)}`,
      ),
    );
  expect(text, '6. the GST').toMatch(new RegExp(`GST included\\s+\\${aud(Math.round(total / 11))}`));
  expect(text, '7. the extent each sale is taxable').toContain('Every item on this invoice is a taxable sale');
  expect(text).toMatch(new RegExp(`Total \\(AUD\\)\\s+\\${aud(total)}`));
}

describe('tax invoices (ATO)', () => {
  let w: PrivacyWorld;
  beforeAll(async () => {
    w = await privacyWorld({ SELLER_ABN });
  });
  afterAll(async () => w?.close());

  const ids = async () => {
    const [deluxe] = await w.t.db.select().from(packages).where(eq(packages.slug, 'deluxe-sleigh'));
    const extras = await w.t.db.select().from(addOns);
    return { deluxe: deluxe!, extras: [...new Map(extras.map((a) => [a.slug, a])).values()] };
  };

  /** Hold, cart and checkout (with `business`), then the card. */
  async function book(who: Family, cart: object, business?: object) {
    const hold = (await w.call('POST', '/bookings/reservation', who, { slotId: w.sessions.shift()! })).json();
    const made = await w.call('POST', '/cart', who, { reservationId: hold.id, ...cart });
    expect(made.statusCode).toBe(201);
    const body = { cartId: made.json().id, ...(business ? { business } : {}) };
    const checkout = await w.call('POST', `/bookings/reservation/${hold.id}/checkoutOrder`, who, body);
    return { hold, cartId: made.json().id as string, checkout };
  }

  async function invoiceOf(who: Family, bookingId: string) {
    const [order] = (await w.call('GET', `/orders/${bookingId}/orders`, who)).json().items;
    const res = await w.call('GET', `/orders/${bookingId}/orders/${order.id}/payment-receipt`, who);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    return { order, text: pdfText(res.rawPayload) };
  }

  it('every tax invoice has the seven elements and names the buyer', async () => {
    const who = await w.family({ firstName: 'Matilda', lastName: 'Wormwood' });
    const booked = await w.book(who);
    const { order, text } = await invoiceOf(who, booked.id);
    expectSevenElements(text, order.items);
    expect(text).toMatch(/Billed to\s+Matilda Wormwood/);
  });

  it(
    'from $1,000 the invoice of a booking for a school shows its name and ABN; a bad ABN is refused and makes ' +
      'nothing',
    async () => {
      const who = await w.family({ firstName: 'Miss', lastName: 'Honey' });
      const { deluxe, extras } = await ids();
      const addOnCents = extras.reduce((n, a) => n + a.priceCents * 10, 0);
      const cart = {
        amount: deluxe.priceCents * 3 + addOnCents,
        packages: [{ id: deluxe.id, quantity: 3 }],
        addOns: extras.map((a) => ({ id: a.id, quantity: 10 })),
      };
      expect(cart.amount).toBeGreaterThanOrEqual(100_000);

      const bad = await book(who, cart, { name: SCHOOL.name, abn: '53 004 085 617' });
      expect(bad.checkout.statusCode).toBe(400);
      expect(bad.checkout.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [{ path: 'body.business.abn', message: 'That ABN is not valid: check its digits.' }],
      });
      const orders = await w.t.db.execute(sql`select 1 from orders where cart_id = ${bad.cartId}::uuid`);
      expect(orders.rows).toHaveLength(0);

      const checkout = await w.call('POST', `/bookings/reservation/${bad.hold.id}/checkoutOrder`, who, {
        cartId: bad.cartId,
        business: SCHOOL,
      });
      expect(checkout.statusCode).toBe(201);
      await payWithCard(w.sandbox, checkout.json().client_secret, CARDS.success);
      await w.sandbox.webhooksIdle();
      const { order, text } = await invoiceOf(who, checkout.json().bookingId);
      expect(order.amountCents).toBe(cart.amount);
      expectSevenElements(text, order.items);
      expect(text).toMatch(/Buyer\s+Bondi Public School, ABN 53 004 085 616/);
      expect(text).toMatch(/Booked by\s+Miss Honey/);
    },
  );

  it('a tax invoice can be had on request for five years, after the account is deleted too', async () => {
    const who = await w.family({ firstName: 'Agatha', lastName: 'Trunchbull' });
    const { deluxe } = await ids();
    const { checkout } = await book(who, { amount: deluxe.priceCents, packages: [{ id: deluxe.id }] }, SCHOOL);
    await payWithCard(w.sandbox, checkout.json().client_secret, CARDS.success);
    await w.sandbox.webhooksIdle();
    const bookingId = checkout.json().bookingId as string;
    await w.call('POST', `/bookings/${bookingId}/cancel`, who, {});
    expect(
      (await w.call('DELETE', '/user', who, { password: STRONG_PASSWORD, confirmEmail: who.email })).statusCode,
    ).toBe(202);
    const anonymous = { firstName: '', lastName: '', email: null };
    const now = w.clock.now();
    try {
      // Asked of the support desk (GET /staff/bookings/{id}/receipt) a day short of five years on.
      w.clock.set(new Date(now.getTime() + 5 * 365 * DAY - DAY));
      await runPrivacyPurges(w.t.app);
      const invoice = await taxInvoiceOf(w.t.app, w.t.db, bookingId, anonymous);
      const text = pdfText(invoice!.pdf);
      expectSevenElements(text, [{ name: deluxe.name, quantity: 1, totalCents: deluxe.priceCents }]);
      expect(text).toContain('Agatha Trunchbull');
      expect(text).toContain('ABN 53 004 085 616');
      // After five years the person's name goes; the business, not a person, stays with the figures.
      w.clock.set(new Date(now.getTime() + 5 * 366 * DAY));
      await runPrivacyPurges(w.t.app);
      const later = pdfText((await taxInvoiceOf(w.t.app, w.t.db, bookingId, anonymous))!.pdf);
      expect(later).not.toContain('Agatha');
      expect(later).toContain('Bondi Public School');
    } finally {
      w.clock.set(now);
    }
  });
});
