import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { BookingDetails } from '@kringle/contracts/booking-details';
import type { Db } from '../../src/db/client';
import { users } from '../../src/db/schema/accounts';
import { bookings, orders } from '../../src/db/schema/bookings';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';
import { newBookingReference } from '../../src/modules/checkout/booking-reference';

export interface Person {
  id: string;
  email: string;
  staff: boolean;
}

export async function createPerson(db: Db, staff: boolean, name = { firstName: 'Olive', lastName: 'Ng' }): Promise<Person> {
  const person = { id: randomUUID(), email: `${staff ? 'elf' : 'family'}-${randomUUID().slice(0, 8)}@kringle.test`, staff };
  await db.insert(users).values({ id: person.id, email: person.email, passwordHash: 'not-a-real-hash', ...name, emailVerifiedAt: new Date(), isStaff: staff });
  return person;
}

/** A token signed now (by the app clock): tests move the clock past the 15-minute lifetime. */
export async function headersOf(idTokens: IdTokens, who: Person): Promise<{ authorization: string }> {
  const { idToken } = await idTokens.issue({ id: who.id, email: who.email, emailVerified: true, isStaff: who.staff });
  return { authorization: `Bearer ${idToken}` };
}

export const FAMILY: BookingDetails = {
  children: [
    { firstName: 'Mia', age: 6 },
    { firstName: 'Leo', age: 3 },
  ],
  adults: 2,
  pets: 0,
  accessNeeds: ['wheelchair'],
  accessNote: 'We use a ramp.',
  noteForSanta: 'Mia wants a red bike.',
};

/**
 * A paid online booking written straight to the database (the payment path has its own tests):
 * `completed` owns its session; `cancelled` was paid then cancelled; `payment_pending` never paid.
 */
export async function bookDirect(
  db: Db,
  owner: Person,
  slotId: string,
  opts: { status?: 'completed' | 'cancelled' | 'payment_pending'; details?: BookingDetails | null } = {},
): Promise<{ id: string; reference: string }> {
  const status = opts.status ?? 'completed';
  const slot = (await db.execute(sql`select location_id, slot_type_id from slots where id = ${slotId}::uuid`)).rows[0]!;
  const items = [{ id: randomUUID(), type: 'package' as const, name: 'Classic Print', quantity: 1, unitPriceCents: 3995, totalCents: 3995 }];
  const [row] = await db
    .insert(bookings)
    .values({
      reference: newBookingReference(),
      userId: owner.id,
      locationId: slot.location_id as string,
      slotId,
      slotTypeId: slot.slot_type_id as string,
      status,
      items,
      amountCents: 3995,
      details: opts.details === undefined ? FAMILY : opts.details,
      confirmedAt: status === 'payment_pending' ? null : new Date(),
      cancelledAt: status === 'cancelled' ? new Date() : null,
    })
    .returning();
  await db.insert(orders).values({ bookingId: row!.id, userId: owner.id, status: status === 'payment_pending' ? 'pending' : 'paid', items, amountCents: 3995, paidAt: status === 'payment_pending' ? null : new Date() });
  if (status === 'completed') await db.execute(sql`update slots set booking_id = ${row!.id}::uuid where id = ${slotId}::uuid`);
  return { id: row!.id, reference: row!.reference };
}
