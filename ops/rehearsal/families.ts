import { HOSTS, familyAddress } from './topology';
import { Phone, type Operation } from './phone';

export interface Family {
  id: string;
  email: string;
  authorization: string;
}

export interface Booked {
  family: number;
  slotId: string;
  bookingId: string;
  orderId: string;
  paymentIntentId: string;
  /** The sandbox answered `succeeded` to the family's card. */
  paid: boolean;
  /** Cancelled by the family later (a full refund: the sessions are more than 48 h out). */
  cancelled: boolean;
}

export interface LoadPlan {
  families: Family[];
  /** The raced sessions, soonest first: every family goes for the first few still free. */
  sessions: string[];
  /** The day-view the families read before each try (a GET nginx may retry on another process). */
  availabilityPath: string;
  basket: { packages: { id: string; quantity: number }[]; addOns: never[]; amount: number };
  appCheck: string;
  stripe: { url: string; publishableKey: string };
  /** API.md's per-account cap on upcoming bookings: a family with this many cancels its first. */
  maxBookings: number;
  stop: AbortSignal;
}

export interface LoadResult {
  operations: Operation[];
  booked: Booked[];
  /** Sessions each family got a hold of (201 or its own hold again, 200). */
  holdsBySession: Map<string, Set<number>>;
  unexpected: string[];
}

const API = `http://${HOSTS.nginx}`;
const SUCCESS_CARD = '4242424242424242';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Cancels a booking. A retried cancel whose first try went through answers 409 NOT_CANCELLABLE
 * (one refund only): then the booking must read cancelled.
 */
async function cancel(phone: Phone, headers: Record<string, string>, booking: Booked): Promise<boolean> {
  const url = `${API}/api/v1/bookings/${booking.bookingId}`;
  const res = await phone.request('cancel', 'POST', `${url}/cancel`, headers, {});
  if (res.status === 200) return true;
  if (res.status !== 409 || res.json<{ code: string }>().code !== 'NOT_CANCELLABLE') return false;
  const now = await phone.request('booking', 'GET', url, headers);
  return now.status === 200 && now.json<{ status: string }>().status === 'cancelled';
}

/** Polls the booking as the web app's confirmation page does, for up to a minute. */
async function confirmed(phone: Phone, headers: Record<string, string>, bookingId: string): Promise<boolean> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const booking = await phone.request('booking', 'GET', `${API}/api/v1/bookings/${bookingId}`, headers);
    if (booking.status === 200 && booking.json<{ status: string }>().status === 'completed') return true;
    await sleep(500);
  }
  return false;
}

/** Tries per family at most: the load is bounded in count as well as in time. */
const MAX_TRIES = 60;

/**
 * Families racing for the same sessions and paying for what they hold, until `stop`: each reads
 * the day, asks for one of the first free sessions, prices its basket, checks out and pays at the
 * Stripe sandbox as the browser does (the webhook comes back through nginx). A family at the cap
 * of upcoming bookings cancels its first (refunded in full), whose session goes back in the race,
 * so the load lasts as long as the disruptions do on a fast machine and a slow one alike.
 */
export async function runFamilies(plan: LoadPlan): Promise<LoadResult> {
  const result: LoadResult = { operations: [], booked: [], holdsBySession: new Map(), unexpected: [] };
  const free = [...plan.sessions];
  const taken = (slotId: string) => {
    const i = free.indexOf(slotId);
    if (i >= 0) free.splice(i, 1);
  };

  async function family(index: number) {
    const who = plan.families[index]!;
    const phone = new Phone(index, familyAddress(index), result.operations);
    const headers = { authorization: who.authorization, 'x-app-check': plan.appCheck };
    const odd = (what: string, status: number, body: string) =>
      result.unexpected.push(`family ${index} ${what}: ${status} ${body.slice(0, 200)}`);
    const upcoming: Booked[] = [];
    try {
      // Families arrive over the first second, not in one instant.
      await sleep(Math.random() * 1000);
      for (let tries = 0; !plan.stop.aborted && tries < MAX_TRIES; tries++) {
        // Cancelled first, then the free list read: checked the other way round, the load stopped once
        // every session was booked (a fast host, 6 s after api1's kill), with each family at the cap.
        if (upcoming.length >= plan.maxBookings) {
          const first = upcoming.shift()!;
          if (!(await cancel(phone, headers, first))) odd('cancel', 0, `${first.bookingId} not cancelled`);
          first.cancelled = true;
          result.holdsBySession.get(first.slotId)?.delete(index);
          free.push(first.slotId);
        }
        if (free.length === 0) {
          await sleep(500);
          continue;
        }
        const day = await phone.request('availability', 'GET', `${API}${plan.availabilityPath}`, headers);
        if (day.status !== 200 && day.status !== 304) odd('availability', day.status, day.body);
        const slotId = free[Math.floor(Math.random() * Math.min(6, free.length))]!;
        const hold = await phone.request('hold', 'POST', `${API}/api/v1/bookings/reservation`, headers, { slotId });
        if (hold.status === 409 && hold.json<{ code: string }>().code === 'SLOT_UNAVAILABLE') {
          taken(slotId);
          continue;
        }
        if (hold.status !== 201 && hold.status !== 200) {
          odd('hold', hold.status, hold.body);
          break;
        }
        const holders = result.holdsBySession.get(slotId) ?? new Set<number>();
        result.holdsBySession.set(slotId, holders.add(index));
        taken(slotId);
        const reservationId = hold.json<{ id: string }>().id;
        const cart = await phone.request('cart', 'POST', `${API}/api/v1/cart`, headers, {
          reservationId,
          ...plan.basket,
        });
        if (cart.status !== 201) {
          odd('cart', cart.status, cart.body);
          break;
        }
        const checkout = await phone.request(
          'checkout',
          'POST',
          `${API}/api/v1/bookings/reservation/${reservationId}/checkoutOrder`,
          headers,
          { cartId: cart.json<{ id: string }>().id },
        );
        if (checkout.status !== 201) {
          odd('checkout', checkout.status, checkout.body);
          break;
        }
        const c = checkout.json<{ bookingId: string; orderId: string; client_secret: string }>();
        const paymentIntentId = c.client_secret.split('_secret_')[0]!;
        const pay = await phone.request(
          'pay',
          'POST',
          `${plan.stripe.url}/v1/payment_intents/${paymentIntentId}/confirm`,
          { authorization: `Bearer ${plan.stripe.publishableKey}` },
          new URLSearchParams({
            client_secret: c.client_secret,
            'payment_method_data[type]': 'card',
            'payment_method_data[card][number]': SUCCESS_CARD,
            'payment_method_data[card][exp_month]': '12',
            'payment_method_data[card][exp_year]': String(new Date().getFullYear() + 2),
            'payment_method_data[card][cvc]': '123',
            return_url: `${API}/booking/confirmed`,
          }).toString(),
        );
        const paid = pay.status === 200 && pay.json<{ status: string }>().status === 'succeeded';
        if (!paid) odd('pay', pay.status, pay.body);
        const one: Booked = {
          family: index,
          slotId,
          bookingId: c.bookingId,
          orderId: c.orderId,
          paymentIntentId,
          paid,
          cancelled: false,
        };
        result.booked.push(one);
        upcoming.push(one);
        // The confirmation page: the family waits for the webhook to confirm the booking before
        // it books again (until then its unpaid checkout makes another hold HOLD_LIMIT).
        if (paid && !(await confirmed(phone, headers, c.bookingId))) odd('booking', 0, `${c.bookingId} not confirmed`);
        await sleep(500 + Math.random() * 1500);
      }
    } catch (err) {
      result.unexpected.push(`family ${index}: ${(err as Error).message}`);
    } finally {
      phone.close();
    }
  }

  await Promise.all(plan.families.map((_, i) => family(i)));
  return result;
}
