import { eq, sql } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { greeting, nameParts } from '@kringle/contracts/names';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../../src/db/schema/bookings';
import { startSmtpCatcher, type SmtpCatcher } from '../../src/dev/smtp-catcher';
import { createOutboxJob } from '../../src/jobs/outbox.job';
import { APP_ORIGIN, bearer, latestLink, register, signIn } from '../helpers/accounts';
import type { TestCustomer } from '../helpers/customers';
import { escapeHtml } from '../../src/modules/mail/mail-layout';
import { bookingWorld, type BookingWorld } from './security-fixtures';

const SCRIPT_NAME = '<img src=x onerror=alert(1)>';
const SQL_NAME = "'; drop table users;--";
const SCRIPT_TOO = '"><svg onload=alert(document.cookie)>';
const SQL_TOO = "Robert'); DROP TABLE bookings;--";
const REASON = "<script>alert('reason')</script>'; delete from bookings where '1'='1";
/** Raw markup an HTML context must never contain (escaped, it is harmless text). */
const RAW_MARKUP = /<img src=x|<svg onload|<script>alert/i;

/**
 * ASVS 5.2 / 5.3: SQL- and script-looking input is stored verbatim (parameterised SQL), comes
 * back as JSON data, is HTML-escaped in e-mails and the dev mailbox, and is plain text in the PDF
 * receipt. The browser side is e2e/tests/security-inert-input.spec.ts.
 */
describe('SQL- and script-looking input stays inert', () => {
  let w: BookingWorld;
  let catcher: SmtpCatcher;
  let who: TestCustomer;
  const email = 'inert@example.com';

  beforeAll(async () => {
    w = await bookingWorld();
    catcher = await startSmtpCatcher(w.t.databaseUrl);
  });
  afterAll(async () => {
    await catcher?.stop();
    await w?.close();
  });

  const deliverMail = async () => {
    const job = createOutboxJob(w.t.app, { smtpUrl: catcher.url })!;
    await job.run();
    job.close();
  };

  it('registers the name verbatim and returns it as JSON data, the users table intact', async () => {
    const created = await w.t.app.inject({
      method: 'POST',
      url: '/api/v1/user',
      payload: { email, password: 'Sleigh-Bells-Ring-42', firstName: SCRIPT_NAME, lastName: SQL_NAME },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().user).toMatchObject({ firstName: SCRIPT_NAME, lastName: SQL_NAME });
    const session = await signIn(w.t.app, email);
    const { idToken, user } = session.json() as { idToken: string; user: { id: string } };
    who = { id: user.id, email, idToken, headers: bearer(idToken) };
    const me = await w.t.app.inject({ url: '/api/v1/user/me', headers: who.headers });
    expect(me.headers['content-type']).toMatch(/^application\/json/);
    expect(me.headers['x-content-type-options']).toBe('nosniff');
    // The display name is the spec's capitalised full name, still plain data.
    expect(me.json().user.displayName).toBe(nameParts(SCRIPT_NAME, SQL_NAME).fullname);
    const stored = await w.t.db.execute(
      sql`select first_name, last_name, (select count(*)::int from users) as n from users where email = ${email}`,
    );
    expect(stored.rows[0]).toEqual({ first_name: SCRIPT_NAME, last_name: SQL_NAME, n: expect.any(Number) });
    // A second registration with SQL in the e-mail's shape is just a validation failure.
    expect((await register(w.t.app, "x'or'1'='1@example.com")).statusCode).toBeLessThan(500);
  });

  it(
    'escapes the name in the verification e-mail (through the real SMTP catcher) and keeps it as text in the text ' +
      'part',
    async () => {
      await w.t.app.inject({
        method: 'POST',
        url: '/api/v1/user/auth/email-verification',
        headers: who.headers,
        payload: { redirectUrl: APP_ORIGIN },
      });
      const oobCode = (await latestLink(w.t.db, email)).searchParams.get('oobCode')!;
      expect(
        (await w.t.app.inject({ method: 'POST', url: '/api/v1/auth/action/verify-email', payload: { oobCode } }))
          .statusCode,
      ).toBe(200);
      await deliverMail();
      const [mail] = (await w.t.app.inject(`/api/v1/dev/outbox?to=${email}`)).json().items as {
        subject: string;
        html: string;
        text: string;
      }[];
      expect(mail!.html).not.toMatch(RAW_MARKUP);
      // The greeting capitalises first letters as typed (issue 17), and stays escaped text.
      expect(mail!.html).toContain(escapeHtml(greeting(SCRIPT_NAME)));
      expect(escapeHtml(greeting(SCRIPT_NAME))).toBe('Hi &lt;img Src=x Onerror=alert(1)&gt;,');
      expect(mail!.text).toContain(greeting(SCRIPT_NAME));
    },
  );

  it('stores a profile update and a cancellation reason verbatim', async () => {
    const patched = await w.t.app.inject({
      method: 'PATCH',
      url: '/api/v1/user/me',
      headers: who.headers,
      payload: { firstName: SCRIPT_TOO, lastName: SQL_TOO },
    });
    expect(patched.json().user).toMatchObject({ firstName: SCRIPT_TOO, lastName: SQL_TOO });
    const paid = await w.book(who, { pay: true });
    const before = (await w.t.db.execute(sql`select count(*)::int as n from bookings`)).rows[0]!.n;
    const cancelled = await w.post(`/api/v1/bookings/${paid.bookingId}/cancel`, who, { reason: REASON });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const [row] = await w.t.db.select().from(bookings).where(eq(bookings.id, paid.bookingId));
    expect(row!.cancelReason).toBe(REASON);
    expect((await w.t.db.execute(sql`select count(*)::int as n from bookings`)).rows[0]!.n).toBe(before);

    // The receipts print the (capitalised) name as text.
    const fullname = nameParts(SCRIPT_TOO, SQL_TOO).fullname;
    for (const kind of ['payment-receipt', 'refund-receipt']) {
      const pdf = await w.get(`/api/v1/orders/${paid.bookingId}/orders/${paid.orderId}/${kind}`, who);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toMatch(/^attachment;/);
      const text = (await new PDFParse({ data: pdf.rawPayload }).getText()).text;
      expect(text).toContain(fullname);
    }
  });

  it('escapes the names in every booking e-mail and in the dev mailbox page', async () => {
    await deliverMail();
    const items = (await w.t.app.inject(`/api/v1/dev/outbox?to=${email}`)).json().items as {
      subject: string;
      html: string;
      text: string;
    }[];
    expect(items.length).toBeGreaterThanOrEqual(3); // verification, booked, cancelled/refunded
    for (const mail of items) {
      expect(mail.html, mail.subject).not.toMatch(RAW_MARKUP);
      expect(mail.subject).not.toMatch(/[<>]/);
    }
    expect(items.some((m) => m.html.includes(escapeHtml(greeting(SCRIPT_TOO))))).toBe(true);
    expect(escapeHtml(greeting(SCRIPT_TOO))).toBe('Hi &quot;&gt;&lt;svg Onload=alert(document.cookie)&gt;,');

    const page = await w.t.app.inject(`/dev/mailbox?to=${email}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(RAW_MARKUP);
    const frameUrl = /src="(\/dev\/mailbox\/[\w-]+\/html)"/.exec(page.body)?.[1];
    expect(page.body).toMatch(/<iframe[^>]+sandbox="[^"]*"/);
    const frame = await w.t.app.inject(frameUrl!);
    expect(frame.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(frame.body).not.toMatch(RAW_MARKUP);
  });
});
