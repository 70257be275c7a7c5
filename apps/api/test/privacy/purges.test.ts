import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPrivacyPurges } from '../../src/jobs/privacy-purges.job';
import { register, STRONG_PASSWORD } from '../helpers/accounts';
import { privacyWorld, type PrivacyWorld } from './privacy-world';

const DAY = 86_400_000;

/** The purges on schedule (decision 0058), proven by moving the clock. */
describe('privacy purges', () => {
  let w: PrivacyWorld;
  beforeAll(async () => {
    w = await privacyWorld();
  });
  afterAll(async () => w?.close());

  const exists = async (id: string) =>
    (await w.t.db.execute(sql`select 1 from users where id = ${id}::uuid`)).rows.length === 1;

  it('deletes accounts never verified after 30 days, and no other', async () => {
    const now = w.clock.now();
    const unverified = (await register(w.t.app, `late-${now.getTime()}@kringle.test`)).json().user.id as string;
    const verified = await w.family();
    // Registered "now" by the database's clock: the purge compares with created_at.
    w.clock.set(new Date(now.getTime() + 29 * DAY));
    expect((await runPrivacyPurges(w.t.app)).unverifiedAccounts).toBe(0);
    expect(await exists(unverified)).toBe(true);
    w.clock.set(new Date(now.getTime() + 31 * DAY));
    const [a, b] = await Promise.all([runPrivacyPurges(w.t.app), runPrivacyPurges(w.t.app)]);
    expect(a.unverifiedAccounts + b.unverifiedAccounts).toBe(1);
    expect(await exists(unverified)).toBe(false);
    expect(await exists(verified.id)).toBe(true);
    w.clock.set(now);
  });

  it(
    "keeps a deleted account's invoice name 5 years after payment, then removes it and keeps the " + 'figures',
    async () => {
      const now = w.clock.now();
      const who = await w.family({ firstName: 'Persephone', lastName: 'Blackwood' });
      const booked = await w.book(who);
      await w.call('POST', `/bookings/${booked.id}/cancel`, who, {});
      expect(
        (await w.call('DELETE', '/user', who, { password: STRONG_PASSWORD, confirmEmail: who.email })).statusCode,
      ).toBe(202);
      const order = async () =>
        (await w.t.db.execute(sql`select amount_cents, invoice_name from orders where booking_id = ${booked.id}::uuid`))
          .rows[0]!;
      expect(await order()).toEqual({ amount_cents: booked.amountCents, invoice_name: 'Persephone Blackwood' });
      w.clock.set(new Date(now.getTime() + 5 * 365 * DAY - DAY));
      expect((await runPrivacyPurges(w.t.app)).invoiceNames).toBe(0);
      expect((await order()).invoice_name).toBe('Persephone Blackwood');
      w.clock.set(new Date(now.getTime() + 5 * 366 * DAY));
      expect((await runPrivacyPurges(w.t.app)).invoiceNames).toBe(1);
      expect(await order()).toEqual({ amount_cents: booked.amountCents, invoice_name: null });
      w.clock.set(now);
    },
  );
});
