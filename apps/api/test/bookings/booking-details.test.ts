import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { desc, eq, sql } from 'drizzle-orm';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, orders } from '../../src/db/schema/bookings';
import { packages } from '../../src/db/schema/catalogue';
import { mailOutbox } from '../../src/db/schema/mail';
import { purgeDetails } from '../../src/jobs/details-retention.job';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { verifyCheckInCode } from '../../src/modules/check-in/check-in-codes';
import { createCustomer, reauthenticate, type TestCustomer } from '../helpers/customers';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { FAMILY } from '../staff/staff-fixtures';
import { createTestApp, type TestApp } from '../helpers/test-app';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The family of the staff tests, a fresh copy each time (tests change it). */
const valid = () => structuredClone(FAMILY);

describe("who's coming and check-in codes", () => {
  let t: TestApp;
  let sandbox: StripeSandbox;
  let clock: ManualClock;
  let standard: { id: string }[];
  let petNight: { id: string }[];
  let pkg: { id: string; priceCents: number };

  const slotsOf = async (slug: string) =>
    (
      await t.db.execute(sql`
      select s.id from slots s join slot_types st on st.id = s.slot_type_id join locations l on l.id = s.location_id
      where s.kind = 'session' and st.slug = ${slug} and l.slug = 'sydney-pitt-street' and s.start_at > now() +
      interval '5 days'
      order by s.start_at limit 20`)
    ).rows as { id: string }[];

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    clock = new ManualClock(new Date());
    t = await createTestApp({ ...s.env, MAX_UPCOMING_BOOKINGS: '50' }, clock);
    await listenForWebhooks(t.app, sandbox);
    // Six weeks: the demo's own season ends on Christmas Eve, and from mid-December has no Sydney pet night five days
    // out.
    await loadSeason(t.db, demoSeason(clock.now(), { days: 42 }), clock.now());
    standard = await slotsOf('standard');
    petNight = await slotsOf('pet-night');
    const [p] = await t.db.select().from(packages).where(eq(packages.slug, 'classic-print'));
    pkg = { id: p!.id, priceCents: p!.priceCents };
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.stop();
  });

  const post = (url: string, who: TestCustomer, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });
  // With the parent's consent to keep access needs (CONSENT_REQUIRED without it: privacy/consent.test.ts).
  const put = (id: string, who: TestCustomer, payload: object) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v1/bookings/${id}/details`,
      headers: who.headers,
      payload: { consent: true, ...payload },
    });
  const get = (url: string, who: TestCustomer) => t.app.inject({ url, headers: who.headers });

  /** Hold, cart, checkout; with `pay` the card goes through the sandbox and the webhook confirms. */
  async function booking(who: TestCustomer, slotId: string, pay = true) {
    const hold = (await post('/api/v1/bookings/reservation', who, { slotId })).json();
    const cart = (
      await post('/api/v1/cart', who, { reservationId: hold.id, amount: pkg.priceCents, packages: [{ id: pkg.id }] })
    ).json();
    const checkout = (
      await post(`/api/v1/bookings/reservation/${hold.id}/checkoutOrder`, who, { cartId: cart.id })
    ).json();
    if (pay) {
      await payWithCard(sandbox, checkout.client_secret, CARDS.success);
      await sandbox.webhooksIdle();
    }
    return (await get(`/api/v1/bookings/${checkout.bookingId}`, who)).json();
  }

  it(
    'takes the details before payment, shows them in the booking and the lists, and signs a code once ' + 'paid',
    async () => {
      const who = await createCustomer(t.db, t.app.idTokens);
      const unpaid = await booking(who, standard.shift()!.id, false);
      expect(unpaid).toMatchObject({ status: 'payment_pending', details: null, checkInCode: null });
      const saved = await put(unpaid.id, who, {
        ...valid(),
        children: [
          { firstName: '  Mia ', age: 6 },
          { firstName: 'Leo', age: 3 },
        ],
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().details).toEqual(valid());
      expect(saved.json().checkInCode).toBeNull();

      // Another family: an unpaid checkout is this one's one hold (decision 0059).
      const payer = await createCustomer(t.db, t.app.idTokens);
      const paid = await booking(payer, standard.shift()!.id);
      expect(paid.status).toBe('completed');
      expect(paid.checkInCode).toMatch(/^KR-[2-9A-Z]{5}-[A-Z2-7]{16}$/);
      expect(paid.checkInCode.startsWith(`${paid.reference}-`)).toBe(true);
      expect(await verifyCheckInCode(t.db, paid.checkInCode)).toBe(paid.id);
      expect(await verifyCheckInCode(t.db, paid.checkInCode.toLowerCase())).toBe(paid.id);
      await put(paid.id, payer, valid());
      const list = (await get('/api/v1/bookings/upcoming-bookings', payer)).json();
      const item = list.items.find((b: { id: string }) => b.id === paid.id);
      expect(item).toMatchObject({ details: valid(), checkInCode: paid.checkInCode });
    },
  );

  it('refuses every limit with a readable message at the field', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const b = await booking(who, standard.shift()!.id, false);
    const child = (firstName: string, age: number) => ({ firstName, age });
    const cases: [object, string][] = [
      [{ children: Array.from({ length: 9 }, (_, i) => child(`C${i}`, 5)), adults: 0 }, 'body.children'],
      [{ children: [child('', 5)] }, 'body.children.0.firstName'],
      [{ children: [child('   ', 5)] }, 'body.children.0.firstName'],
      [{ children: [child('x'.repeat(41), 5)] }, 'body.children.0.firstName'],
      [{ children: [child('Mia', -1)] }, 'body.children.0.age'],
      [{ children: [child('Mia', 18)] }, 'body.children.0.age'],
      [{ children: [child('Mia', 2.5)] }, 'body.children.0.age'],
      [{ adults: 9 }, 'body.adults'],
      [{ adults: -1 }, 'body.adults'],
      [{ pets: 1 }, 'body.pets'],
      [{ accessNeeds: ['ramp'] }, 'body.accessNeeds.0'],
      [{ accessNeeds: ['wheelchair', 'wheelchair'] }, 'body.accessNeeds'],
      [{ accessNote: 'x'.repeat(201) }, 'body.accessNote'],
      [{ noteForSanta: 'x'.repeat(201) }, 'body.noteForSanta'],
      [{ children: [], adults: 0 }, 'body.adults'],
      [{ children: Array.from({ length: 5 }, (_, i) => child(`C${i}`, 5)), adults: 4 }, 'body.adults'],
      [{ surname: 'Claus' }, 'body'],
      // Issue 36, probe item 11: hidden characters that reorder or hide text on the run sheet.
      [{ children: [child('Mia\u202Egnp.exe', 5)] }, 'body.children.0.firstName'],
      [{ children: [child('Mia\u0007', 5)] }, 'body.children.0.firstName'],
      [{ noteForSanta: 'A bike\u2066 please' }, 'body.noteForSanta'],
    ];
    for (const [change, path] of cases) {
      const res = await put(b.id, who, { ...valid(), ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      const body = res.json();
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(
        body.details.map((d: { path: string }) => d.path),
        JSON.stringify(change),
      ).toContain(path);
      for (const d of body.details) expect(d.message.length).toBeGreaterThan(3);
    }
    // The edges themselves pass: 8 children, age 0 and 17, 40-character names, 200-character notes.
    const edge = {
      ...valid(),
      children: Array.from({ length: 8 }, (_, i) => child(`${'x'.repeat(39)}${i}`, i % 2 ? 17 : 0)),
      adults: 0,
      accessNote: 'a'.repeat(200),
      noteForSanta: 'b'.repeat(200),
      accessNeeds: ['wheelchair', 'sensory', 'auslan'],
    };
    expect((await put(b.id, who, edge)).statusCode).toBe(200);
    expect((await put(b.id, who, { ...valid(), children: [], adults: 8 })).statusCode).toBe(200);
    // A bare CR (it ends a line of the .ics) is kept as a line break, stored as LF.
    const saved = await put(b.id, who, { ...valid(), accessNeeds: ['sensory'], accessNote: 'Quiet\rplease' });
    expect(saved.statusCode).toBe(200);
    expect(JSON.stringify(saved.json())).toContain('Quiet\\nplease');
  });

  it('takes pets on a pet night only, at most 3', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const b = await booking(who, petNight.shift()!.id, false);
    expect((await put(b.id, who, { ...valid(), pets: 3 })).json().details.pets).toBe(3);
    const four = await put(b.id, who, { ...valid(), pets: 4 });
    expect(four.json().details.map((d: { path: string }) => d.path)).toContain('body.pets');
  });

  it("answers 404 for another family's booking and changes nothing", async () => {
    const owner = await createCustomer(t.db, t.app.idTokens);
    const other = await createCustomer(t.db, t.app.idTokens);
    const b = await booking(owner, standard.shift()!.id);
    await put(b.id, owner, valid());
    const res = await put(b.id, other, { ...valid(), adults: 1 });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
    expect((await get(`/api/v1/bookings/${b.id}`, other)).statusCode).toBe(404);
    expect((await get(`/api/v1/bookings/${b.id}`, owner)).json().details.adults).toBe(2);
  });

  it('locks the details once the session has started, and on a cancelled booking', async () => {
    let who = await createCustomer(t.db, t.app.idTokens);
    const b = await booking(who, standard.shift()!.id);
    clock.set(new Date(new Date(b.slot.startAt).getTime() + 60_000));
    who = await reauthenticate(t.app.idTokens, who);
    const late = await put(b.id, who, valid());
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'DETAILS_LOCKED' });
    clock.set(new Date());
    who = await reauthenticate(t.app.idTokens, who);
    const c = await booking(who, standard.shift()!.id);
    await post(`/api/v1/bookings/${c.id}/cancel`, who, {});
    expect((await put(c.id, who, valid())).json().code).toBe('DETAILS_LOCKED');
  });

  it(
    'keeps the code through a reschedule; a cancelled booking, a forged or unknown code does not check ' + 'in',
    async () => {
      const who = await createCustomer(t.db, t.app.idTokens);
      const b = await booking(who, standard.shift()!.id);
      const hold = (
        await post('/api/v1/bookings/reservation', who, { slotId: standard.shift()!.id, bookingId: b.id })
      ).json();
      const moved = (await post(`/api/v1/bookings/${b.id}/reschedule`, who, { reservationId: hold.id })).json();
      expect(moved.slot.id).toBe(hold.slotId);
      expect(moved.checkInCode).toBe(b.checkInCode);
      expect(await verifyCheckInCode(t.db, b.checkInCode)).toBe(b.id);
      const [movedMail] = await t.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, who.email))
        .orderBy(desc(mailOutbox.createdAt));
      expect(movedMail!.subject).toMatch(/^Moved:/);
      expect(movedMail!.text).toContain(`Check-in code: ${b.checkInCode}.`);
      expect(movedMail!.text).toContain("Who's coming: not told yet.");
      expect(movedMail!.attachments.map((a) => a.cid)).toContain('check-in-qr@kringle');

      const forged = `${b.reference}-${'A'.repeat(16)}`;
      expect(await verifyCheckInCode(t.db, forged)).toBeNull();
      expect(await verifyCheckInCode(t.db, b.reference)).toBeNull();
      expect(await verifyCheckInCode(t.db, 'KR-22222-AAAAAAAAAAAAAAAA')).toBeNull();
      expect(await verifyCheckInCode(t.db, `${b.checkInCode}X`)).toBeNull();
      // Another booking's tail on this reference fails: the signature covers the booking's id.
      const other = await booking(who, standard.shift()!.id);
      expect(await verifyCheckInCode(t.db, `${b.reference}-${other.checkInCode.split('-')[2]}`)).toBeNull();

      await post(`/api/v1/bookings/${b.id}/cancel`, who, {});
      expect(await verifyCheckInCode(t.db, b.checkInCode)).toBeNull();
      expect((await get(`/api/v1/bookings/${b.id}`, who)).json().checkInCode).toBeNull();
    },
  );

  it('mails the details and a scannable QR code, and puts first names and the code in the .ics', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const unpaid = await booking(who, standard.shift()!.id, false);
    await put(unpaid.id, who, valid());
    const hold = (await get(`/api/v1/bookings/${unpaid.id}`, who)).json();
    // Pay the checkout made above: continue-payment answers its client secret.
    const cont = (await post(`/api/v1/bookings/${hold.id}/continue-payment`, who)).json();
    await payWithCard(sandbox, cont.client_secret, CARDS.success);
    await sandbox.webhooksIdle();
    const b = (await get(`/api/v1/bookings/${unpaid.id}`, who)).json();
    expect(b.status).toBe('completed');
    const [mail] = await t.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, who.email))
      .orderBy(desc(mailOutbox.createdAt));
    expect(mail!.subject).toMatch(/^Booked:/);
    expect(mail!.text).toContain("Who's coming: Mia (6) and Leo (3), 2 adults.");
    expect(mail!.text).toContain('Access needs: Wheelchair access.');
    expect(mail!.text).toContain(b.checkInCode);
    expect(mail!.text).not.toContain('red bike');
    expect(mail!.html).toContain('src="cid:check-in-qr@kringle"');
    const png = mail!.attachments.find((a) => a.contentType === 'image/png')!;
    expect(png.cid).toBe('check-in-qr@kringle');
    const image = PNG.sync.read(Buffer.from(png.content, 'base64'));
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(b.checkInCode);

    const ics = (await get(`/api/v1/bookings/${b.id}/calendar.ics`, who)).body;
    expect(ics).toContain("Who's coming: Mia (6) and Leo (3)\\, 2 adults.");
    expect(ics).toContain(`Check-in code: ${b.checkInCode}.`);
    expect(ics).not.toContain('red bike');
  });

  it('deletes the details DETAILS_RETENTION_DAYS after the session, keeping the booking and its order', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const b = await booking(who, standard.shift()!.id);
    await put(b.id, who, valid());
    const end = new Date(b.slot.endAt).getTime();
    clock.set(new Date(end + 30 * DAY - 60_000));
    await purgeDetails(t.app);
    expect((await t.db.select().from(bookings).where(eq(bookings.id, b.id)))[0]!.details).not.toBeNull();
    clock.set(new Date(end + 30 * DAY + 60_000));
    // Two processes at once: each row purged once.
    const [a, c] = await Promise.all([purgeDetails(t.app), purgeDetails(t.app)]);
    expect(a + c).toBeGreaterThanOrEqual(1);
    const [row] = await t.db.select().from(bookings).where(eq(bookings.id, b.id));
    expect(row).toMatchObject({ details: null, status: 'completed', reference: b.reference });
    expect(row!.detailsDeletedAt).not.toBeNull();
    expect(await t.db.select().from(orders).where(eq(orders.bookingId, b.id))).toHaveLength(1);
    clock.set(new Date());
  });
});
