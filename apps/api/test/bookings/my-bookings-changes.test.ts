import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { and, desc, eq, sql } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, refunds } from '../../src/db/schema/bookings';
import { packages, slots } from '../../src/db/schema/catalogue';
import { mailOutbox } from '../../src/db/schema/mail';
import { sendDueReminders } from '../../src/modules/bookings/reminders.service';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { createCustomer, reauthenticate, type TestCustomer } from '../helpers/customers';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { createTestApp, type TestApp } from '../helpers/test-app';

const HOUR = 3_600_000;

describe('my bookings: cancel, reschedule, receipts, reminders', () => {
  let t: TestApp;
  let sandbox: StripeSandbox;
  let clock: ManualClock;
  let free: { id: string; location_id: string; start_at: string }[];
  let pkg: { id: string; priceCents: number };

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    clock = new ManualClock(new Date());
    t = await createTestApp({ ...s.env, MAX_UPCOMING_BOOKINGS: '50' }, clock);
    await listenForWebhooks(t.app, sandbox);
    await loadSeason(t.db, demoSeason(clock.now(), { days: 42 }), clock.now());
    const rows = await t.db.execute(sql`
      select s.id, s.location_id, s.start_at from slots s join slot_types st on st.id = s.slot_type_id join locations
      l on l.id = s.location_id
      where s.kind = 'session' and st.slug = 'standard' and l.slug = 'sydney-pitt-street' and s.start_at > now() +
      interval '5 days'
      order by s.start_at limit 60`);
    free = rows.rows as typeof free;
    const [p] = await t.db.select().from(packages).where(eq(packages.slug, 'classic-print'));
    pkg = { id: p!.id, priceCents: p!.priceCents };
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.stop();
  });

  const post = (url: string, who: TestCustomer, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });
  const get = (url: string, who: TestCustomer) => t.app.inject({ url, headers: who.headers });
  const take = () => free.shift()!;

  /** A real paid booking: hold, cart, checkout, card through the sandbox, webhook. */
  async function paidBooking(who: TestCustomer, slotId = take().id) {
    const hold = (await post('/api/v1/bookings/reservation', who, { slotId })).json();
    const cart = (
      await post('/api/v1/cart', who, { reservationId: hold.id, amount: pkg.priceCents, packages: [{ id: pkg.id }] })
    ).json();
    const checkout = (
      await post(`/api/v1/bookings/reservation/${hold.id}/checkoutOrder`, who, { cartId: cart.id })
    ).json();
    await payWithCard(sandbox, checkout.client_secret, CARDS.success);
    await sandbox.webhooksIdle();
    const booking = (await get(`/api/v1/bookings/${checkout.bookingId}`, who)).json();
    expect(booking.status).toBe('completed');
    return { booking, orderId: checkout.orderId as string };
  }
  const pdfText = async (body: Buffer) => (await new PDFParse({ data: body }).getText()).text;

  it('cancels with a full refund more than 48 h ahead, once, even when sent twice at the same moment', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const { booking, orderId } = await paidBooking(who);
    const both = await Promise.all([
      post(`/api/v1/bookings/${booking.id}/cancel`, who, {}),
      t.app.inject({ method: 'POST', url: `/api/v1/bookings/${booking.id}/cancel`, headers: who.headers }),
    ]);
    const a = both.find((r) => r.statusCode === 200)!;
    const b = both.find((r) => r.statusCode !== 200)!;
    expect(b.statusCode).toBe(409);
    expect(b.json().code).toBe('NOT_CANCELLABLE');
    expect(a.json().refund).toMatchObject({ amountCents: pkg.priceCents, status: 'succeeded' });
    expect(a.json().booking.status).toBe('cancelled');
    expect(await t.db.select().from(refunds).where(eq(refunds.bookingId, booking.id))).toHaveLength(1);
    expect(sandbox.events('charge.refunded')).not.toHaveLength(0);
    const [slot] = await t.db.select().from(slots).where(eq(slots.id, booking.slot.id));
    expect(slot!.bookingId).toBeNull();
    const order = (await get(`/api/v1/orders/${booking.id}/orders/${orderId}`, who)).json();
    expect(order).toMatchObject({
      status: 'refunded',
      paymentStatus: 'refunded',
      refundedCents: pkg.priceCents,
      refundPendingCents: 0,
    });
    const [mail] = await t.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, who.email))
      .orderBy(desc(mailOutbox.createdAt));
    expect(mail!.subject).toMatch(/^Cancelled:/);
    expect(mail!.text).toContain('refunding $');
    expect(mail!.text).toMatch(/Get my refund receipt: https?:\/\/[^\s]+\/bookings\?tab=past\n/);
    expect(mail!.text).toContain(`Reference: ${booking.reference}`);

    const invoice = await get(`/api/v1/orders/${booking.id}/orders/${orderId}/payment-receipt`, who);
    expect(invoice.headers['content-type']).toBe('application/pdf');
    const invoiceText = await pdfText(invoice.rawPayload);
    expect(invoiceText).toContain('Tax invoice');
    expect(invoiceText).toContain('ABN 10 000 000 000');
    expect(invoiceText).toContain(booking.reference);
    expect(invoiceText).toContain('$39.95');
    expect(invoiceText).toContain('GST included');
    expect(invoiceText).toContain('$3.63');
    expect(invoiceText).toContain('Paid by card');
    const refundPdf = await get(`/api/v1/orders/${booking.id}/orders/${orderId}/refund-receipt`, who);
    const refundText = await pdfText(refundPdf.rawPayload);
    expect(refundText).toContain('Refund receipt');
    expect(refundText).toContain(`${booking.reference}-${orderId.slice(0, 6).toUpperCase()}`);
    expect(refundText).toContain('-$39.95');
  });

  it('cancels without refund inside 48 h, and refuses once the session has started', async () => {
    let who = await createCustomer(t.db, t.app.idTokens);
    const { booking, orderId } = await paidBooking(who);
    clock.set(new Date(new Date(booking.slot.startAt).getTime() - 47 * HOUR));
    who = await reauthenticate(t.app.idTokens, who);
    const noRefund = await post(`/api/v1/bookings/${booking.id}/cancel`, who, { reason: 'Sick' });
    expect(noRefund.json()).toMatchObject({ booking: { status: 'cancelled', refundableCents: 0 }, refund: null });
    expect((await get(`/api/v1/orders/${booking.id}/orders/${orderId}/refund-receipt`, who)).json().code).toBe(
      'NO_REFUND',
    );
    clock.set(new Date());
    who = await reauthenticate(t.app.idTokens, who);

    const second = await paidBooking(who);
    clock.set(new Date(new Date(second.booking.slot.startAt).getTime() + 60_000));
    who = await reauthenticate(t.app.idTokens, who);
    expect((await post(`/api/v1/bookings/${second.booking.id}/cancel`, who, {})).json().code).toBe('NOT_CANCELLABLE');
    clock.set(new Date());
  });

  it('cancels an unpaid checkout by cancelling its PaymentIntent and freeing the hold', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const slot = take();
    const hold = (await post('/api/v1/bookings/reservation', who, { slotId: slot.id })).json();
    const cart = (
      await post('/api/v1/cart', who, { reservationId: hold.id, amount: pkg.priceCents, packages: [{ id: pkg.id }] })
    ).json();
    const checkout = (
      await post(`/api/v1/bookings/reservation/${hold.id}/checkoutOrder`, who, { cartId: cart.id })
    ).json();
    const res = await post(`/api/v1/bookings/${checkout.bookingId}/cancel`, who, {});
    expect(res.json()).toMatchObject({ booking: { status: 'cancelled' }, refund: null });
    expect(sandbox.paymentIntent(checkout.client_secret.split('_secret_')[0])!.status).toBe('canceled');
    const [row] = await t.db.select().from(slots).where(eq(slots.id, slot.id));
    expect(row).toMatchObject({ holdReservationId: null, bookingId: null });
    expect(
      (await get(`/api/v1/orders/${checkout.bookingId}/orders/${checkout.orderId}/payment-receipt`, who)).json().code,
    ).toBe('NOT_PAID');
  });

  it('reschedules atomically, at most twice, same location only', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const { booking } = await paidBooking(who);
    const move = async (slotId: string) => {
      const hold = await post('/api/v1/bookings/reservation', who, { slotId, bookingId: booking.id });
      if (hold.statusCode !== 201) return hold;
      return post(`/api/v1/bookings/${booking.id}/reschedule`, who, { reservationId: hold.json().id });
    };
    const first = take();
    const moved = await move(first.id);
    expect(moved.json()).toMatchObject({
      slot: { id: first.id },
      rescheduleCount: 1,
      status: 'completed',
      amountCents: booking.amountCents,
    });
    const [old] = await t.db.select().from(slots).where(eq(slots.id, booking.slot.id));
    expect(old!.bookingId).toBeNull();
    const [now] = await t.db.select().from(slots).where(eq(slots.id, first.id));
    expect(now!.bookingId).toBe(booking.id);

    const perth = await t.db.execute(
      sql`select s.id from slots s join locations l on l.id = s.location_id where l.slug = 'perth-murray-street' and
s.kind = 'session' and s.start_at > now() + interval '5 days' limit 1`,
    );
    expect((await move(perth.rows[0]!.id as string)).json().code).toBe('DIFFERENT_LOCATION');
    expect((await move(take().id)).json().rescheduleCount).toBe(2);
    expect((await move(take().id)).json().code).toBe('RESCHEDULE_LIMIT');
    expect(
      (
        await t.db
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.toAddress, who.email), sql`subject like 'Moved:%'`))
      ).length,
    ).toBe(2);
  });

  it('refuses to reschedule inside 24 h or onto a lapsed hold, changing nothing', async () => {
    let who = await createCustomer(t.db, t.app.idTokens);
    const { booking } = await paidBooking(who);
    const target = take();
    const hold = (await post('/api/v1/bookings/reservation', who, { slotId: target.id, bookingId: booking.id })).json();
    clock.advance(11 * 60_000);
    who = await reauthenticate(t.app.idTokens, who);
    expect((await post(`/api/v1/bookings/${booking.id}/reschedule`, who, { reservationId: hold.id })).json().code).toBe(
      'HOLD_EXPIRED',
    );
    clock.set(new Date(new Date(booking.slot.startAt).getTime() - 23 * HOUR));
    who = await reauthenticate(t.app.idTokens, who);
    expect(
      (await post('/api/v1/bookings/reservation', who, { slotId: take().id, bookingId: booking.id })).json().code,
    ).toBe('RESCHEDULE_WINDOW_CLOSED');
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(row).toMatchObject({ slotId: booking.slot.id, rescheduleCount: 0, status: 'completed' });
    clock.set(new Date());
  });

  it('settles a reschedule racing a cancel consistently', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const { booking } = await paidBooking(who);
    const target = take();
    const hold = (await post('/api/v1/bookings/reservation', who, { slotId: target.id, bookingId: booking.id })).json();
    const [moved, cancelled] = await Promise.all([
      post(`/api/v1/bookings/${booking.id}/reschedule`, who, { reservationId: hold.id }),
      post(`/api/v1/bookings/${booking.id}/cancel`, who, {}),
    ]);
    expect(cancelled.statusCode).toBe(200);
    expect([200, 409]).toContain(moved.statusCode);
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(row!.status).toBe('cancelled');
    const stillBooked = await t.db.execute(
      sql`select count(*)::int as n from slots where booking_id = ${booking.id}::uuid`,
    );
    expect(stillBooked.rows[0]!.n).toBe(0);
    expect(await t.db.select().from(refunds).where(eq(refunds.bookingId, booking.id))).toHaveLength(1);
  });

  it("answers 404 for another customer's booking, orders and receipts", async () => {
    const owner = await createCustomer(t.db, t.app.idTokens);
    const { booking, orderId } = await paidBooking(owner);
    const stranger = await createCustomer(t.db, t.app.idTokens);
    for (const url of [
      `/api/v1/orders/${booking.id}/orders`,
      `/api/v1/orders/${booking.id}/orders/${orderId}`,
      `/api/v1/orders/${booking.id}/orders/${orderId}/payment-receipt`,
      `/api/v1/orders/${booking.id}/orders/${orderId}/refund-receipt`,
      `/api/v1/bookings/${booking.id}/calendar.ics`,
    ]) {
      expect((await get(url, stranger)).statusCode).toBe(404);
    }
    expect((await post(`/api/v1/bookings/${booking.id}/cancel`, stranger, {})).statusCode).toBe(404);
    expect(
      (await post('/api/v1/bookings/reservation', stranger, { slotId: take().id, bookingId: booking.id })).statusCode,
    ).toBe(404);
  });

  it("serves the calendar file in the location's zone", async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const { booking } = await paidBooking(who);
    const res = await get(`/api/v1/bookings/${booking.id}/calendar.ics`, who);
    expect(res.headers['content-type']).toContain('text/calendar');
    expect(res.body).toContain('DTSTART;TZID=Australia/Sydney:');
    expect(res.body).toContain('BEGIN:VTIMEZONE');
    expect(res.body).toContain(booking.reference);
    expect(res.body).toContain('STATUS:CONFIRMED');
    expect(res.body).toContain('SUMMARY:Santa photos at Kringle Sydney\\, Pitt Street');
  });

  it('sends the day-before reminder once', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const { booking } = await paidBooking(who);
    clock.set(new Date(new Date(booking.slot.startAt).getTime() - 20 * HOUR));
    await Promise.all([sendDueReminders(t.app), sendDueReminders(t.app)]);
    await sendDueReminders(t.app);
    const reminders = await t.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, who.email), sql`subject like 'Tomorrow:%'`));
    expect(reminders).toHaveLength(1);
    clock.set(new Date());
  });
});
