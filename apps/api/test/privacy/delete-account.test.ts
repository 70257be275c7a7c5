import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refresh, signIn, STRONG_PASSWORD } from '../helpers/accounts';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, headersOf } from '../staff/staff-fixtures';
import { privacyWorld, type Family, type PrivacyWorld } from './privacy-world';

/** DELETE /user (APP 11.2, the Children's Online Privacy Code): gone at once, but tax invoices kept. */
describe('delete my account', () => {
  let w: PrivacyWorld;
  beforeAll(async () => {
    w = await privacyWorld();
  });
  afterAll(async () => w?.close());

  const del = (who: Family, body: object) => w.call('DELETE', '/user', who, body);
  const userRow = async (id: string) =>
    (
      await w.t.db.execute(
        sql`select email, first_name, last_name, phone, deleted_at from users where id = ${id}::uuid`,
      )
    ).rows[0]!;
  const supportFinds = async (q: string) => {
    const support = await createPerson(
      w.t.db,
      true,
      { firstName: 'Sam', lastName: 'Support' },
      { role: 'support', mfaEnrolled: true },
    );
    const res = await w.call('GET', `/staff/families?q=${encodeURIComponent(q)}`, {
      headers: await headersOf(w.t.app.idTokens, support),
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().items as { user: { id: string } }[]).map((i) => i.user.id);
  };

  it('refuses a wrong password or e-mail, and changes nothing', async () => {
    const who = await w.family();
    const wrongPassword = await del(who, { password: 'not-my-password', confirmEmail: who.email });
    expectContractError(wrongPassword, 400, 'VALIDATION_FAILED');
    expect(wrongPassword.json().details[0].path).toBe('body.password');
    const wrongEmail = await del(who, { password: STRONG_PASSWORD, confirmEmail: 'someone@else.test' });
    expectContractError(wrongEmail, 400, 'VALIDATION_FAILED');
    expect(wrongEmail.json().details[0].path).toBe('body.confirmEmail');
    expect(await userRow(who.id)).toMatchObject({ email: who.email, first_name: 'Wilhelmina', deleted_at: null });
    expect((await signIn(w.t.app, who.email)).statusCode).toBe(200);
  });

  it(
    'with upcoming bookings: 409 first; with cancelUpcoming, each cancelled and refunded, then the person is ' + 'gone',
    async () => {
      const who = await w.family({ firstName: 'Ottoline', lastName: 'Featherstonehaugh' });
      const booked = await w.book(who);
      await w.call('PUT', `/bookings/${booked.id}/details`, who, {
        children: [{ firstName: 'Mia', age: 6 }],
        adults: 1,
        pets: 0,
        accessNeeds: ['sensory'],
        accessNote: 'Quiet please',
        noteForSanta: 'A red bike',
        consent: true,
      });
      const place = (
        await w.t.db.execute(sql`select location_id, slot_type_id from bookings where id = ${booked.id}::uuid`)
      ).rows[0]!;
      await w.t.db.execute(
        sql`insert into waitlist_entries (user_id, location_id, slot_type_id, date) values
(${who.id}::uuid, ${place.location_id}::uuid, ${place.slot_type_id}::uuid, current_date + 30)`,
      );
      await w.t.db.execute(
        sql`insert into photos (id, booking_id, location_id, width, height) values (gen_random_uuid(),
${booked.id}::uuid, ${place.location_id}::uuid, 1600, 1200)`,
      );
      for (const q of ['Featherstonehaugh', who.email, booked.reference])
        expect(await supportFinds(q), q).toEqual([who.id]);

      const first = await del(who, { password: STRONG_PASSWORD, confirmEmail: who.email.toUpperCase() });
      expectContractError(first, 409, 'UPCOMING_BOOKINGS');
      expect(first.json().error).toContain(booked.reference);
      expect((await w.call('GET', `/bookings/${booked.id}`, who)).json().status).toBe('completed');

      const res = await del(who, { password: STRONG_PASSWORD, confirmEmail: who.email, cancelUpcoming: true });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toEqual({
        deleted: true,
        cancelled: [{ reference: booked.reference, refundCents: booked.amountCents }],
      });
      await w.sandbox.webhooksIdle();

      // Cancelled by the policy and refunded in full, with the e-mail that says so (to be sent, then pruned).
      const [b] = (
        await w.t.db.execute(
          sql`select status, details, details_deleted_at from bookings where id = ${booked.id}::uuid`,
        )
      ).rows;
      expect(b).toMatchObject({ status: 'cancelled', details: null, details_deleted_at: expect.anything() });
      expect(
        (await w.t.db.execute(sql`select amount_cents, status from refunds where booking_id = ${booked.id}::uuid`))
          .rows,
      ).toEqual([{ amount_cents: booked.amountCents, status: 'succeeded' }]);
      const mails = (
        await w.t.db.execute(sql`select subject, text, status from mail_outbox where to_address = ${who.email}`)
      ).rows as { subject: string; text: string; status: string }[];
      expect(mails.map((m) => m.status)).toEqual(mails.map(() => 'pending'));
      expect(mails.find((m) => /cancel/i.test(m.subject) && m.subject.includes(booked.reference))).toBeDefined();

      // Sign-in stops at once: the password, the refresh cookie, and the ID token already issued (decision 0063).
      expectContractError(await signIn(w.t.app, who.email), 401, 'INVALID_CREDENTIALS');
      expectContractError(await refresh(w.t.app, who.refreshToken), 401);
      expectContractError(await w.call('GET', `/bookings/${booked.id}`, who), 401, 'UNAUTHENTICATED');
      expectContractError(await w.call('GET', '/user/me', who), 401, 'UNAUTHENTICATED');

      // Names, e-mail and phone are gone from every row; the ids stay.
      const user = await userRow(who.id);
      expect(user).toMatchObject({
        email: `deleted-${who.id}@deleted.invalid`,
        first_name: '',
        last_name: '',
        phone: null,
        deleted_at: expect.anything(),
      });
      expect(
        (await w.t.db.execute(sql`select count(*)::int as n from photos where booking_id = ${booked.id}::uuid`))
          .rows[0]!.n,
      ).toBe(0);
      expect(
        (await w.t.db.execute(sql`select status from waitlist_entries where user_id = ${who.id}::uuid`)).rows,
      ).toEqual([{ status: 'left' }]);
      expect(
        (
          await w.t.db.execute(
            sql`select count(*)::int as n from audit_entries where actor_id =
${who.id}::uuid and actor_email is not null`,
          )
        ).rows[0]!.n,
      ).toBe(0);
      expect(
        (await w.t.db.execute(sql`select count(*)::int as n from audit_entries where booking_id = ${booked.id}::uuid`))
          .rows[0]!.n,
      ).toBeGreaterThan(0);
      for (const q of ['Featherstonehaugh', 'Ottoline', who.email, '987 654', booked.reference, 'deleted'])
        expect(await supportFinds(q), q).not.toContain(who.id);

      // The tax invoice keeps its figures and the name it prints.
      const [order] = (
        await w.t.db.execute(
          sql`select amount_cents, paid_at, invoice_name, purchase_ip, policy_accepted_at from orders
            where booking_id = ${booked.id}::uuid`,
        )
      ).rows;
      // The address it paid from goes with the account (decision 0105); the policy accepted stays.
      expect(order).toMatchObject({
        amount_cents: booked.amountCents,
        paid_at: expect.anything(),
        invoice_name: 'Ottoline Featherstonehaugh',
        purchase_ip: null,
        policy_accepted_at: expect.anything(),
      });
    },
  );

  it('needs the body, and a signed-in customer', async () => {
    const who = await w.family();
    expectContractError(await del(who, { password: STRONG_PASSWORD }), 400, 'VALIDATION_FAILED');
    expectContractError(
      await w.call('DELETE', '/user', null, { password: STRONG_PASSWORD, confirmEmail: who.email }),
      401,
      'UNAUTHENTICATED',
    );
  });
});
