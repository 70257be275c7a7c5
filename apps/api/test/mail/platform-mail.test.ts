import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';
import { mailOutbox } from '../../src/db/schema/mail';
import { freePort } from '../../src/dev/free-port';
import { startSmtpCatcher, type SmtpCatcher } from '../../src/dev/smtp-catcher';
import { createOutboxJob } from '../../src/jobs/outbox.job';
import { renderEmail } from '../../src/modules/mail/mail-layout';
import { devMailboxEnabled } from '../../src/modules/mail/mail-transport';
import { enqueueMail } from '../../src/modules/mail/outbox.repository';
import { OUTBOX_POLICY, pruneOldMail } from '../../src/modules/mail/outbox.service';
import { createTestApp, type TestApp } from '../helpers/test-app';

function mail(to: string, subject: string) {
  const { html, text } = renderEmail({
    brandName: 'Kringle',
    title: subject,
    intro: 'Tap the button to confirm your e-mail address.',
    action: { label: 'Confirm e-mail', url: 'http://localhost:5173/verify?mode=verifyEmail&oobCode=abc' },
  });
  return { to, subject, html, text };
}

async function outboxRow(t: TestApp, subject: string) {
  const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.subject, subject));
  return row!;
}

describe('mail outbox and dev mailbox', () => {
  let t: TestApp;
  let catcher: SmtpCatcher;
  beforeAll(async () => {
    t = await createTestApp();
    catcher = await startSmtpCatcher(t.databaseUrl);
  });
  afterAll(async () => {
    await catcher.stop();
    await t.close();
  });

  it('sends queued mail through a real SMTP catcher and shows it in the dev outbox', async () => {
    await enqueueMail(t.db, {
      ...mail('Mary@Example.com', 'Confirm your e-mail'),
      attachments: [
        {
          filename: 'booking.ics',
          contentType: 'text/calendar',
          content: Buffer.from('BEGIN:VCALENDAR').toString('base64'),
        },
      ],
    });
    const job = createOutboxJob(t.app, { smtpUrl: catcher.url })!;
    await job.run();

    const row = await outboxRow(t, 'Confirm your e-mail');
    expect(row.status).toBe('sent');
    expect(row.attempts).toBe(1);
    expect(row.sentAt).not.toBeNull();

    const res = await t.app.inject('/api/v1/dev/outbox?to=mary@example.com');
    expect(res.statusCode).toBe(200);
    const { items } = res.json();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      to: 'mary@example.com',
      subject: 'Confirm your e-mail',
      createdAt: expect.any(String),
    });
    expect(items[0].html).toContain('href="http://localhost:5173/verify?mode=verifyEmail&amp;oobCode=abc"');
    expect(items[0].text).toContain('Confirm e-mail: http://localhost:5173/verify?mode=verifyEmail&oobCode=abc');
  });

  it('lists newest first and validates the query', async () => {
    await enqueueMail(t.db, mail('order@example.com', 'First'));
    const job = createOutboxJob(t.app, { smtpUrl: catcher.url })!;
    await job.run();
    await enqueueMail(t.db, mail('order@example.com', 'Second'));
    await job.run();
    const { items } = (await t.app.inject('/api/v1/dev/outbox?to=order@example.com')).json();
    expect(items.map((i: { subject: string }) => i.subject)).toEqual(['Second', 'First']);

    const bad = await t.app.inject('/api/v1/dev/outbox?to=x&nope=1');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_FAILED');
  });

  it('keeps a mail the SMTP server refused and retries it later with backoff', async () => {
    await enqueueMail(t.db, mail('retry@example.com', 'Retry me'));
    const dead = createOutboxJob(t.app, { smtpUrl: `smtp://127.0.0.1:${await freePort()}` })!;
    await dead.run();
    let row = await outboxRow(t, 'Retry me');
    expect(row.status).toBe('pending');
    expect(row.attempts).toBe(1);
    expect(row.lastError).toBeTruthy();
    expect(row.nextAttemptAt.getTime() - t.clock.now().getTime()).toBe(OUTBOX_POLICY.firstRetryMs);

    // Not due yet: a healthy server does not get it before the backoff ends.
    const live = createOutboxJob(t.app, { smtpUrl: catcher.url })!;
    await live.run();
    expect((await outboxRow(t, 'Retry me')).attempts).toBe(1);

    t.clock.advance(OUTBOX_POLICY.firstRetryMs);
    await live.run();
    row = await outboxRow(t, 'Retry me');
    expect(row.status).toBe('sent');
    expect(row.attempts).toBe(2);
    const { items } = (await t.app.inject('/api/v1/dev/outbox?to=retry@example.com')).json();
    expect(items).toHaveLength(1);
  });

  it('gives up after the last attempt and keeps the last error', async () => {
    await enqueueMail(t.db, mail('dead@example.com', 'Never arrives'));
    await t.db
      .update(mailOutbox)
      .set({ attempts: OUTBOX_POLICY.maxAttempts - 1 })
      .where(eq(mailOutbox.subject, 'Never arrives'));
    t.clock.advance(24 * 3600_000);
    await createOutboxJob(t.app, { smtpUrl: `smtp://127.0.0.1:${await freePort()}` })!.run();
    const row = await outboxRow(t, 'Never arrives');
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(OUTBOX_POLICY.maxAttempts);
    expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);
  });

  it('never sends a row twice when several job runs overlap', async () => {
    const count = 45;
    for (let i = 0; i < count; i++) await enqueueMail(t.db, mail('crowd@example.com', `Crowd ${i}`));
    const jobs = [0, 1, 2].map(() => createOutboxJob(t.app, { smtpUrl: catcher.url })!);
    // Batches are 20, so three concurrent passes, twice, cover 45 rows only if none is taken twice.
    await Promise.all(jobs.map((j) => j.run()));
    await Promise.all(jobs.map((j) => j.run()));
    const received = await t.db.execute<{ subject: string; n: number }>(
      sql`select subject, count(*)::int as n from dev_mailbox where to_address = 'crowd@example.com' group by subject`,
    );
    expect(received.rows).toHaveLength(count);
    expect(received.rows.every((r) => r.n === 1)).toBe(true);
    const sent = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from mail_outbox where subject like 'Crowd %' and status = 'sent' and attempts = 1`,
    );
    expect(sent.rows[0]!.n).toBe(count);
  });

  it('serves the mailbox page and a message frame that cannot run scripts', async () => {
    const page = await t.app.inject('/dev/mailbox?to=mary@example.com');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Confirm your e-mail');
    const id = /\/dev\/mailbox\/([0-9a-f-]{36})\/html/.exec(page.body)![1];
    expect(page.body).toContain('sandbox="allow-popups allow-popups-to-escape-sandbox"');
    const frame = await t.app.inject(`/dev/mailbox/${id}/html`);
    expect(frame.statusCode).toBe(200);
    expect(frame.headers['content-security-policy']).toContain("default-src 'none'");
    expect(frame.body).toContain('<base target="_blank">');
  });
});

describe('pruning old mail', () => {
  it('the outbox job deletes sent mail after 30 days and dev-mailbox mail after 7, and keeps the rest', async () => {
    const t = await createTestApp();
    const catcher = await startSmtpCatcher(t.databaseUrl);
    try {
      const now = t.app.clock.now().getTime();
      const daysAgo = (d: number) => new Date(now - d * 24 * 3600_000).toISOString();
      const row = (subject: string, status: string, sentDaysAgo: number | null) =>
        t.pool.query(
          `insert into mail_outbox (to_address, subject, html, text, status, sent_at, created_at) values ` +
            `('a@example.com', $1, '', '', $2, $3, $4)`,
          [subject, status, sentDaysAgo === null ? null : daysAgo(sentDaysAgo), daysAgo(sentDaysAgo ?? 40)],
        );
      await row('old sent', 'sent', 31);
      await row('recent sent', 'sent', 29);
      await row('old failed', 'failed', null);
      for (const [subject, d] of [
        ['old caught', 8],
        ['recent caught', 6],
      ] as const) {
        await t.pool.query(
          `insert into dev_mailbox (to_address, subject, created_at) values ('a@example.com', $1, $2)`,
          [subject, daysAgo(d)],
        );
      }
      await createOutboxJob(t.app, { smtpUrl: catcher.url })!.run();
      const subjects = async (table: string) =>
        (await t.pool.query<{ subject: string }>(`select subject from ${table} order by subject`)).rows.map(
          (r) => r.subject,
        );
      expect(await subjects('mail_outbox')).toEqual(['old failed', 'recent sent']);
      expect(await subjects('dev_mailbox')).toEqual(['recent caught']);

      // And at most the newest 1,000 caught messages, whatever their age.
      await t.pool.query(
        `insert into dev_mailbox (to_address, subject, created_at) select 'b@example.com', 'bulk ' || i, now() - i * ` +
          `interval '1 second' from generate_series(1, ${OUTBOX_POLICY.devMailboxKeep + 5}) i`,
      );
      await pruneOldMail(t.app);
      expect(Number((await t.pool.query('select count(*) from dev_mailbox')).rows[0].count)).toBe(
        OUTBOX_POLICY.devMailboxKeep,
      );
      expect((await t.pool.query(`select 1 from dev_mailbox where subject = 'bulk 1'`)).rowCount).toBe(1);
    } finally {
      await catcher.stop();
      await t.close();
    }
  });
});

describe('dev mailbox with a real SMTP server configured', () => {
  it('is absent: JSON 404', async () => {
    const t = await createTestApp({ SMTP_URL: 'smtp://mail.example.com:587' });
    try {
      const res = await t.app.inject('/api/v1/dev/outbox?to=a@example.com');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect((await t.app.inject('/dev/mailbox')).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it(
    'is never served in production: without SMTP_URL production does not start, and the routes stay off whatever is ' +
      'set',
    async () => {
      expect(() => loadConfig({ NODE_ENV: 'production', SELLER_ABN: '51 824 753 556' })).toThrow(
        /^Invalid configuration: SMTP_URL: required when NODE_ENV=production/,
      );
      // Before: production on the embedded default (no DATABASE_URL, no SMTP_URL) served it.
      expect(devMailboxEnabled({ NODE_ENV: 'production', SMTP_URL: undefined })).toBe(false);
      const t = await createTestApp({
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://mail.example.com:587',
        SELLER_ABN: '51 824 753 556',
        VOUCHER_CODE_KEY: 'a-production-voucher-code-key-of-32-chars-or-more',
        STRIPE_SECRET_KEY: 'sk_test_x',
      });
      try {
        expect((await t.app.inject('/api/v1/dev/outbox')).statusCode).toBe(404);
        expect((await t.app.inject('/dev/mailbox')).statusCode).toBe(404);
      } finally {
        await t.close();
      }
    },
  );
});
