import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { appCheckToken, signInThroughApi } from './app';
import { createVerifiedCustomer } from './wizard';

interface Location {
  id: string;
  name: string;
  timezone: string;
  slotTypes: { id: string; name: string }[];
}
export interface Booking {
  id: string;
  reference: string;
  status: string;
  amountCents: number;
  refundableCents: number;
  canReschedule: boolean;
  rescheduleCount: number;
  location: { id: string; timezone: string };
  slotType: { id: string };
  slot: { id: string; startAt: string };
}

/** An API client for one customer, with the same token and app-check headers the web app sends. */
export async function customerClient(request: APIRequestContext, email: string, password: string) {
  const token = await appCheckToken(request);
  const appCheck: Record<string, string> = token ? { 'X-App-Check': token } : {};
  const signIn = await request.post('/api/v1/auth/sign-in', { data: { email, password }, headers: appCheck });
  expect(signIn.ok(), await signIn.text()).toBe(true);
  const { idToken } = (await signIn.json()) as { idToken: string };
  const headers = { ...appCheck, Authorization: `Bearer ${idToken}` };
  const call = async <T>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    data?: unknown,
    expected = [200, 201],
  ): Promise<T> => {
    const res = await request.fetch(`/api/v1${path}`, { method, headers, ...(data === undefined ? {} : { data }) });
    expect(expected, `${method} ${path}: ${res.status()} ${await res.text()}`).toContain(res.status());
    return (await res.json()) as T;
  };
  return {
    get: <T>(path: string) => call<T>('GET', path),
    post: <T>(path: string, data: unknown = {}, expected?: number[]) => call<T>('POST', path, data, expected),
    put: <T>(path: string, data: unknown) => call<T>('PUT', path, data),
  };
}
export type CustomerClient = Awaited<ReturnType<typeof customerClient>>;

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Holds a free session at least `daysAhead` days out (so the refund and reschedule windows are
 * open), checks a package out and, unless `pay` is false, pays with the sandbox's success card
 * the way the web app's card form does. Parallel tests pick random sessions so they rarely meet.
 */
export async function bookThroughApi(
  api: CustomerClient,
  request: APIRequestContext,
  /** `slot`: that session exactly (the staff specs book one later today). */
  options: { pay?: boolean; daysAhead?: number; slot?: { id: string; locationId: string; slotTypeId: string } } = {},
): Promise<Booking> {
  const { items: locations } = await api.get<{ items: Location[] }>('/common/locations');
  const location =
    locations.find((l) => (options.slot ? l.id === options.slot.locationId : l.name.includes('Sydney'))) ??
    locations[0]!;
  const slotType =
    location.slotTypes.find((t) => (options.slot ? t.id === options.slot.slotTypeId : t.name === 'Santa photos')) ??
    location.slotTypes[0]!;
  const from = isoDate(new Date(Date.now() + (options.daysAhead ?? 4) * 86_400_000));
  const to = isoDate(new Date(Date.now() + ((options.daysAhead ?? 4) + 10) * 86_400_000));
  const dates = await api.get<{ items: { date: string; available: number }[] }>(
    `/booking-slot/${location.id}/available-dates?slotTypeId=${slotType.id}&from=${from}&to=${to}`,
  );
  const open = dates.items.filter((d) => d.available > 0);
  const day = open[Math.floor(Math.random() * open.length)]!;
  const slots = await api.get<{ items: { id: string; kind: string; status: string }[] }>(
    `/booking-slot/${location.id}/available-slots?date=${day.date}&slotTypeId=${slotType.id}`,
  );
  const free = options.slot
    ? [{ id: options.slot.id }]
    : slots.items.filter((s) => s.kind === 'session' && s.status === 'available');
  // Another test may take the same session between the list and the hold: try a few.
  let hold: { id?: string; code?: string } = {};
  for (let attempt = 0; attempt < 3 && !hold.id; attempt++) {
    const slot = free.splice(Math.floor(Math.random() * free.length), 1)[0]!;
    hold = await api.post<{ id?: string; code?: string }>('/bookings/reservation', { slotId: slot.id }, [201, 409]);
  }
  expect(hold.id, `no session could be held: ${hold.code}`).toBeTruthy();
  const { items: packages } = await api.get<{ items: { id: string; priceCents: number }[] }>(
    `/product/packages?locationId=${location.id}&slotTypeId=${slotType.id}`,
  );
  const pkg = packages[0]!;
  const cart = await api.post<{ id: string }>('/cart', {
    reservationId: hold.id!,
    amount: pkg.priceCents,
    packages: [{ id: pkg.id, quantity: 1 }],
    addOns: [],
  });
  const checkout = await api.post<{ bookingId: string; client_secret: string }>(
    `/bookings/reservation/${hold.id!}/checkoutOrder`,
    { cartId: cart.id },
  );
  if (options.pay === false) return api.get<Booking>(`/bookings/${checkout.bookingId}`);

  const stripe = await api.get<{ publishableKey: string; sandboxUrl?: string }>('/common/stripe-client-secret');
  const intentId = checkout.client_secret.split('_secret_')[0];
  const confirm = await request.post(`${stripe.sandboxUrl}/v1/payment_intents/${intentId}/confirm`, {
    headers: { Authorization: `Bearer ${stripe.publishableKey}` },
    form: {
      client_secret: checkout.client_secret,
      'payment_method_data[type]': 'card',
      'payment_method_data[card][number]': '4242424242424242',
      'payment_method_data[card][exp_month]': '12',
      'payment_method_data[card][exp_year]': String(new Date().getUTCFullYear() + 2),
      'payment_method_data[card][cvc]': '123',
    },
  });
  expect(((await confirm.json()) as { status: string }).status).toBe('succeeded');
  // The booking is confirmed by the webhook, a moment later.
  let booking: Booking | undefined;
  await expect
    .poll(async () => {
      booking = await api.get<Booking>(`/bookings/${checkout.bookingId}`);
      return booking.status;
    })
    .toBe('completed');
  return booking!;
}

/**
 * Moves a booking to another free session of its location and type, as the wizard's reschedule
 * would: on the first open day from five days out (five days out is Christmas Day, closed, when
 * the suite runs on 20 December).
 */
export async function rescheduleThroughApi(api: CustomerClient, booking: Booking): Promise<Booking> {
  const from = isoDate(new Date(Date.now() + 5 * 86_400_000));
  const to = isoDate(new Date(Date.now() + 12 * 86_400_000));
  const dates = await api.get<{ items: { date: string; available: number }[] }>(
    `/booking-slot/${booking.location.id}/available-dates?slotTypeId=${booking.slotType.id}&from=${from}&to=${to}`,
  );
  const day = dates.items.find((d) => d.available > 0)!.date;
  const slots = await api.get<{ items: { id: string; kind: string; status: string }[] }>(
    `/booking-slot/${booking.location.id}/available-slots?date=${day}&slotTypeId=${booking.slotType.id}`,
  );
  const free = slots.items.filter((s) => s.kind === 'session' && s.status === 'available' && s.id !== booking.slot.id);
  const hold = await api.post<{ id: string }>('/bookings/reservation', {
    slotId: free[Math.floor(Math.random() * free.length)]!.id,
    bookingId: booking.id,
  });
  return api.post<Booking>(`/bookings/${booking.id}/reschedule`, { reservationId: hold.id }, [200]);
}

/** A fresh verified customer, signed in on the page, with an API client of their own. */
export async function familyWithSession(page: Page, baseURL: string, tag: string) {
  const { email, password } = await createVerifiedCustomer(page.request, baseURL, `bookings-${tag}`);
  const session = await signInThroughApi(page, email, password);
  expect(session?.user.emailVerified).toBe(true);
  return customerClient(page.request, email, password);
}

/** The card of one booking on the open tab. */
export const cardOf = (page: Page, reference: string) =>
  page.locator(`[data-testid="booking-card"][data-reference="${reference}"]`);

/** Clicks a download button and returns the HTTP response behind it and the saved file's bytes. */
export async function downloadFrom(page: Page, button: ReturnType<Page['getByRole']>, urlPart: string) {
  const [response, download] = await Promise.all([
    page.waitForResponse((r) => r.url().includes(urlPart) && r.request().method() === 'GET'),
    page.waitForEvent('download'),
    button.click(),
  ]);
  const path = await download.path();
  const { readFile } = await import('node:fs/promises');
  return { response, filename: download.suggestedFilename(), bytes: await readFile(path) };
}
