import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Person, StaffDay } from '../staff/staff-fixtures';

/** The family holds `slotId`, prices one Classic Print and checks out through the API: ready to pay. */
export async function checkOutClassic(w: StaffDay, family: Person, slotId: string) {
  const held = await w.call('POST', '/bookings/reservation', family, { slotId });
  expect(held.statusCode, held.body).toBe(201);
  const hold = held.json();
  const price = Number(
    (await w.t.db.execute(sql`select price_cents from packages where id = ${w.classic}::uuid`)).rows[0]!.price_cents,
  );
  const cart = (
    await w.call('POST', '/cart', family, { reservationId: hold.id, amount: price, packages: [{ id: w.classic }] })
  ).json();
  const checkout = await w.call('POST', `/bookings/reservation/${hold.id}/checkoutOrder`, family, { cartId: cart.id });
  expect(checkout.statusCode, checkout.body).toBe(201);
  const body = checkout.json();
  return {
    bookingId: body.bookingId as string,
    orderId: body.orderId as string,
    amountCents: body.amountCents as number,
    clientSecret: body.client_secret as string,
  };
}
