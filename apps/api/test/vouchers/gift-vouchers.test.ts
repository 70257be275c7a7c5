import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../helpers/pdf-text';
import { pdfQrText } from '../helpers/pdf-qr';
import { expectContractError } from '../security/security-fixtures';
import type { Person, StaffDay } from '../staff/staff-fixtures';
import { until, voucherDay, type VoucherDay } from './voucher-fixtures';

/**
 * Gift vouchers (issue 52, decision 0112), against the Stripe sandbox: bought by card, live once the
 * webhook says paid, e-mailed on their day, claimed into one account, wrong codes limited. Spent over
 * several bookings, given back, cancelled by support: gift-vouchers-spending.test.ts.
 */
describe('gift vouchers', () => {
  let d: VoucherDay;
  let w: StaffDay;

  beforeAll(async () => {
    d = await voucherDay();
    ({ w } = d);
  });
  afterAll(async () => d?.close());

  const family = (lastName: string) => d.family(lastName);
  const bought = (buyer: Person, amountCents: number, extra: object = {}) => d.bought(buyer, amountCents, extra);
  const lookUp = (who: Person, code: string) => d.lookUp(who, code);

  it('refuses a bad purchase with the contract error and writes nothing', async () => {
    const buyer = await family('Refused');
    for (const body of [
      { amountCents: 1500, recipientName: 'Ruby' },
      { amountCents: 2250, recipientName: 'Ruby' },
      { amountCents: 60000, recipientName: 'Ruby' },
      { amountCents: 3000, recipientName: '' },
      { amountCents: 3000, recipientName: 'Ruby', message: 'x'.repeat(201) },
      { amountCents: 3000, recipientName: 'Ruby', sendOn: '2020-01-01' },
      { amountCents: 3000, recipientName: 'Ruby', recipientEmail: 'not an address' },
    ]) {
      const res = await w.call('POST', '/vouchers', buyer, body);
      expectContractError(res, 400, 'VALIDATION_FAILED');
    }
    const n = await w.t.db.execute(
      sql`select count(*)::int as n from vouchers where buyer_user_id = ${buyer.id}::uuid`,
    );
    expect(n.rows[0]!.n).toBe(0);
  });

  it('is live once paid: a 3-year expiry, its e-mail queued with the certificate, only a hash stored', async () => {
    const buyer = await family('Giver');
    const v = await bought(buyer, 5000, { recipientEmail: 'ruby@kringle.test', message: 'Love, Nana' });
    expect(v).toMatchObject({ amountCents: 5000, balanceCents: 5000, bought: true, recipientName: 'Ruby' });
    expect(v.code).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    const years = (new Date(v.expiresAt).getTime() - Date.now()) / (365.25 * 86_400_000);
    expect(years).toBeGreaterThan(2.99);
    expect(years).toBeLessThan(3.01);

    const row = (await w.t.db.execute(sql`select * from vouchers where id = ${v.id}::uuid`)).rows[0]!;
    expect(JSON.stringify(row)).not.toContain(v.code.replaceAll('-', ''));
    const mail = await until(
      async () => (await w.t.db.execute(sql`select * from mail_outbox where to_address = 'ruby@kringle.test'`)).rows[0],
      (m) => Boolean(m),
    );
    expect(mail!.subject).toBe('Nana gave you a visit to Santa');
    expect(mail!.text).toContain(v.code);
    expect((mail!.attachments as { filename: string }[])[0]!.filename).toBe('santa-gift-voucher.pdf');

    const certificate = await w.call('GET', `/vouchers/${v.id}/certificate.pdf`, buyer);
    expect(certificate.statusCode).toBe(200);
    const text = await pdfText(certificate.rawPayload);
    expect(text).toContain(v.code);
    expect(text).toContain('$50.00');
    expect(text).toContain('For Ruby');
    // The QR leads to the page that adds it, the code in the fragment (never sent to a server).
    expect(pdfQrText(certificate.rawPayload)).toMatch(new RegExp(`/gift/redeem#${v.code}$`));
    const receipt = await w.call('GET', `/vouchers/${v.id}/receipt.pdf`, buyer);
    const receiptText = await pdfText(receipt.rawPayload);
    expect(receiptText).toContain('Receipt');
    expect(receiptText).not.toContain('Tax invoice');
    expect(receiptText).not.toContain(v.code);
    // Another family gets nothing of it.
    const stranger = await family('Stranger');
    expectContractError(await w.call('GET', `/vouchers/${v.id}/certificate.pdf`, stranger), 404, 'NOT_FOUND');
    expectContractError(await w.call('GET', `/vouchers/${v.id}/receipt.pdf`, stranger), 404, 'NOT_FOUND');
    // The buyer's data export has it, with its moves, and never the code.
    const exported = (await w.call('GET', '/user/export', buyer)).json();
    expect(exported.vouchers).toEqual([
      expect.objectContaining({
        id: v.id,
        bought: true,
        recipientEmail: 'ruby@kringle.test',
        message: 'Love, Nana',
        moves: [expect.objectContaining({ cents: 5000, reason: 'sold' })],
      }),
    ]);
    expect(JSON.stringify(exported)).not.toContain(v.code.replaceAll('-', ''));
  });

  it('a later send day holds its e-mail back until 09:00 that day in Sydney', async () => {
    const buyer = await family('Planner');
    const sendOn = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(
      new Date(Date.now() + 10 * 86_400_000),
    );
    const v = await bought(buyer, 3000, { recipientEmail: 'later@kringle.test', sendOn });
    const mail = await until(
      async () =>
        (await w.t.db.execute(sql`select next_attempt_at from mail_outbox where to_address = 'later@kringle.test'`))
          .rows[0],
      (m) => Boolean(m),
    );
    expect(new Date(mail!.next_attempt_at as string).getTime()).toBeGreaterThan(Date.now() + 8 * 86_400_000);
    expect(v.sentAt).toBeNull();
  });

  it('is claimed into one account: another sees a 404 and its claim is refused', async () => {
    const buyer = await family('Claimer');
    const v = await bought(buyer, 3000);
    const recipient = await family('Recipient');
    const other = await family('Other');
    const seen = await lookUp(recipient, v.code.toLowerCase().replaceAll('-', ' '));
    expect(seen).toMatchObject({ status: 'active', balanceCents: 3000, bought: false, claimed: false });
    expect(seen.code).toMatch(/^••••-••••-/);
    const claimed = await w.call('POST', `/vouchers/${v.code}/claim`, recipient);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json()).toMatchObject({ claimed: true, code: v.code });
    expect((await w.call('POST', `/vouchers/${v.code}/claim`, recipient)).statusCode).toBe(200);
    expectContractError(await w.call('POST', `/vouchers/${v.code}/claim`, other), 409, 'VOUCHER_CLAIMED');
    expectContractError(await w.call('GET', `/vouchers/${v.code}`, other), 404, 'NOT_FOUND');
    const list = (await w.call('GET', '/vouchers', recipient)).json().items;
    expect(list.map((x: { id: string }) => x.id)).toEqual([v.id]);
  });
  it('limits wrong codes to 10 an hour per account and per address', async () => {
    // An hour has passed for the misses of the tests above (all from this one address).
    await w.t.db.execute(sql`delete from voucher_code_misses`);
    const guesser = await family('Guesser');
    for (let i = 0; i < 10; i++)
      expectContractError(await w.call('GET', `/vouchers/ZZZZ-ZZZZ-ZZZ${i + 2}`, guesser), 404, 'NOT_FOUND');
    expectContractError(await w.call('GET', '/vouchers/ZZZZ-ZZZZ-ZZZZ', guesser), 429, 'RATE_LIMITED');
    // Another account from the same address is refused too; the table keeps only hashes of the address.
    expectContractError(
      await w.call('GET', '/vouchers/ZZZZ-ZZZZ-ZZZZ', await family('Accomplice')),
      429,
      'RATE_LIMITED',
    );
    const keys = (await w.t.db.execute(sql`select distinct key from voucher_code_misses`)).rows.map((r) => r.key);
    expect(keys.filter((k) => String(k).startsWith('ip:'))).toEqual([expect.stringMatching(/^ip:[0-9a-f]{64}$/)]);
  });
});
