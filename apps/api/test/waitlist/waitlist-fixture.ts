import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { packages, slots } from '../../src/db/schema/catalogue';
import { mailOutbox } from '../../src/db/schema/mail';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { waitlistPass } from '../../src/modules/waitlist/waitlist.hand-off';
import { listenForWebhooks, startSandbox } from '../helpers/payments';
import { createCustomer, reauthenticate, type TestCustomer } from '../helpers/customers';
import { oneSessionDays, type OneSessionDay } from '../helpers/waitlist-days';
import { createTestApp, type TestApp } from '../helpers/test-app';
import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';

export interface WaitlistDays {
  t: TestApp;
  sandbox: StripeSandbox;
  clock: ManualClock;
  days: OneSessionDay[];
  /** The next of `days` no test has used yet. */
  next: number;
  packageId: string;
  packagePrice: number;
}

/**
 * The waitlist tests' world (waitlist.test.ts, waitlist-offers.test.ts): the demo season on a manual clock against
 * the Stripe sandbox, WAITLIST_LIMIT 2 and MAX_UPCOMING_BOOKINGS 1, and 14 days a single hold sells out. Call it
 * inside the file's describe: it registers that describe's hooks, and `w` is filled in by its beforeAll.
 */
export function waitlistDays() {
  const w = { next: 0 } as WaitlistDays;
  let pass: () => Promise<void>;

  beforeAll(async () => {
    const s = await startSandbox();
    w.sandbox = s.sandbox;
    w.clock = new ManualClock(new Date());
    w.t = await createTestApp({ ...s.env, WAITLIST_LIMIT: '2', MAX_UPCOMING_BOOKINGS: '1' }, w.clock);
    await listenForWebhooks(w.t.app, w.sandbox);
    await loadSeason(w.t.db, demoSeason(w.clock.now(), { days: 42 }), w.clock.now());
    w.days = await oneSessionDays(w.t.db, 14);
    pass = waitlistPass(w.t.app);
    const [pkg] = await w.t.db
      .select()
      .from(packages)
      .where(sql`${packages.slotTypeSlugs} is null`);
    w.packageId = pkg!.id;
    w.packagePrice = pkg!.priceCents;
  });
  afterAll(async () => {
    await w.t?.close();
    await w.sandbox?.stop();
  });

  const family = () => createCustomer(w.t.db, w.t.app.idTokens);
  // A fresh ID token each time: tests move the clock past their 15 minutes.
  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, who: TestCustomer, payload?: object) =>
    w.t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: (await reauthenticate(w.t.app.idTokens, who)).headers,
      ...(payload ? { payload } : {}),
    });
  const join = (who: TestCustomer, day: OneSessionDay) =>
    call('POST', '/waitlist', who, { locationId: day.locationId, slotTypeId: day.slotTypeId, date: day.date });
  const entries = async (who: TestCustomer) =>
    (await call('GET', '/waitlist', who)).json().items as {
      id: string;
      status: string;
      position: number;
      offer: { reservationId: string; slotId: string; expiresAt: string } | null;
    }[];
  const hold = (who: TestCustomer, slotId: string) => call('POST', '/bookings/reservation', who, { slotId });
  /** A day sold out by family A's hold on its last session. */
  const soldOut = async () => {
    const day = w.days[w.next++]!;
    const a = await family();
    const held = await hold(a, day.slotId);
    expect(held.statusCode).toBe(201);
    return { day, a, aHold: held.json().id as string };
  };
  const slotHolder = async (slotId: string) =>
    (await w.t.db.select().from(slots).where(eq(slots.id, slotId)))[0]!.holdReservationId;
  const mailsTo = (email: string) =>
    w.t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.createdAt));

  return { w, pass: () => pass(), family, call, join, entries, hold, soldOut, slotHolder, mailsTo };
}
