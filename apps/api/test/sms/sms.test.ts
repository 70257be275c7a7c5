import { sql } from 'drizzle-orm';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catcherProvider, webhookAuthToken } from '../../src/modules/sms/sms-provider';
import { deliverDueSms } from '../../src/modules/sms/sms-outbox.service';
import { enqueueSms } from '../../src/modules/sms/sms.repository';
import { SMS_WEBHOOK_PATH } from '../../src/modules/sms/sms-webhook.routes';
import { sendDueReminders } from '../../src/modules/bookings/reminders.service';
import { bookDirect, createPerson, headersOf, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';

const MOBILE = '+61412345678';

describe('SMS: the mobile on the profile, the outbox, STOP and START, "Santa is running late"', () => {
  let w: StaffDay;
  let withMobile: Person;
  const count = async (q: ReturnType<typeof sql>) => Number((await w.t.db.execute(q)).rows[0]!.n);
  const deliver = () =>
    deliverDueSms({ db: w.t.db, clock: w.clock, provider: catcherProvider(w.t.db, w.clock), log: w.t.app.log });
  const patchMe = async (who: Person, payload: object) =>
    w.t.app.inject({
      method: 'PATCH',
      url: '/api/v1/user/me',
      headers: await headersOf(w.t.app.idTokens, who),
      payload,
    });
  const caught = async (to: string) =>
    (await w.t.app.inject({ url: `/api/v1/dev/sms?to=${encodeURIComponent(to)}`, remoteAddress: '127.0.0.1' })).json()
      .items as { to: string; body: string }[];
  const inbound = (body: string, from: string, token: string) => {
    const params = { From: from, To: 'Kringle', Body: body, MessageSid: 'SM1' };
    const url = `${w.t.config.PUBLIC_URL}${SMS_WEBHOOK_PATH}`;
    return w.t.app.inject({
      method: 'POST',
      url: SMS_WEBHOOK_PATH,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(token, url, params),
      },
      payload: new URLSearchParams(params).toString(),
    });
  };

  beforeAll(async () => {
    w = await staffDay();
    withMobile = await createPerson(w.t.db, false, { firstName: 'Ana', lastName: 'Lee' });
  });
  afterAll(async () => w?.t.close());

  it('takes an Australian mobile on PATCH /user/me, stores it as E.164, and refuses a landline', async () => {
    const landline = await patchMe(withMobile, { phone: '(02) 9876 5432' });
    expect(landline.statusCode).toBe(400);
    expect(landline.json().code).toBe('VALIDATION_FAILED');
    const ok = await patchMe(withMobile, { phone: '0412 345 678', sms: { reminders: true } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().user).toMatchObject({ phone: MOBILE, sms: { reminders: true } });
    const fresh = await w.call('GET', '/user/me', w.family);
    expect(fresh.json().user.sms).toEqual({ reminders: false });
  });

  it(
    'sends the day-before reminder by SMS only to families who opted in, naming the brand in one ' + 'segment',
    async () => {
      const start = new Date((w.sessions[0]!.start_at as unknown as string) ?? '');
      w.clock.set(new Date(start.getTime() - 20 * 3600_000));
      const mine = await bookDirect(w.t.db, withMobile, w.sessions[0]!.id);
      // A family with a mobile but no opt-in gets the e-mail only.
      await w.t.db.execute(sql`update users set phone = '+61498765432' where id = ${w.family.id}::uuid`);
      await bookDirect(w.t.db, w.family, w.sessions[1]!.id);
      await sendDueReminders(w.t.app);
      expect(await deliver()).toBe(1);
      const [sms] = await caught(MOBILE);
      expect(sms!.body).toMatch(/^Kringle: see you tomorrow/);
      expect(sms!.body.length).toBeLessThanOrEqual(160);
      expect(await caught('+61498765432')).toEqual([]);
      expect(await count(sql`select count(*) as n from sms_outbox where booking_id = ${mine.id}::uuid`)).toBe(1);
    },
  );

  it('never sends a number more than 5 a day: the sixth is recorded suppressed', async () => {
    const number = '+61400000001';
    const now = w.clock.now();
    const sent = [];
    for (let i = 0; i < 6; i++)
      sent.push(
        await w.t.db.transaction((tx) =>
          enqueueSms(
            tx,
            { to: number, body: `Kringle: test ${i}`, kind: 'delay', userId: null, bookingId: null },
            now,
            5,
          ),
        ),
      );
    expect(sent).toEqual([true, true, true, true, true, false]);
    expect(
      await count(
        sql`select count(*) as n from sms_outbox where to_number = ${number} and suppressed_reason = 'daily_cap'`,
      ),
    ).toBe(1);
    // A day later the number may be texted again.
    const tomorrow = new Date(now.getTime() + 24 * 3600_000 + 1000);
    expect(
      await w.t.db.transaction((tx) =>
        enqueueSms(
          tx,
          { to: number, body: 'Kringle: again', kind: 'delay', userId: null, bookingId: null },
          tomorrow,
          5,
        ),
      ),
    ).toBe(true);
  });

  it('writes the SMS in the transaction of the change: a failure after it leaves neither', async () => {
    const number = '+61400000002';
    await expect(
      w.t.db.transaction(async (tx) => {
        await tx.execute(sql`update users set first_name = 'Changed' where id = ${withMobile.id}::uuid`);
        await enqueueSms(
          tx,
          { to: number, body: 'Kringle: x', kind: 'move', userId: null, bookingId: null },
          w.clock.now(),
          5,
        );
        throw new Error('the change failed halfway');
      }),
    ).rejects.toThrow('halfway');
    expect(await count(sql`select count(*) as n from sms_outbox where to_number = ${number}`)).toBe(0);
    expect(
      await count(sql`select count(*) as n from users where id = ${withMobile.id}::uuid and first_name = 'Changed'`),
    ).toBe(0);
  });

  it(
    'tells families booked in the next 3 hours once per 30 minutes, by SMS and e-mail, audited, shown on the ' +
      'booking',
    async () => {
      const start = new Date(w.sessions[10]!.start_at as unknown as string);
      w.clock.set(new Date(start.getTime() - 3600_000));
      const soon = await bookDirect(w.t.db, withMobile, w.sessions[10]!.id);
      const checkedIn = await bookDirect(w.t.db, w.family, w.sessions[11]!.id);
      await w.t.db.execute(sql`update bookings set checked_in_at = now() where id = ${checkedIn.id}::uuid`);
      const customer = await w.call('POST', `/staff/locations/${w.sydney}/delay`, withMobile, { minutes: 20 });
      expect(customer.statusCode).toBe(403);
      expect((await w.call('POST', `/staff/locations/${w.sydney}/delay`, w.elf, { minutes: 3 })).statusCode).toBe(400);
      expect(
        (await w.call('POST', `/staff/locations/${w.sydney}/delay`, w.elf, { minutes: 20, message: 'x'.repeat(161) }))
          .statusCode,
      ).toBe(400);

      const first = await w.call('POST', `/staff/locations/${w.sydney}/delay`, w.elf, {
        minutes: 20,
        message: 'Sorry!',
      });
      expect(first.statusCode, first.body).toBe(202);
      expect(first.json().families).toBe(1);
      const again = await w.call('POST', `/staff/locations/${w.sydney}/delay`, w.elf, { minutes: 30 });
      expect(again.json().families).toBe(0);
      w.clock.advance(31 * 60_000);
      expect((await w.call('POST', `/staff/locations/${w.sydney}/delay`, w.elf, { minutes: 25 })).json().families).toBe(
        1,
      );

      expect(await count(sql`select count(*) as n from delay_notices where booking_id = ${soon.id}::uuid`)).toBe(2);
      expect(await count(sql`select count(*) as n from delay_notices where booking_id = ${checkedIn.id}::uuid`)).toBe(
        0,
      );
      expect(
        await count(
          sql`select count(*) as n from audit_entries where action = 'booking.delay_notified' and booking_id =
${soon.id}::uuid`,
        ),
      ).toBe(2);
      expect(
        await count(
          sql`select count(*) as n from mail_outbox where to_address =
${withMobile.email} and subject like 'Santa is running%'`,
        ),
      ).toBe(2);
      await deliver();
      const texts = (await caught(MOBILE)).filter((m) => m.body.includes('running about'));
      expect(texts).toHaveLength(2);
      expect(texts.map((m) => m.body.slice(0, 44)).sort()).toEqual([
        'Kringle: Santa is running about 20 min late ',
        'Kringle: Santa is running about 25 min late ',
      ]);
      expect(texts.every((m) => m.body.length <= 160)).toBe(true);
      const booking = (await w.call('GET', `/bookings/${soon.id}`, withMobile)).json();
      expect(booking.delay).toMatchObject({ minutes: 25, message: null });
      expect(new Date(booking.delay.expectedStartAt).getTime()).toBe(start.getTime() + 25 * 60_000);
    },
  );

  it('STOP from a validly signed webhook stops the number, a forged one changes nothing, START lifts it', async () => {
    const token = webhookAuthToken(w.t.config, w.t.app.secrets.jwtPrivateKeyPem)!;
    const forged = await inbound('STOP', '0412 345 678', 'not-the-auth-token-at-all');
    expect(forged.statusCode).toBe(400);
    expect(await count(sql`select count(*) as n from sms_opt_outs where number = ${MOBILE}`)).toBe(0);

    const stop = await inbound('stop', '0412 345 678', token);
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.headers['content-type']).toContain('text/xml');
    expect(await count(sql`select count(*) as n from sms_opt_outs where number = ${MOBILE}`)).toBe(1);

    // Queued before the STOP, or after it: neither is sent.
    await w.t.db.transaction((tx) =>
      enqueueSms(
        tx,
        { to: MOBILE, body: 'Kringle: after stop', kind: 'delay', userId: null, bookingId: null },
        w.clock.now(),
        99,
      ),
    );
    const before = (await caught(MOBILE)).length;
    await deliver();
    expect((await caught(MOBILE)).length).toBe(before);

    expect((await inbound('START', MOBILE, token)).statusCode).toBe(200);
    expect(await count(sql`select count(*) as n from sms_opt_outs where number = ${MOBILE}`)).toBe(0);
  });

  it("puts the number, its choices, its messages and the delay notices in the family's export", async () => {
    const res = await w.call('GET', '/user/export', withMobile);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const data = JSON.parse(res.body);
    expect(data.sms).toEqual([{ number: MOBILE, reminders: true, repliedStop: false }]);
    expect(data.smsMessages.map((m: { kind: string }) => m.kind)).toEqual(['reminder', 'delay', 'delay']);
    expect(data.delayNotices).toHaveLength(2);
    // Another family's messages are not in it.
    expect(JSON.stringify(data)).not.toContain('+61400000001');
  });
});
