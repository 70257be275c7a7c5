import { zonedToInstant } from '@kringle/contracts/dates';
import { STAFF_ROLES, type StaffRole } from '@kringle/contracts/staff-roles';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookDirect,
  createPerson,
  signedInHeaders,
  staffDay,
  SYDNEY,
  type Person,
  type StaffDay,
} from '../staff/staff-fixtures';
import { expectContractError, fillPath, operations, type Operation } from './security-fixtures';
import { LOCATION_SCOPED, NOT_LOCATION_SCOPED } from './staff-routes';

/**
 * Issue 34 (decision 0050): every staff route of the served OpenAPI document × every role × an
 * account scoped to the route's location and one scoped to another. The roles a route admits are
 * read from its own declaration (`x-staff-roles` in the document), so a new staff route is checked
 * here as soon as it exists; one that touches a location must be listed in LOCATION_SCOPED.
 */

/** Reachable before a manager or support member has enrolled the second factor. */
const BEFORE_MFA = [
  'GET /api/v1/staff/me',
  'POST /api/v1/staff/mfa/setup',
  'POST /api/v1/staff/mfa/confirm',
  'POST /api/v1/staff/sign-out-everywhere',
];

const key = (op: Operation) => `${op.method} ${op.path}`;

describe('staff roles and locations on every staff route', () => {
  let w: StaffDay;
  let ops: (Operation & { roles: StaffRole[] })[];
  let booking: { id: string; reference: string };
  let orderId: string;
  let target: Person;
  /** For each role: an account for Sydney (the route's location) and one for Brisbane only. */
  const people = {} as Record<StaffRole, { own: Person; other: Person; all: Person; unenrolled: Person }>;

  beforeAll(async () => {
    w = await staffDay();
    w.clock.set(zonedToInstant(w.day, '10:05', SYDNEY));
    for (const role of STAFF_ROLES) {
      const make = (locationIds: string[], mfaEnrolled = true) =>
        createPerson(w.t.db, true, { firstName: 'Staff', lastName: role }, { role, locationIds, mfaEnrolled });
      people[role] = {
        own: await make([w.sydney]),
        other: await make([w.brisbane]),
        all: await make([]),
        unenrolled: await make([], false),
      };
    }
    target = await createPerson(w.t.db, true, { firstName: 'Target', lastName: 'Elf' });
    booking = await bookDirect(w.t.db, w.family, w.sessions[0]!.id);
    orderId = (await w.t.db.execute(sql`select id from orders where booking_id = ${booking.id}::uuid`)).rows[0]!
      .id as string;
    const doc = (await w.t.app.inject('/api/v1/openapi.json')).json() as {
      paths: Record<string, Record<string, { 'x-staff-roles'?: StaffRole[] }>>;
    };
    ops = (await operations(w.t.app))
      .filter((op) => op.path.startsWith('/api/v1/staff/') && op.token)
      .map((op) => ({ ...op, roles: doc.paths[op.path]![op.method.toLowerCase()]!['x-staff-roles'] ?? [] }));
  });
  afterAll(async () => w?.t.close());

  const bodyFor = (op: Operation): object | undefined =>
    ({
      'POST /api/v1/staff/check-ins': { locationId: w.sydney, reference: booking.reference },
      'POST /api/v1/staff/walk-ins': {
        slotId: w.sessions[5]!.id,
        firstName: 'Walk',
        lastName: 'In',
        details: {
          children: [{ firstName: 'Ava', age: 4 }],
          adults: 1,
          pets: 0,
          accessNeeds: [],
          accessNote: '',
          noteForSanta: '',
        },
        packages: [{ id: w.classic, quantity: 1 }],
        addOns: [],
        paidWith: 'cash',
      },
      'POST /api/v1/staff/accounts': {
        email: `new-${Math.random().toString(36).slice(2, 8)}@kringle.test`,
        role: 'set',
        locationIds: [],
      },
      'PATCH /api/v1/staff/accounts/{id}': { locationIds: [w.sydney] },
      'POST /api/v1/staff/mfa/confirm': { code: '000000' },
      'POST /api/v1/staff/mfa/setup': {},
      'POST /api/v1/staff/bookings/{id}/reschedule': { slotId: w.sessions[6]!.id, reason: 'Family phoned' },
      'POST /api/v1/staff/bookings/{id}/cancel': { reason: 'Family phoned', refund: 'none' },
      'POST /api/v1/staff/orders/{id}/refunds': { amountCents: 100, reason: 'Family phoned' },
      'POST /api/v1/staff/bookings/{id}/resend': { kind: 'confirmation' },
      'POST /api/v1/staff/photos/{id}/assign': { bookingId: booking.id },
      'POST /api/v1/staff/bookings/{id}/photos/extend': { days: 7, reason: 'Family asked for more time' },
      // A closure of an hour without sessions: it changes no other route's answers.
      'POST /api/v1/staff/closures/preview': {
        locationId: w.sydney,
        from: `${w.day}T23:00`,
        to: `${w.day}T23:30`,
        reason: 'Santa is unwell',
      },
      'POST /api/v1/staff/closures': {
        locationId: w.sydney,
        from: `${w.day}T23:00`,
        to: `${w.day}T23:30`,
        reason: 'Santa is unwell',
        remedy: 'refund',
        confirm: 'Kringle Sydney, Pitt Street',
      },
      // Tells no one: the world's booking is not within the next 3 hours.
      'POST /api/v1/staff/locations/{id}/delay': { minutes: 20 },
      'PUT /api/v1/staff/bookings/{id}/details': {
        details: {
          children: [{ firstName: 'Ava', age: 4 }],
          adults: 1,
          pets: 0,
          accessNeeds: [],
          accessNote: '',
          noteForSanta: '',
        },
        reason: 'Family phoned',
      },
    })[key(op)];
  /** Each route's query: the run sheet's location and day, a day to move onto, a search. */
  const queryFor = (op: Operation) => {
    if (op.path.includes('/run-sheet')) return `?locationId=${w.sydney}&date=${w.day}`;
    if (op.path.endsWith('/free-sessions')) return `?date=${w.day}`;
    if (op.path.endsWith('/families')) return '?q=olive';
    if (op.path.endsWith('/photos/batch')) return `?locationId=${w.sydney}`;
    if (op.path.includes('/staff/live')) return `?locationId=${w.sydney}`;
    if (op.path.includes('/reports/')) return `?locationId=${w.sydney}&from=${w.day}&to=${w.day}`;
    return '';
  };
  const idFor = (op: Operation) =>
    op.path.includes('/accounts/')
      ? target.id
      : op.path.includes('/orders/')
        ? orderId
        : op.path.includes('/locations/')
          ? w.sydney
          : booking.id;
  const urlFor = (op: Operation) =>
    fillPath(op.path, { id: idFor(op), locationId: w.sydney, version: '1' }) + queryFor(op);
  const send = async (op: Operation, who: Person) => {
    const payload = bodyFor(op);
    // A sign-in now: after the route list's own "sign out everywhere", the next token is the new epoch's.
    const request = {
      method: op.method as 'GET',
      url: urlFor(op),
      headers: await signedInHeaders(w.t, who),
      ...(payload ? { payload } : {}),
    };
    if (!op.path.endsWith('/stream')) return w.t.app.inject(request);
    // An event stream never ends: its status and headers are the answer; a refusal is read whole.
    const res = await w.t.app.inject({ ...request, payloadAsStream: true });
    const stream = res.stream();
    let body = '';
    if (res.statusCode === 200) stream.destroy();
    else for await (const chunk of stream) body += String(chunk);
    const json = () => JSON.parse(body) as unknown;
    return { statusCode: res.statusCode, headers: res.headers, body, json } as unknown as typeof res;
  };

  it('classifies every staff route, and each declares its roles (manager always among them)', () => {
    expect(ops.length).toBeGreaterThanOrEqual(14);
    const known = [...LOCATION_SCOPED, ...NOT_LOCATION_SCOPED];
    expect(
      ops.map(key).filter((k) => !known.includes(k)),
      'a new staff route: add it to LOCATION_SCOPED or NOT_LOCATION_SCOPED',
    ).toEqual([]);
    for (const op of ops) expect(op.roles, key(op)).toContain('manager');
    // The accounts are the managers' alone (API.md); the set's day is not support's to change.
    const rolesOf = (k: string) => ops.find((op) => key(op) === k)!.roles.sort();
    expect(rolesOf('GET /api/v1/staff/accounts')).toEqual(['manager']);
    expect(rolesOf('POST /api/v1/staff/check-ins')).toEqual(['manager', 'set']);
    expect(rolesOf('GET /api/v1/staff/run-sheet')).toEqual(['manager', 'set', 'support']);
  });

  it('answers 403 ROLE_FORBIDDEN to every role a route does not name, whatever its locations', async () => {
    let refused = 0;
    for (const op of ops) {
      for (const role of STAFF_ROLES.filter((r) => !ops.find((o) => o === op)!.roles.includes(r))) {
        for (const who of [people[role].own, people[role].other, people[role].all]) {
          expectContractError(await send(op, who), 403, 'ROLE_FORBIDDEN');
          refused++;
        }
      }
    }
    expect(refused).toBeGreaterThan(20);
  });

  it(
    'answers 403 LOCATION_FORBIDDEN to an allowed role scoped to another location, on every location ' + 'route',
    async () => {
      for (const op of ops.filter((o) => LOCATION_SCOPED.includes(key(o)))) {
        for (const role of op.roles) expectContractError(await send(op, people[role].other), 403, 'LOCATION_FORBIDDEN');
      }
    },
  );

  it(
    "lets an allowed role in at its own location and with every location (the answers are the routes' " + 'own)',
    async () => {
      for (const op of ops) {
        for (const role of op.roles) {
          for (const who of [people[role].own, people[role].all]) {
            const res = await send(op, who);
            expect([401, 403], `${key(op)} as ${role}: ${res.body}`).not.toContain(res.statusCode);
          }
        }
      }
    },
  );

  it(
    'refuses a manager or support member without a second factor (403 MFA_REQUIRED) but for enrolment; set staff ' +
      'need none',
    async () => {
      for (const op of ops) {
        for (const role of ['manager', 'support'] as const) {
          const res = await send(op, people[role].unenrolled);
          if (BEFORE_MFA.includes(key(op)))
            expect([401, 403], `${key(op)} as ${role}: ${res.body}`).not.toContain(res.statusCode);
          else expectContractError(res, 403, 'MFA_REQUIRED');
        }
      }
      expect(
        (
          await send(
            ops.find((o) => key(o) === 'GET /api/v1/staff/run-sheet')!,
            people.set.unenrolled,
          )
        ).statusCode,
      ).toBe(200);
    },
  );

  it('shows a scoped account only its own locations in the catalogue', async () => {
    const op = ops.find((o) => key(o) === 'GET /api/v1/staff/catalogue')!;
    const ids = (await send(op, people.set.own)).json().locations.map((l: { id: string }) => l.id);
    expect(ids).toEqual([w.sydney]);
    expect((await send(op, people.set.all)).json().locations.length).toBeGreaterThan(1);
  });
});
