import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { zonedToInstant } from '@kringle/contracts/dates';
import { eq, sql } from 'drizzle-orm';
import type { BookingDetails } from '@kringle/contracts/booking-details';
import type { StaffRole } from '@kringle/contracts/staff-roles';
import type { Db } from '../../src/db/client';
import { users } from '../../src/db/schema/accounts';
import { bookings, orders } from '../../src/db/schema/bookings';
import { packages } from '../../src/db/schema/catalogue';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';
import { newBookingReference } from '../../src/modules/checkout/booking-reference';
import { createTestApp, type TestApp } from '../helpers/test-app';

export interface Person {
  id: string;
  email: string;
  staff: boolean;
  staffRole?: StaffRole | null;
}

/** A staff person is `set` (the run sheet's role, no second factor needed) unless told otherwise. */
export async function createPerson(
  db: Db,
  staff: boolean,
  name = { firstName: 'Olive', lastName: 'Ng' },
  access: { role?: StaffRole; locationIds?: string[]; mfaEnrolled?: boolean } = {},
): Promise<Person> {
  const staffRole = staff ? (access.role ?? 'set') : null;
  const person = {
    id: randomUUID(),
    email: `${staff ? 'elf' : 'family'}-${randomUUID().slice(0, 8)}@kringle.test`,
    staff,
    staffRole,
  };
  await db.insert(users).values({
    id: person.id,
    email: person.email,
    passwordHash: 'not-a-real-hash',
    ...name,
    emailVerifiedAt: new Date(),
    isStaff: staff,
    staffRole,
    locationIds: access.locationIds ?? [],
    mfaEnrolledAt: access.mfaEnrolled ? new Date() : null,
  });
  return person;
}

/** A token signed now (by the app clock): tests move the clock past the 15-minute lifetime. */
export async function headersOf(idTokens: IdTokens, who: Person, sessionEpoch = 0): Promise<{ authorization: string }> {
  const { idToken } = await idTokens.issue({
    id: who.id,
    email: who.email,
    emailVerified: true,
    isStaff: who.staff,
    staffRole: who.staffRole ?? null,
    sessionEpoch,
  });
  return { authorization: `Bearer ${idToken}` };
}

/**
 * As a sign-in now would: a token of the account's current session epoch (after a sign out everywhere, decision 0063).
 */
export async function signedInHeaders(t: TestApp, who: Person): Promise<{ authorization: string }> {
  const { rows } = await t.db.execute(sql`select session_epoch from users where id = ${who.id}::uuid`);
  return headersOf(t.app.idTokens, who, rows[0]!.session_epoch as number);
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

/** FAMILY as sent: its access needs come with the parent's consent (CONSENT_REQUIRED otherwise, decision 0058). */
export const FAMILY_AS_SENT = { ...FAMILY, consent: true };

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
  const items = [
    {
      id: randomUUID(),
      type: 'package' as const,
      name: 'Classic Print',
      quantity: 1,
      unitPriceCents: 3995,
      totalCents: 3995,
    },
  ];
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
  await db.insert(orders).values({
    bookingId: row!.id,
    userId: owner.id,
    status: status === 'payment_pending' ? 'pending' : 'paid',
    items,
    amountCents: 3995,
    paidAt: status === 'payment_pending' ? null : new Date(),
  });
  if (status === 'completed')
    await db.execute(sql`update slots set booking_id = ${row!.id}::uuid where id = ${slotId}::uuid`);
  return { id: row!.id, reference: row!.reference };
}

export const SYDNEY = 'Australia/Sydney';

export interface StaffDay {
  t: TestApp;
  clock: ManualClock;
  elf: Person;
  family: Person;
  sydney: string;
  brisbane: string;
  /**
   * A day at least two days ahead with standard sessions in Sydney: not a Thursday (late night), nor
   * a Wednesday or Sunday, whose sensory sessions before 10:00 would be over at the tests' 9:45 am.
   */
  day: string;
  /** Standard sessions of `day` in Sydney, in order. */
  sessions: { id: string; start_at: string }[];
  /** The Classic Print package's id. */
  classic: string;
  call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    who: Person | null,
    payload?: object,
  ): Promise<LightMyRequestResponse>;
}

/** The staff tests' world: an app on a manual clock, the demo season, a staff member and a family. */
export async function staffDay(env: Record<string, string> = {}): Promise<StaffDay> {
  const clock = new ManualClock(new Date());
  const t = await createTestApp(env, clock);
  await loadSeason(t.db, demoSeason(clock.now(), { days: 14 }), clock.now());
  const ids = (await t.db.execute(sql`select id, slug from locations`)).rows;
  const sydney = ids.find((r) => r.slug === 'sydney-pitt-street')!.id as string;
  const brisbane = ids.find((r) => r.slug === 'brisbane-queen-street')!.id as string;
  const first = (
    await t.db.execute(sql`
    select s.start_at from slots s join slot_types st on st.id = s.slot_type_id
    where s.location_id = ${sydney}::uuid and st.slug = 'standard' and s.start_at > now() + interval '2 days'
      and extract(isodow from s.start_at at time zone ${SYDNEY}) not in (3, 4, 7)
      -- The day's first session (10:00) is over two days ahead too, so every one is inside the refund window
      -- whatever the time of day the tests run at.
      and (s.start_at at time zone ${SYDNEY})::time = '10:00'
    order by s.start_at limit 1`)
  ).rows[0]!;
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: SYDNEY }).format(new Date(first.start_at as string));
  const sessions = (
    await t.db.execute(sql`
    select s.id, s.start_at from slots s join slot_types st on st.id = s.slot_type_id
    where s.location_id = ${sydney}::uuid and st.slug = 'standard' and s.kind = 'session'
      and s.start_at >= ${zonedToInstant(day, '10:00', SYDNEY).toISOString()}::timestamptz and s.start_at <
      ${zonedToInstant(day, '17:30', SYDNEY).toISOString()}::timestamptz
    order by s.start_at`)
  ).rows as { id: string; start_at: string }[];
  const [p] = await t.db.select().from(packages).where(eq(packages.slug, 'classic-print'));
  return {
    t,
    clock,
    elf: await createPerson(t.db, true, { firstName: 'Buddy', lastName: 'Elf' }),
    family: await createPerson(t.db, false),
    sydney,
    brisbane,
    day,
    sessions,
    classic: p!.id,
    call: async (method, url, who, payload) =>
      t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: who ? await headersOf(t.app.idTokens, who) : {},
        ...(payload ? { payload } : {}),
      }),
  };
}
