import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { gstOf } from '@kringle/contracts/money';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { pdfText } from '../helpers/pdf-text';

const HOUR = 3_600_000;

/**
 * Promo codes (issue 52, API.md "Gift vouchers, promo codes, credit, donations"): managers make
 * them, the cart prices one with a reason when it does not apply, the checkout takes the use under
 * the code's lock, the card pays the rest and the tax invoice shows the discount. Against the sandbox.
 */
describe('promo codes', () => {
  let w: StaffDay;
  let sandbox: StripeSandbox;
  let manager: Person;
  let price: number;
  let next = 0;

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    w = await staffDay({ ...s.env, LOG_LEVEL: 'error' });
    await listenForWebhooks(w.t.app, sandbox);
    manager = await createPerson(
      w.t.db,
      true,
      { firstName: 'Mo', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true },
    );
    price = Number(
      (await w.t.db.execute(sql`select price_cents from packages where id = ${w.classic}::uuid`)).rows[0]!.price_cents,
    );
  });
  afterAll(async () => {
    await w?.t.close();
    await sandbox?.stop();
  });

  const window = () => ({
    validFrom: new Date(w.clock.now().getTime() - HOUR).toISOString(),
    validTo: new Date(w.clock.now().getTime() + 30 * 24 * HOUR).toISOString(),
  });
  async function makeCode(body: Record<string, unknown>) {
    const res = await w.call('POST', '/staff/promo-codes', manager, { ...window(), ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; code: string; uses: number };
  }
  const newFamily = () => createPerson(w.t.db, false, { firstName: 'Holly', lastName: `Promo${next}` });
  /** The family holds the next session; the cart prices one Classic Print with the code. */
  async function cartWith(family: Person, promoCode?: string) {
    const held = await w.call('POST', '/bookings/reservation', family, { slotId: w.sessions[next++]!.id });
    expect(held.statusCode, held.body).toBe(201);
    const holdId = held.json().id as string;
    const cart = await w.call('POST', '/cart', family, {
      reservationId: holdId,
      amount: price,
      packages: [{ id: w.classic }],
      ...(promoCode ? { promoCode } : {}),
    });
    return { holdId, cart };
  }
  const checkout = (family: Person, holdId: string, cartId: string) =>
    w.call('POST', `/bookings/reservation/${holdId}/checkoutOrder`, family, { cartId });
  const refusal = (res: { statusCode: number; json(): { details?: { message: string }[] } }) => {
    expectContractError(res as never, 409, 'PROMO_INVALID');
    return res.json().details![0]!.message;
  };

  it('a manager creates, lists and switches off a code; the audit trail has both; others are refused', async () => {
    const made = await makeCode({ code: 'xmas-10', kind: 'percent', value: 10 });
    expect(made).toMatchObject({ code: 'XMAS-10', uses: 0, maxUsesPerFamily: 1, locationIds: null, active: true });
    expectContractError(
      await w.call('POST', '/staff/promo-codes', manager, { ...window(), code: 'XMAS-10', kind: 'amount', value: 500 }),
      409,
      'PROMO_CODE_TAKEN',
    );
    for (const bad of [
      { code: 'P1', kind: 'percent', value: 10 },
      { code: 'OVER', kind: 'percent', value: 150 },
      { code: 'TINY', kind: 'amount', value: 50 },
      { code: 'BACKWARDS', kind: 'percent', value: 5, validTo: new Date(0).toISOString() },
      { code: 'EXTRA', kind: 'percent', value: 5, surprise: true },
    ])
      expectContractError(
        await w.call('POST', '/staff/promo-codes', manager, { ...window(), ...bad }),
        400,
        'VALIDATION_FAILED',
      );
    const family = await newFamily();
    expect((await w.call('GET', '/staff/promo-codes', family)).statusCode).toBe(403);
    expect((await w.call('GET', '/staff/promo-codes', w.elf)).statusCode).toBe(403);

    const off = await w.call('PATCH', `/staff/promo-codes/${made.id}`, manager, { active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().active).toBe(false);
    expectContractError(await w.call('PATCH', `/staff/promo-codes/${made.id}`, manager, { value: 500 }), 400);
    const list = (await w.call('GET', '/staff/promo-codes', manager)).json().items as { id: string }[];
    expect(list.map((p) => p.id)).toContain(made.id);
    const trail = await w.t.db.execute(
      sql`select action, actor_id from audit_entries
        where action like 'promo.%' and after->>'promoCodeId' = ${made.id} order by seq`,
    );
    expect(trail.rows.map((r) => r.action)).toEqual(['promo.created', 'promo.changed']);
    expect(trail.rows[0]!.actor_id).toBe(manager.id);
  });

  it('a manager kept to Sydney makes codes for Sydney only', async () => {
    const local = await createPerson(
      w.t.db,
      true,
      { firstName: 'Lou', lastName: 'Local' },
      { role: 'manager', mfaEnrolled: true, locationIds: [w.sydney] },
    );
    const make = (code: string, locationIds?: string[]) =>
      w.call('POST', '/staff/promo-codes', local, { ...window(), code, kind: 'percent', value: 5, locationIds });
    expectContractError(await make('EVERYWHERE'), 400, 'VALIDATION_FAILED');
    expectContractError(await make('NORTH', [w.brisbane]), 400, 'VALIDATION_FAILED');
    const mine = await make('PITTST', [w.sydney]);
    expect(mine.statusCode, mine.body).toBe(201);
    const widen = await w.call('PATCH', `/staff/promo-codes/${mine.json().id}`, local, { locationIds: null });
    expectContractError(widen, 400, 'VALIDATION_FAILED');
  });

  it('the cart says why a code does not apply, and changes nothing', async () => {
    const now = w.clock.now().getTime();
    await makeCode({
      code: 'ENDED',
      kind: 'percent',
      value: 10,
      validFrom: new Date(now - 48 * HOUR).toISOString(),
      validTo: new Date(now - HOUR).toISOString(),
    });
    await makeCode({ code: 'LATER', kind: 'percent', value: 10, validFrom: new Date(now + HOUR).toISOString() });
    await makeCode({ code: 'BRISBANE', kind: 'percent', value: 10, locationIds: [w.brisbane] });
    await makeCode({ code: 'BIGSPEND', kind: 'amount', value: 1000, minSpendCents: price + 1 });
    const family = await newFamily();
    const expected: Record<string, string> = {
      NOSUCHCODE: 'unknown',
      ended: 'expired',
      LATER: 'not_started',
      BRISBANE: 'not_here',
      BIGSPEND: 'min_spend',
    };
    const { holdId } = await cartWith(family);
    for (const [code, reason] of Object.entries(expected)) {
      const before = (await w.t.db.execute(sql`select count(*)::int as n from carts`)).rows[0]!.n;
      const res = await w.call('POST', '/cart', family, {
        reservationId: holdId,
        amount: price,
        packages: [{ id: w.classic }],
        promoCode: code,
      });
      expect(refusal(res), code).toBe(reason);
      expect(res.json().error).toContain(code.toUpperCase());
      expect((await w.t.db.execute(sql`select count(*)::int as n from carts`)).rows[0]!.n).toBe(before);
    }
  });

  it('a percent code: the card pays the rest, the invoice shows it, the use comes back on a refund', async () => {
    const code = await makeCode({ code: 'SANTA15', kind: 'percent', value: 15 });
    const family = await newFamily();
    const { holdId, cart } = await cartWith(family, 'santa15');
    expect(cart.statusCode, cart.body).toBe(201);
    const off = Math.round((price * 15) / 100);
    expect(cart.json()).toMatchObject({
      amountCents: price,
      discounts: [{ kind: 'promo', code: 'SANTA15', cents: off }],
      payments: [],
      donationCents: 0,
      dueCents: price - off,
      gstCents: gstOf(price - off),
    });
    const res = await checkout(family, holdId, cart.json().id);
    expect(res.statusCode, res.body).toBe(201);
    const paid = res.json();
    expect(paid.amountCents).toBe(price - off);
    const intent = await w.t.app.stripe!.paymentIntents.retrieve(paid.client_secret.split('_secret_')[0]);
    expect(intent.amount).toBe(price - off);
    expect((await payWithCard(sandbox, paid.client_secret, CARDS.success)).status).toBe('succeeded');
    await sandbox.webhooksIdle();

    const invoice = await w.call('GET', `/orders/${paid.bookingId}/orders/${paid.orderId}/payment-receipt`, family);
    expect(invoice.statusCode).toBe(200);
    const text = pdfText(invoice.rawPayload);
    const aud = (c: number) => `$${(c / 100).toFixed(2)}`;
    expect(text).toContain('Promo code SANTA15');
    expect(text).toContain(`-${aud(off)}`);
    expect(text).toContain(aud(price));
    expect(text).toContain(aud(gstOf(price - off)));

    // Once a family (maxUsesPerFamily 1), while the booking stands.
    const again = await cartWith(family, 'SANTA15');
    expect(refusal(again.cart)).toBe('used_up');
    expect(
      (await w.call('GET', '/staff/promo-codes', manager)).json().items.find((p: { id: string }) => p.id === code.id)
        .uses,
    ).toBe(1);
    const cancelled = await w.call('POST', `/bookings/${paid.bookingId}/cancel`, family, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await sandbox.webhooksIdle();
    const refunded = Number(
      (await w.t.db.execute(sql`select refunded_cents from orders where id = ${paid.orderId}::uuid`)).rows[0]!
        .refunded_cents,
    );
    expect(refunded).toBeLessThanOrEqual(price - off);
    const back = await w.call('POST', '/cart', family, {
      reservationId: again.holdId,
      amount: price,
      packages: [{ id: w.classic }],
      promoCode: 'SANTA15',
    });
    expect(back.statusCode, back.body).toBe(201);
  });

  it('a 100% code takes the cart to zero: no card, confirmed at once, a $0.00 tax invoice', async () => {
    await makeCode({ code: 'ONTHEHOUSE', kind: 'percent', value: 100 });
    const family = await newFamily();
    const { holdId, cart } = await cartWith(family, 'ONTHEHOUSE');
    expect(cart.json()).toMatchObject({ dueCents: 0, gstCents: 0 });
    const res = await checkout(family, holdId, cart.json().id);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ client_secret: null, amountCents: 0 });
    const booking = await w.call('GET', `/bookings/${res.json().bookingId}`, family);
    expect(booking.json().status).toBe('completed');
    // The same cart again answers the same booking (a double click), still without a card.
    const twice = await checkout(family, holdId, cart.json().id);
    expect(twice.json()).toMatchObject({ bookingId: res.json().bookingId, client_secret: null });
    const mail = await w.t.db.execute(
      sql`select count(*)::int as n from mail_outbox where to_address = ${family.email} and subject like 'Booked%'`,
    );
    expect(mail.rows[0]!.n).toBe(1);
    const text = pdfText(
      (await w.call('GET', `/orders/${res.json().bookingId}/orders/${res.json().orderId}/payment-receipt`, family))
        .rawPayload,
    );
    expect(text).toContain('Nothing to pay, confirmed');
    expect(text).toContain('Promo code ONTHEHOUSE');
  });

  it('the last use of a code goes to one family when two check out at once', async () => {
    await makeCode({ code: 'LASTONE', kind: 'amount', value: 500, maxUses: 1 });
    const families = [await newFamily(), await newFamily(), await newFamily(), await newFamily()];
    const carts = [];
    for (const f of families) carts.push({ f, ...(await cartWith(f, 'LASTONE')) });
    for (const c of carts) expect(c.cart.statusCode, c.cart.body).toBe(201);
    const answers = await Promise.all(carts.map((c) => checkout(c.f, c.holdId, c.cart.json().id)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409]);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(refusal(a)).toBe('used_up');
    const uses = await w.t.db.execute(
      sql`select count(*)::int as n from orders o join promo_codes p on p.id = o.promo_code_id
        where p.code = 'LASTONE'`,
    );
    expect(uses.rows[0]!.n).toBe(1);
  });
});
