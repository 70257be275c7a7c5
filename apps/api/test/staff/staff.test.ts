import { addDays, zonedToInstant } from '@kringle/contracts/dates';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { packages } from '../../src/db/schema/catalogue';
import { mailOutbox } from '../../src/db/schema/mail';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { checkInCodeFor } from '../../src/modules/check-in/check-in-codes';
import { expectContractError } from '../security/security-fixtures';
import { createTestApp, type TestApp } from '../test-app';
import { bookDirect, createPerson, FAMILY, headersOf, type Person } from './staff-fixtures';

const MIN = 60_000;
const SYDNEY = 'Australia/Sydney';

/** Issue 19's staff API (API.md "Staff") against real PostgreSQL, on a day of the demo season. */
describe('staff app API', () => {
  let t: TestApp;
  let clock: ManualClock;
  let elf: Person;
  let family: Person;
  let sydney: string;
  let brisbane: string;
  let day: string;
  /** Standard sessions of `day` in Sydney, in order; each test takes its own. */
  let sessions: { id: string; start_at: string }[];
  let next = 0;
  let classic: string;
  const session = () => sessions[next++]!;

  const call = async (method: 'GET' | 'POST', url: string, who: Person | null, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: who ? await headersOf(t.app.idTokens, who) : {}, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    clock = new ManualClock(new Date());
    t = await createTestApp({}, clock);
    await loadSeason(t.db, demoSeason(clock.now(), { days: 14 }), clock.now());
    const ids = (await t.db.execute(sql`select id, slug from locations`)).rows;
    sydney = ids.find((r) => r.slug === 'sydney-pitt-street')!.id as string;
    brisbane = ids.find((r) => r.slug === 'brisbane-queen-street')!.id as string;
    // A day at least two days ahead with standard sessions (the clock is then moved to it).
    const first = (
      await t.db.execute(sql`
      select s.start_at from slots s join slot_types st on st.id = s.slot_type_id
      where s.location_id = ${sydney}::uuid and st.slug = 'standard' and s.start_at > now() + interval '2 days'
        and extract(isodow from s.start_at at time zone ${SYDNEY}) <> 4
      order by s.start_at limit 1`)
    ).rows[0]!;
    day = new Intl.DateTimeFormat('en-CA', { timeZone: SYDNEY }).format(new Date(first.start_at as string));
    sessions = (
      await t.db.execute(sql`
      select s.id, s.start_at from slots s join slot_types st on st.id = s.slot_type_id
      where s.location_id = ${sydney}::uuid and st.slug = 'standard' and s.kind = 'session'
        and s.start_at >= ${zonedToInstant(day, '10:00', SYDNEY).toISOString()}::timestamptz and s.start_at < ${zonedToInstant(day, '17:30', SYDNEY).toISOString()}::timestamptz
      order by s.start_at`)
    ).rows as { id: string; start_at: string }[];
    const [p] = await t.db.select().from(packages).where(eq(packages.slug, 'classic-print'));
    classic = p!.id;
    elf = await createPerson(t.db, true, { firstName: 'Buddy', lastName: 'Elf' });
    family = await createPerson(t.db, false);
  });
  afterAll(async () => t?.close());
  // The day, 9:45 am in Sydney: before the first session.
  beforeEach(() => clock.set(zonedToInstant(day, '09:45', SYDNEY)));

  describe('access', () => {
    it('refuses a customer with 403 STAFF_ONLY and no token with 401; lets staff in', async () => {
      const url = `/staff/run-sheet?locationId=${sydney}`;
      const refused = await call('GET', url, family);
      expectContractError(refused, 403, 'STAFF_ONLY');
      expect(refused.json().error).toBe('Staff only');
      expectContractError(await call('GET', url, null), 401, 'UNAUTHENTICATED');
      expect((await call('GET', url, elf)).statusCode).toBe(200);
      // And the customer routes still refuse staff.
      expectContractError(await call('GET', '/bookings/upcoming-bookings', elf), 403, 'STAFF_NOT_ALLOWED');
    });
  });

  it('lists locations, packages and add-ons for the staff app', async () => {
    const catalogue = (await call('GET', '/staff/catalogue', elf)).json();
    expect(catalogue.locations.map((l: { id: string }) => l.id)).toContain(sydney);
    expect(catalogue.packages).toContainEqual({ id: classic, name: 'Classic Print', priceCents: 3995, maxQuantity: 3, slotTypeSlugs: null });
    expect(catalogue.addOns.length).toBeGreaterThan(0);
    expectContractError(await call('GET', '/staff/catalogue', family), 403, 'STAFF_ONLY');
  });

  describe('run sheet', () => {
    it("lists every session and break of the day in order, today in the location's zone by default, with counts", async () => {
      const s = session();
      const booked = await bookDirect(t.db, family, s.id);
      const sheet = (await call('GET', `/staff/run-sheet?locationId=${sydney}`, elf)).json();
      expect(sheet).toMatchObject({ date: day, timezone: SYDNEY, location: { id: sydney, timezone: SYDNEY } });
      const starts = sheet.items.map((i: { slot: { startAt: string } }) => i.slot.startAt);
      expect(starts).toEqual([...starts].sort());
      expect(sheet.items.some((i: { slot: { kind: string } }) => i.slot.kind === 'break')).toBe(true);
      const item = sheet.items.find((i: { booking: { id: string } | null }) => i.booking?.id === booked.id);
      expect(item.slot).toMatchObject({ id: s.id, kind: 'session', state: 'booked', slotType: { slug: 'standard', name: 'Santa photos' } });
      expect(item.booking).toMatchObject({
        reference: booked.reference,
        status: 'completed',
        source: 'online',
        attendance: 'confirmed',
        customer: { firstName: 'Olive', lastName: 'Ng', email: family.email },
        details: FAMILY,
        items: [expect.objectContaining({ name: 'Classic Print', quantity: 1 })],
        checkedInAt: null,
        noShowAt: null,
        actions: [],
        checkInCode: null,
      });
      expect(sheet.counts).toMatchObject({ booked: 1, checkedIn: 0, noShow: 0, cancelled: 0, people: 4 });
      expect(sheet.counts.sessions).toBeGreaterThan(30);
      expect(sheet.counts.breaks).toBeGreaterThan(0);
      expect(sheet.counts.free).toBe(sheet.counts.sessions - 1);
    });

    it('filter=break lists the breaks only; another date is that day there', async () => {
      const breaks = (await call('GET', `/staff/run-sheet?locationId=${sydney}&date=${day}&filter=break`, elf)).json();
      expect(breaks.items.length).toBeGreaterThan(0);
      expect(breaks.items.every((i: { slot: { kind: string; state: string } }) => i.slot.kind === 'break' && i.slot.state === 'break')).toBe(true);
      const tomorrow = (await call('GET', `/staff/run-sheet?locationId=${sydney}&date=${addDays(day, 1)}`, elf)).json();
      expect(tomorrow.date).toBe(addDays(day, 1));
      expect(tomorrow.items.every((i: { booking: unknown }) => i.booking === null)).toBe(true);
    });

    it('shows a paid booking that was cancelled, but not an unpaid checkout', async () => {
      const gone = await bookDirect(t.db, family, session().id, { status: 'cancelled' });
      const unpaid = await bookDirect(t.db, family, session().id, { status: 'payment_pending' });
      const sheet = (await call('GET', `/staff/run-sheet?locationId=${sydney}`, elf)).json();
      const ids = sheet.items.map((i: { booking: { id: string } | null }) => i.booking?.id);
      expect(ids).toContain(gone.id);
      expect(ids).not.toContain(unpaid.id);
      expect(sheet.items.find((i: { booking: { id: string } | null }) => i.booking?.id === gone.id).booking.attendance).toBe('cancelled');
    });

    it('validates its query: 400 for a bad date, filter or location id, an unknown field; 404 for an unknown location', async () => {
      for (const q of [`locationId=${sydney}&date=2026-13-01`, `locationId=${sydney}&filter=sessions`, 'locationId=nope', `locationId=${sydney}&extra=1`, '']) {
        expectContractError(await call('GET', `/staff/run-sheet?${q}`, elf), 400, 'VALIDATION_FAILED');
      }
      expectContractError(await call('GET', '/staff/run-sheet?locationId=00000000-0000-4000-8000-000000000000', elf), 404, 'NOT_FOUND');
    });
  });

  describe('check-in', () => {
    it('by the QR code: 200 with checkedInAt and the action (who, what, when); twice is harmless', async () => {
      const booked = await bookDirect(t.db, family, session().id);
      const code = await checkInCodeFor(t.db, booked);
      const first = await call('POST', '/staff/check-ins', elf, { locationId: sydney, code });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ id: booked.id, attendance: 'checked_in', checkedInAt: clock.now().toISOString(), actions: [{ action: 'check_in', staffEmail: elf.email, at: clock.now().toISOString() }] });
      clock.advance(5_000);
      const again = await call('POST', '/staff/check-ins', elf, { locationId: sydney, code: ` ${code.toLowerCase()} ` });
      expect(again.statusCode).toBe(200);
      expect(again.json().checkedInAt).toBe(first.json().checkedInAt);
      expect(again.json().actions).toHaveLength(1);
    });

    it('by the reference, as typed (case and spaces forgiven)', async () => {
      const booked = await bookDirect(t.db, family, session().id);
      const res = await call('POST', '/staff/check-ins', elf, { locationId: sydney, reference: ` ${booked.reference.toLowerCase()}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().attendance).toBe('checked_in');
    });

    it('404 for an unknown reference or a forged code; 400 for neither or both', async () => {
      const booked = await bookDirect(t.db, family, session().id);
      expectContractError(await call('POST', '/staff/check-ins', elf, { locationId: sydney, reference: 'KR-22222' }), 404, 'NOT_FOUND');
      expectContractError(await call('POST', '/staff/check-ins', elf, { locationId: sydney, code: `${booked.reference}-AAAAAAAAAAAAAAAA` }), 404, 'NOT_FOUND');
      expectContractError(await call('POST', '/staff/check-ins', elf, { locationId: sydney, code: 'not a code' }), 404, 'NOT_FOUND');
      expectContractError(await call('POST', '/staff/check-ins', elf, { locationId: sydney }), 400, 'VALIDATION_FAILED');
      expectContractError(await call('POST', '/staff/check-ins', elf, { locationId: sydney, code: 'x', reference: booked.reference }), 400, 'VALIDATION_FAILED');
    });

    it('409 BOOKING_CANCELLED for a cancelled booking (its code too), 409 BOOKING_NOT_CONFIRMED for an unpaid one', async () => {
      const gone = await bookDirect(t.db, family, session().id, { status: 'cancelled' });
      expectContractError(await call('POST', '/staff/check-ins', elf, { locationId: sydney, code: await checkInCodeFor(t.db, gone) }), 409, 'BOOKING_CANCELLED');
      expectContractError(await call('POST', '/staff/check-ins', elf, { locationId: sydney, reference: gone.reference }), 409, 'BOOKING_CANCELLED');
      const unpaid = await bookDirect(t.db, family, session().id, { status: 'payment_pending' });
      expectContractError(await call('POST', '/staff/check-ins', elf, { locationId: sydney, reference: unpaid.reference }), 409, 'BOOKING_NOT_CONFIRMED');
    });

    it('409 WRONG_LOCATION_OR_DAY naming the place and local time, at another location or on another day', async () => {
      const s = session();
      const booked = await bookDirect(t.db, family, s.id);
      const elsewhere = await call('POST', '/staff/check-ins', elf, { locationId: brisbane, reference: booked.reference });
      expectContractError(elsewhere, 409, 'WRONG_LOCATION_OR_DAY');
      expect(elsewhere.json().error).toMatch(new RegExp(`^Booking ${booked.reference} is for Kringle Sydney, Pitt Street, \\w{3} \\d+ \\w{3}, \\d+:\\d\\d [ap]m AE[DS]T`));
      clock.set(zonedToInstant(addDays(day, -1), '16:00', SYDNEY));
      expectContractError(await call('POST', '/staff/check-ins', elf, { locationId: sydney, reference: booked.reference }), 409, 'WRONG_LOCATION_OR_DAY');
      const untouched = (await call('GET', `/staff/run-sheet?locationId=${sydney}&date=${day}`, elf)).json();
      expect(untouched.items.find((i: { booking: { id: string } | null }) => i.booking?.id === booked.id).booking.checkedInAt).toBeNull();
    });

    it('undo within 60 seconds; after that 409 UNDO_WINDOW_CLOSED; with nothing to undo 409 NOTHING_TO_UNDO', async () => {
      const a = await bookDirect(t.db, family, session().id);
      await call('POST', '/staff/check-ins', elf, { locationId: sydney, reference: a.reference });
      clock.advance(59_000);
      const undone = await call('POST', `/staff/bookings/${a.id}/undo`, elf);
      expect(undone.statusCode, undone.body).toBe(200);
      expect(undone.json()).toMatchObject({ attendance: 'confirmed', checkedInAt: null, actions: [{ action: 'check_in' }, { action: 'undo_check_in', staffEmail: elf.email }] });
      expectContractError(await call('POST', `/staff/bookings/${a.id}/undo`, elf), 409, 'NOTHING_TO_UNDO');
      await call('POST', '/staff/check-ins', elf, { locationId: sydney, reference: a.reference });
      clock.advance(61_000);
      expectContractError(await call('POST', `/staff/bookings/${a.id}/undo`, elf), 409, 'UNDO_WINDOW_CLOSED');
      expectContractError(await call('POST', '/staff/bookings/00000000-0000-4000-8000-000000000000/undo', elf), 404, 'NOT_FOUND');
    });
  });

  describe('no-show', () => {
    it('only once the session has started; harmless twice; undone at any time; a late family checks in over it', async () => {
      const s = session();
      const b = await bookDirect(t.db, family, s.id);
      expectContractError(await call('POST', `/staff/bookings/${b.id}/no-show`, elf), 409, 'SESSION_NOT_STARTED');
      clock.set(new Date(new Date(s.start_at).getTime() + MIN));
      const marked = await call('POST', `/staff/bookings/${b.id}/no-show`, elf);
      expect(marked.statusCode, marked.body).toBe(200);
      expect(marked.json()).toMatchObject({ attendance: 'no_show', noShowAt: clock.now().toISOString() });
      expect((await call('POST', `/staff/bookings/${b.id}/no-show`, elf)).json().actions).toHaveLength(1);
      clock.advance(30 * MIN);
      expect((await call('POST', `/staff/bookings/${b.id}/undo`, elf)).json()).toMatchObject({ attendance: 'confirmed', noShowAt: null });
      await call('POST', `/staff/bookings/${b.id}/no-show`, elf);
      const late = await call('POST', '/staff/check-ins', elf, { locationId: sydney, reference: b.reference });
      expect(late.json()).toMatchObject({ attendance: 'checked_in', noShowAt: null });
      expectContractError(await call('POST', `/staff/bookings/${b.id}/no-show`, elf), 409, 'ALREADY_CHECKED_IN');
      expect(late.json().actions.map((a: { action: string }) => a.action)).toEqual(['no_show', 'undo_no_show', 'no_show', 'check_in']);
    });

    it('409 BOOKING_CANCELLED for a cancelled booking; 404 for an unknown one', async () => {
      const s = session();
      const gone = await bookDirect(t.db, family, s.id, { status: 'cancelled' });
      clock.set(new Date(new Date(s.start_at).getTime() + MIN));
      expectContractError(await call('POST', `/staff/bookings/${gone.id}/no-show`, elf), 409, 'BOOKING_CANCELLED');
      expectContractError(await call('POST', '/staff/bookings/00000000-0000-4000-8000-000000000000/no-show', elf), 404, 'NOT_FOUND');
    });
  });

  describe('walk-ins', () => {
    const body = (slotId: string, extra: object = {}) => ({ slotId, firstName: 'Ada', lastName: 'Walker', details: FAMILY, packages: [{ id: classic, quantity: 1 }], addOns: [], ...extra });

    it('sells a free session today: 201 walk-in, paid in store, the receipt mailed; the session is gone for everyone at once', async () => {
      const s = session();
      const date = day;
      // This process has answered availability for the day before the sale (cached answers).
      const before = (await call('GET', `/booking-slot/${sydney}/available-slots?date=${date}`, family)).json();
      expect(before.items.find((i: { id: string }) => i.id === s.id).status).toBe('available');
      const res = await call('POST', '/staff/walk-ins', elf, body(s.id, { email: 'ada@example.com' }));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        source: 'walkin',
        status: 'completed',
        attendance: 'confirmed',
        customer: { firstName: 'Ada', lastName: 'Walker', email: 'ada@example.com' },
        amountCents: 3995,
        details: FAMILY,
        actions: [{ action: 'walk_in', staffEmail: elf.email }],
      });
      const order = (await t.db.execute(sql`select status, paid_at, payment_intent_id from orders where booking_id = ${res.json().id}::uuid`)).rows;
      expect(order).toEqual([{ status: 'paid', paid_at: expect.anything(), payment_intent_id: null }]);
      const after = (await call('GET', `/booking-slot/${sydney}/available-slots?date=${date}`, family)).json();
      expect(after.items.find((i: { id: string }) => i.id === s.id).status).toBe('booked');
      expectContractError(await call('POST', '/bookings/reservation', family, { slotId: s.id }), 409, 'SLOT_UNAVAILABLE');
      expectContractError(await call('POST', '/staff/walk-ins', elf, body(s.id)), 409, 'SLOT_UNAVAILABLE');
      const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'ada@example.com'));
      expect(mail!.subject).toContain(res.json().reference);
      expect(mail!.attachments).toEqual([expect.objectContaining({ contentType: 'application/pdf' })]);
      expect(Buffer.from(mail!.attachments[0]!.content, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
      // Walk-ins get no reminder (the booking's account is the staff member's).
      const sheet = (await call('GET', `/staff/run-sheet?locationId=${sydney}`, elf)).json();
      expect(sheet.items.find((i: { booking: { id: string } | null }) => i.booking?.id === res.json().id).slot.state).toBe('booked');
    });

    it('without an e-mail, no mail; the walk-in checks in like anyone', async () => {
      const before = (await t.db.select().from(mailOutbox)).length;
      const res = await call('POST', '/staff/walk-ins', elf, body(session().id));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().customer.email).toBeNull();
      expect((await t.db.select().from(mailOutbox)).length).toBe(before);
      expect((await call('POST', '/staff/check-ins', elf, { locationId: sydney, reference: res.json().reference })).json().attendance).toBe('checked_in');
    });

    it('409 SLOT_UNAVAILABLE for a session held online, a break, one over, or one on another day', async () => {
      // A later session (the hold's lead time), by a family with no other bookings.
      const held = sessions.at(-3)!;
      const holder = await createPerson(t.db, false);
      const hold = await call('POST', '/bookings/reservation', holder, { slotId: held.id });
      expect(hold.statusCode, hold.body).toBe(201);
      expectContractError(await call('POST', '/staff/walk-ins', elf, body(held.id)), 409, 'SLOT_UNAVAILABLE');
      const brk = (await call('GET', `/staff/run-sheet?locationId=${sydney}&filter=break`, elf)).json().items[0].slot.id;
      expectContractError(await call('POST', '/staff/walk-ins', elf, body(brk)), 409, 'SLOT_UNAVAILABLE');
      const early = sessions[0]!;
      clock.set(zonedToInstant(day, '16:00', SYDNEY));
      expectContractError(await call('POST', '/staff/walk-ins', elf, body(early.id)), 409, 'SLOT_UNAVAILABLE');
      clock.set(zonedToInstant(addDays(day, -1), '12:00', SYDNEY));
      expectContractError(await call('POST', '/staff/walk-ins', elf, body(sessions.at(-1)!.id)), 409, 'SLOT_UNAVAILABLE');
      expectContractError(await call('POST', '/staff/walk-ins', elf, body('00000000-0000-4000-8000-000000000000')), 404, 'NOT_FOUND');
    });

    it('400 for details the session does not allow, items not offered, and every limit of the body', async () => {
      const slotId = sessions.at(-2)!.id;
      const bad = [
        { details: { ...FAMILY, pets: 1 } },
        { details: { ...FAMILY, adults: 7 } },
        { details: { ...FAMILY, children: [], adults: 0 } },
        { packages: [{ id: '00000000-0000-4000-8000-000000000000', quantity: 1 }] },
        { packages: [] },
        { packages: [{ id: classic, quantity: 4 }] },
        { addOns: [{ id: classic, quantity: 11 }] },
        { firstName: '' },
        { lastName: 'x'.repeat(61) },
        { email: 'not-an-email' },
        { surprise: true },
      ];
      for (const extra of bad) {
        const res = await call('POST', '/staff/walk-ins', elf, body(slotId, extra));
        expectContractError(res, 400, 'VALIDATION_FAILED');
      }
      const pets = await call('POST', '/staff/walk-ins', elf, body(slotId, { details: { ...FAMILY, pets: 1 } }));
      expect(pets.json().details).toEqual([{ path: 'body.details.pets', message: 'Pets come to pet nights only.' }]);
      // Nothing was sold.
      expect((await call('POST', '/staff/walk-ins', elf, body(slotId))).statusCode).toBe(201);
    });
  });

  describe('CSV export', () => {
    it('text/csv, a row per booking and per free session, every cell quoted, formulas defused', async () => {
      const s = session();
      const naughty = { ...FAMILY, noteForSanta: '=HYPERLINK("http://evil.example","click")', accessNote: '+61 400 000 000', children: [{ firstName: '@Mia', age: 6 }] };
      const b = await bookDirect(t.db, family, s.id, { details: naughty });
      const res = await call('GET', `/staff/run-sheet.csv?locationId=${sydney}&date=${day}`, elf);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="run-sheet-sydney-pitt-street-${day}.csv"`);
      const lines = res.body.replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toMatch(/^"Start","End","Session","Reference","Family"/);
      const row = lines.find((l) => l.includes(b.reference))!;
      expect(row).toContain('"\'=HYPERLINK(""http://evil.example"",""click"")"');
      expect(row).toContain('"\'+61 400 000 000"');
      expect(row).toContain('"\'@Mia (6)"');
      expect(row).toContain('"Olive Ng"');
      expect(lines.filter((l) => l.includes('"Break"')).length).toBeGreaterThan(0);
      expectContractError(await call('GET', `/staff/run-sheet.csv?locationId=${sydney}`, family), 403, 'STAFF_ONLY');
    });
  });
});
