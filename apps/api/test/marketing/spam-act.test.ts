import { FAMILY_CONSENTS } from '@kringle/contracts/family-consents';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpCatcher, type SmtpCatcher } from '../../src/dev/smtp-catcher';
import { createOutboxJob } from '../../src/jobs/outbox.job';
import { runPhotoRetention } from '../../src/modules/photos/photo-retention.service';
import { privacyWorld, type Family, type PrivacyWorld } from '../privacy/privacy-world';

const VERSION = FAMILY_CONSENTS.marketing_email.version;

/**
 * Spam Act 2003 (issue 51, decision 0097): news and offers only to a family that opted in, apart
 * from any booking, with the words' version recorded; every mail that carries one has RFC 8058's
 * one-click unsubscribe, and a POST to it ends the news at once.
 */
describe('Spam Act: opt-in news, one-click unsubscribe', () => {
  let w: PrivacyWorld;
  let catcher: SmtpCatcher;
  beforeAll(async () => {
    w = await privacyWorld();
    catcher = await startSmtpCatcher(w.t.databaseUrl);
  });
  afterAll(async () => {
    await catcher?.stop();
    await w?.close();
  });

  const consents = async (who: Family) =>
    (await w.call('GET', '/user/consents', who)).json().items as { kind: string; given: boolean }[];
  const setNews = (who: Family, body: object) => w.call('PUT', '/user/consents/marketing_email', who, body);

  /** A paid booking whose gallery has just opened; the photos job queues its "ready" mail, the outbox sends it. */
  async function galleryMailTo(who: Family) {
    const booked = await w.book(who);
    const now = w.clock.now();
    await w.t.db.execute(sql`
      insert into photo_galleries (booking_id, first_upload_at, expires_at)
      values (${booked.id}::uuid, ${now.toISOString()}::timestamptz,
      ${new Date(now.getTime() + 30 * 86_400_000).toISOString()}::timestamptz)`);
    await runPhotoRetention(w.t.app);
    await createOutboxJob(w.t.app, { smtpUrl: catcher.url })!.run();
    const mails = (await w.t.app.inject(`/api/v1/dev/outbox?to=${encodeURIComponent(who.email)}`)).json().items as {
      subject: string;
      text: string;
      headers: Record<string, string>;
    }[];
    const mail = mails.find((m) => m.subject.startsWith('Your photos with Santa are ready'));
    expect(mail).toBeDefined();
    return mail!;
  }

  it(
    'news are off by default, and a booking mail to such a family offers nothing and has no list ' + 'headers',
    async () => {
      const who = await w.family();
      expect(await consents(who)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ kind: 'marketing_email', given: false }),
          expect.objectContaining({ kind: 'photo_showcase', given: false }),
        ]),
      );
      const mail = await galleryMailTo(who);
      expect(mail.text).not.toMatch(/buy|offer|unsubscribe/i);
      expect(mail.headers['list-unsubscribe']).toBeUndefined();
      expect(mail.headers['list-unsubscribe-post']).toBeUndefined();
      // Factual, and it names its sender.
      expect(mail.text).toContain(`The ${w.t.config.BRAND_NAME} team`);
    },
  );

  it('opting in records the words’ version; old words are refused', async () => {
    const who = await w.family();
    const stale = await setNews(who, { given: true, wordingVersion: '2020-01-01' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('CONSENT_WORDING_CHANGED');
    expect((await setNews(who, { given: true })).statusCode).toBe(409);
    const given = await setNews(who, { given: true, wordingVersion: VERSION });
    expect(given.statusCode).toBe(200);
    expect(given.json()).toMatchObject({
      kind: 'marketing_email',
      given: true,
      agreedVersion: VERSION,
      expiresAt: null,
    });
    // Again: one live record, not two.
    expect((await setNews(who, { given: true, wordingVersion: VERSION })).statusCode).toBe(200);
    const rows = (
      await w.t.db.execute(
        sql`select wording_version, withdrawn_at from family_consents where user_id =
${who.id}::uuid and kind = 'marketing_email'`,
      )
    ).rows;
    expect(rows).toEqual([{ wording_version: VERSION, withdrawn_at: null }]);
    const audit = (
      await w.t.db.execute(
        sql`select action, after from audit_entries where actor_id = ${who.id}::uuid and action like 'family.consent%'`,
      )
    ).rows;
    expect(audit).toEqual([
      { action: 'family.consent_given', after: expect.objectContaining({ wordingVersion: VERSION }) },
    ]);
  });

  it(
    'an opted-in family’s mail carries the offer with List-Unsubscribe and List-Unsubscribe-Post; ' +
      'one POST ends the news at once',
    async () => {
      const who = await w.family();
      expect((await setNews(who, { given: true, wordingVersion: VERSION })).statusCode).toBe(200);
      const mail = await galleryMailTo(who);
      expect(mail.text).toContain('buy any other photo');
      expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      const link = /^<(https?:\/\/[^>]+)>$/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1];
      expect(link).toBeDefined();
      expect(mail.text).toContain(link!);
      const url = new URL(link!);
      expect(url.pathname).toBe('/api/v1/marketing/unsubscribe');

      // The mail app's one click: a form-encoded POST, no token, no app check, no cookie.
      const res = await w.t.app.inject({
        method: 'POST',
        url: `${url.pathname}${url.search}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ unsubscribed: true });
      // Honoured at once: in the same request, not by a later job.
      expect((await consents(who)).find((c) => c.kind === 'marketing_email')?.given).toBe(false);
      const [row] = (
        await w.t.db.execute(sql`select withdrawn_via from family_consents where user_id = ${who.id}::uuid`)
      ).rows;
      expect(row).toEqual({ withdrawn_via: 'unsubscribe' });
      // A second click (a retry) is harmless; the next mail is factual again.
      const again = await w.t.app.inject({ method: 'POST', url: `${url.pathname}${url.search}` });
      expect(again.statusCode).toBe(200);
      const next = await galleryMailTo(who);
      expect(next.headers['list-unsubscribe']).toBeUndefined();
      expect(next.text).not.toContain('buy any other photo');
    },
  );

  it('a followed link shows a button (the GET changes nothing); a forged link is 404 and changes nothing', async () => {
    const who = await w.family();
    await setNews(who, { given: true, wordingVersion: VERSION });
    const token = `${who.id}.AAAAAAAAAAAAAAAAAAAAAA`;
    const forged = await w.t.app.inject({ method: 'POST', url: `/api/v1/marketing/unsubscribe?token=${token}` });
    expect(forged.statusCode).toBe(404);
    expect(forged.json().code).toBe('NOT_FOUND');
    const page = await w.t.app.inject(`/api/v1/marketing/unsubscribe?token=${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<form method="post"');
    expect((await consents(who)).find((c) => c.kind === 'marketing_email')?.given).toBe(true);
    // Withdrawn in the account in one call too.
    expect((await setNews(who, { given: false })).json()).toMatchObject({ given: false });
  });

  it('the photo-showcase consent is separate, lasts 365 days and then lapses by itself', async () => {
    const who = await w.family();
    const given = await w.call('PUT', '/user/consents/photo_showcase', who, {
      given: true,
      wordingVersion: FAMILY_CONSENTS.photo_showcase.version,
    });
    expect(given.statusCode).toBe(200);
    const expiresAt = new Date(given.json().expiresAt).getTime();
    expect(expiresAt - w.clock.now().getTime()).toBe(365 * 86_400_000);
    expect((await consents(who)).find((c) => c.kind === 'marketing_email')?.given).toBe(false);
    // A year on (the rows moved back, as the ID token would not outlive the clock moved forward).
    await w.t.db.execute(sql`
      update family_consents set given_at = given_at - interval '366 days', expires_at = expires_at - interval
      '366 days'
      where user_id = ${who.id}::uuid`);
    expect((await consents(who)).find((c) => c.kind === 'photo_showcase')?.given).toBe(false);
  });
});
