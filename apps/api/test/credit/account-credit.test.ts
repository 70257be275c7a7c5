import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/accounts/passwords';
import { STRONG_PASSWORD } from '../helpers/accounts';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { pdfText } from '../helpers/pdf-text';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';

const YEAR = 365 * 86_400_000;

/**
 * Account credit (issue 52, API.md "Gift vouchers, promo codes, credit, donations", decision 0111):
 * a cancellation's refund taken as credit is settled at once, never sent to Stripe, counted on the
 * refund receipt, and listed by GET /user/credit; deleting the account sends what is left to the card.
 */
describe('account credit', () => {
  let w: StaffDay;
  let sandbox: StripeSandbox;
  let price: number;
  let next = 0;

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    w = await staffDay({ ...s.env, LOG_LEVEL: 'error' });
    await listenForWebhooks(w.t.app, sandbox);
    price = Number(
      (await w.t.db.execute(sql`select price_cents from packages where id = ${w.classic}::uuid`)).rows[0]!.price_cents,
    );
  });
  afterAll(async () => {
    await w?.t.close();
    await sandbox?.stop();
  });

  const newFamily = () => createPerson(w.t.db, false, { firstName: 'Carol', lastName: `Credit${next}` });

  /** A paid booking of `family`'s, its webhook handled. */
  async function paidBooking(family: Person) {
    const held = await w.call('POST', '/bookings/reservation', family, { slotId: w.sessions[next++]!.id });
    expect(held.statusCode, held.body).toBe(201);
    const cart = await w.call('POST', '/cart', family, {
      reservationId: held.json().id,
      amount: price,
      packages: [{ id: w.classic }],
    });
    expect(cart.statusCode, cart.body).toBe(201);
    const res = await w.call('POST', `/bookings/reservation/${held.json().id}/checkoutOrder`, family, {
      cartId: cart.json().id,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((await payWithCard(sandbox, res.json().client_secret, CARDS.success)).status).toBe('succeeded');
    await sandbox.webhooksIdle();
    // The webhook may still be on its way under a loaded suite: the refund is only offered once it is paid.
    await expect
      .poll(async () => (await w.call('GET', `/bookings/${res.json().bookingId}`, family)).json().status)
      .toBe('completed');
    return res.json() as { bookingId: string; orderId: string };
  }
  const credit = async (family: Person) => {
    const res = await w.call('GET', '/user/credit', family);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { balanceCents: number; items: { cents: number; reason: string; bookingId: string }[] };
  };
  const refundRows = async (bookingId: string) =>
    (
      await w.t.db.execute(
        sql`select status, method, amount_cents, stripe_refund_id from refunds where booking_id = ${bookingId}::uuid`,
      )
    ).rows;

  it('takes a cancel refund as credit: settled now, no Stripe refund, once however often it is sent', async () => {
    const family = await newFamily();
    expect(await credit(family)).toEqual({ balanceCents: 0, items: [] });
    const { bookingId, orderId } = await paidBooking(family);

    const [first, second] = await Promise.all([
      w.call('POST', `/bookings/${bookingId}/cancel`, family, { refundTo: 'credit' }),
      w.call('POST', `/bookings/${bookingId}/cancel`, family, { refundTo: 'credit' }),
    ]);
    const ok = [first, second].find((r) => r.statusCode === 200)!;
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    expect(ok.json().refund).toMatchObject({ amountCents: price, status: 'succeeded', refundTo: 'credit' });
    expect(ok.json().booking.status).toBe('cancelled');

    const mine = await credit(family);
    expect(mine.balanceCents).toBe(price);
    expect(mine.items).toEqual([expect.objectContaining({ cents: price, reason: 'cancel_refund', bookingId })]);
    const expires = Date.parse((mine.items[0] as unknown as { expiresAt: string }).expiresAt);
    expect(Math.abs(expires - w.clock.now().getTime() - 3 * YEAR)).toBeLessThan(2 * 86_400_000);

    expect(await refundRows(bookingId)).toEqual([
      { status: 'succeeded', method: 'credit', amount_cents: price, stripe_refund_id: null },
    ]);
    const order = await w.call('GET', `/orders/${bookingId}/orders/${orderId}`, family);
    expect(order.json()).toMatchObject({ refundedCents: price });

    const receipt = await w.call('GET', `/orders/${bookingId}/orders/${orderId}/refund-receipt`, family);
    expect(receipt.statusCode, receipt.body).toBe(200);
    const text = (await pdfText(receipt.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain('Refunded as account credit');
    expect(text).toContain('Account credit pays for a later booking');

    const mail = await w.t.db.execute(
      sql`select text as body_text from mail_outbox where to_address = ${family.email} and subject like 'Cancelled:%'`,
    );
    expect(String(mail.rows[0]!.body_text)).toContain('is now account credit');

    const trail = await w.t.db.execute(
      sql`select action from audit_entries where booking_id = ${bookingId}::uuid order by id`,
    );
    expect(trail.rows.map((r) => r.action)).toEqual(expect.arrayContaining(['cancel', 'refundToCredit']));

    // Another family sees none of it.
    expect((await credit(await newFamily())).balanceCents).toBe(0);
  });

  it('refunds to the card by default, and refuses a destination it does not know, changing nothing', async () => {
    const family = await newFamily();
    const { bookingId } = await paidBooking(family);
    await expectContractError(
      await w.call('POST', `/bookings/${bookingId}/cancel`, family, { refundTo: 'cash' }),
      400,
      'VALIDATION_FAILED',
    );
    expect(await refundRows(bookingId)).toEqual([]);
    const res = await w.call('POST', `/bookings/${bookingId}/cancel`, family, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refund).toMatchObject({ refundTo: 'card', status: 'succeeded' });
    expect((await credit(family)).balanceCents).toBe(0);
    expect(await refundRows(bookingId)).toEqual([
      expect.objectContaining({ status: 'succeeded', method: 'card', stripe_refund_id: expect.stringMatching(/^re_/) }),
    ]);
  });

  it('deleting the account sends the credit left back to the card that paid', async () => {
    const family = await newFamily();
    await w.t.db.execute(
      sql`update users set password_hash = ${await hashPassword(STRONG_PASSWORD)} where id = ${family.id}::uuid`,
    );
    const { bookingId } = await paidBooking(family);
    expect((await w.call('POST', `/bookings/${bookingId}/cancel`, family, { refundTo: 'credit' })).statusCode).toBe(
      200,
    );
    const gone = await w.call('DELETE', '/user', family, { password: STRONG_PASSWORD, confirmEmail: family.email });
    expect(gone.statusCode, gone.body).toBe(202);

    expect(await refundRows(bookingId)).toEqual([
      {
        status: 'succeeded',
        method: 'card',
        amount_cents: price,
        stripe_refund_id: expect.stringMatching(/^re_/),
      },
    ]);
    const entries = await w.t.db.execute(
      sql`select cents, reason from credit_entries where user_id = ${family.id}::uuid order by created_at, cents`,
    );
    expect(entries.rows).toEqual(
      expect.arrayContaining([
        { cents: price, reason: 'cancel_refund' },
        { cents: -price, reason: 'refunded_to_card' },
      ]),
    );
    const trail = await w.t.db.execute(
      sql`select action from audit_entries where booking_id = ${bookingId}::uuid and action = 'creditBackToCard'`,
    );
    expect(trail.rows).toHaveLength(1);
  });

  it('deleting the account with part of that credit spent sends only the rest to the card', async () => {
    const family = await newFamily();
    await w.t.db.execute(
      sql`update users set password_hash = ${await hashPassword(STRONG_PASSWORD)} where id = ${family.id}::uuid`,
    );
    const { bookingId, orderId } = await paidBooking(family);
    expect((await w.call('POST', `/bookings/${bookingId}/cancel`, family, { refundTo: 'credit' })).statusCode).toBe(
      200,
    );
    await w.t.db.execute(sql`insert into credit_entries (user_id, cents, reason)
      values (${family.id}::uuid, -1000, 'spent')`);
    const gone = await w.call('DELETE', '/user', family, { password: STRONG_PASSWORD, confirmEmail: family.email });
    expect(gone.statusCode, gone.body).toBe(202);
    const rows = await w.t.db.execute(
      sql`select method, amount_cents, status from refunds where order_id = ${orderId}::uuid order by method`,
    );
    expect(rows.rows).toEqual([
      { method: 'card', amount_cents: price - 1000, status: 'succeeded' },
      { method: 'credit', amount_cents: 1000, status: 'succeeded' },
    ]);
    const left = await w.t.db.execute(
      sql`select sum(cents)::int as n from credit_entries where user_id = ${family.id}::uuid`,
    );
    expect(left.rows[0]!.n).toBe(0);
  });
});
