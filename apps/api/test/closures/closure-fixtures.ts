import { sql } from 'drizzle-orm';
import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { stripeOf } from '../../src/plugins/stripe';
import { bookDirect, createPerson, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';
import { startFaultyProxy, type FaultyProxy } from '../helpers/faulty-proxy';
import { CARDS, payWithCard, startSandbox } from '../helpers/payments';

/** Issue 35's closures against real PostgreSQL and the Stripe sandbox: a staff day, a manager, paid bookings. */
export interface ClosureWorld {
  w: StaffDay;
  sandbox: StripeSandbox;
  manager: Person;
  /** The Sydney location's name: what the manager types to confirm. */
  sydneyName: string;
  /** With `{ proxy: true }`: a fault-injecting proxy between the API's Stripe SDK and the sandbox. */
  proxy: FaultyProxy | null;
  /** The environment the app was built with: a second process on the same database uses it too. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function closureWorld(options: { proxy?: boolean } = {}): Promise<ClosureWorld> {
  const { sandbox, env: stripeEnv } = await startSandbox();
  const proxy = options.proxy ? await startFaultyProxy(stripeEnv.STRIPE_API_URL!) : null;
  const env = { ...stripeEnv, ...(proxy ? { STRIPE_API_URL: proxy.url } : {}) };
  const w = await staffDay(env);
  const manager = await createPerson(
    w.t.db,
    true,
    { firstName: 'Mo', lastName: 'Manager' },
    { role: 'manager', mfaEnrolled: true },
  );
  const name = (await w.t.db.execute(sql`select name from locations where id = ${w.sydney}::uuid`)).rows[0]!
    .name as string;
  return {
    w,
    sandbox,
    manager,
    sydneyName: name,
    proxy,
    env,
    close: async () => {
      await w.t.close();
      await proxy?.close();
      await sandbox.stop();
    },
  };
}

/** A confirmed booking paid by card at the sandbox (a real PaymentIntent, so a refund really happens). */
export async function paidBooking(
  c: ClosureWorld,
  slotId: string,
  who?: Person,
): Promise<{ id: string; reference: string; family: Person; intentId: string }> {
  const family = who ?? (await createPerson(c.w.t.db, false));
  const booked = await bookDirect(c.w.t.db, family, slotId);
  const intent = await stripeOf(c.w.t.app).paymentIntents.create({
    amount: 3995,
    currency: 'aud',
    metadata: { bookingId: booked.id },
  });
  const paid = await payWithCard(c.sandbox, intent.client_secret!, CARDS.success);
  if (paid.status !== 'succeeded') throw new Error(`sandbox payment ${paid.status}`);
  await c.w.t.db.execute(sql`update orders set payment_intent_id = ${intent.id} where booking_id = ${booked.id}::uuid`);
  return { ...booked, family, intentId: intent.id };
}

/** What the sandbox refunded on the booking's charge, in cents. */
export function refundedAtStripe(c: ClosureWorld, intentId: string): number {
  const charge = c.sandbox.paymentIntent(intentId)?.latest_charge;
  return charge ? (c.sandbox.charge(charge)?.amount_refunded ?? 0) : 0;
}

/** The body of a closure of the staff day from `from` to `to` (local times of that day). */
export const rangeOf = (c: ClosureWorld, from: string, to: string) => ({
  locationId: c.w.sydney,
  from: `${c.w.day}T${from}`,
  to: `${c.w.day}T${to}`,
  reason: 'Santa is unwell',
});

export async function countRows(c: ClosureWorld, query: ReturnType<typeof sql>): Promise<number> {
  return Number((await c.w.t.db.execute(query)).rows[0]!.n);
}
