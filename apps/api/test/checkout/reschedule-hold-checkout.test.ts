import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { startSandbox } from '../helpers/payments';
import { expectContractError } from '../security/security-fixtures';
import { bookDirect, createPerson, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';

/**
 * Issue 48 item 3: a hold taken to move a booking (`{ slotId, bookingId }`) served as a new
 * booking through /cart and checkoutOrder, past the five-booking limit and the waiting room, which
 * do not ask reschedule holds. It is that booking's reschedule's alone: 409 RESCHEDULE_HOLD.
 */
describe('a reschedule hold is for the reschedule only', () => {
  let w: StaffDay;
  let sandbox: StripeSandbox;
  let family: Person;
  let price: number;
  const count = async (q: ReturnType<typeof sql>) => Number((await w.t.db.execute(q)).rows[0]!.n);

  beforeAll(async () => {
    const started = await startSandbox();
    sandbox = started.sandbox;
    w = await staffDay(started.env);
    family = await createPerson(w.t.db, false);
    price = (await w.t.db.execute(sql`select price_cents from packages where id = ${w.classic}::uuid`)).rows[0]!
      .price_cents as number;
  });
  afterAll(async () => {
    await w?.t.close();
    await sandbox?.stop();
  });

  it(
    'refuses /cart and checkoutOrder on it with 409 RESCHEDULE_HOLD at the booking limit, and the move itself still ' +
      'works',
    async () => {
      // Five upcoming bookings: the most one account may have.
      const booked = [];
      for (const s of w.sessions.slice(0, 5)) booked.push(await bookDirect(w.t.db, family, s.id));
      expectContractError(
        await w.call('POST', '/bookings/reservation', family, { slotId: w.sessions[6]!.id }),
        409,
        'BOOKING_LIMIT',
      );

      const hold = await w.call('POST', '/bookings/reservation', family, {
        slotId: w.sessions[6]!.id,
        bookingId: booked[0]!.id,
      });
      expect(hold.statusCode, hold.body).toBe(201);
      const reservationId = hold.json().id as string;
      const bookingsBefore = await count(sql`select count(*) as n from bookings where user_id = ${family.id}::uuid`);

      const cart = await w.call('POST', '/cart', family, {
        reservationId,
        amount: price,
        packages: [{ id: w.classic, quantity: 1 }],
        addOns: [],
      });
      expectContractError(cart, 409, 'RESCHEDULE_HOLD');
      expect(await count(sql`select count(*) as n from carts where reservation_id = ${reservationId}::uuid`)).toBe(0);

      // A cart made for it some other way (before this fix) does not check out either.
      const items = [
        {
          id: w.classic,
          type: 'package',
          name: 'Classic Print',
          quantity: 1,
          unitPriceCents: price,
          totalCents: price,
        },
      ];
      const made = await w.t.db.execute(sql`
      insert into carts (user_id, reservation_id, items, amount_cents, gst_cents)
      values (${family.id}::uuid, ${reservationId}::uuid, ${JSON.stringify(items)}::jsonb, ${price},
      ${Math.round(price / 11)}) returning id`);
      const checkout = await w.call('POST', `/bookings/reservation/${reservationId}/checkoutOrder`, family, {
        cartId: made.rows[0]!.id as string,
      });
      expectContractError(checkout, 409, 'RESCHEDULE_HOLD');
      expect(await count(sql`select count(*) as n from bookings where user_id = ${family.id}::uuid`)).toBe(
        bookingsBefore,
      );
      expect(await count(sql`select count(*) as n from orders where user_id = ${family.id}::uuid`)).toBe(
        bookingsBefore,
      );
      expect(
        (await w.t.db.execute(sql`select status from reservations where id = ${reservationId}::uuid`)).rows[0]!.status,
      ).toBe('active');

      // The hold still does what it was taken for.
      const moved = await w.call('POST', `/bookings/${booked[0]!.id}/reschedule`, family, { reservationId });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(
        (await w.t.db.execute(sql`select slot_id from bookings where id = ${booked[0]!.id}::uuid`)).rows[0]!.slot_id,
      ).toBe(w.sessions[6]!.id);
      expect(await count(sql`select count(*) as n from bookings where user_id = ${family.id}::uuid`)).toBe(
        bookingsBefore,
      );
    },
  );
});
