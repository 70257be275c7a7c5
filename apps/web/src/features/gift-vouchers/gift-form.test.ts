import { describe, expect, it } from 'vitest';
import {
  AMOUNT_RULE,
  amountProblem,
  checkGift,
  deliveryWords,
  dollarsOf,
  EMPTY_GIFT,
  errorsFromDetails,
  formatDay,
  formatExpiry,
  lastSendDay,
  voucherToday,
  type GiftDraft,
} from './gift-form';

const TODAY = '2026-12-07';
const draft = (over: Partial<GiftDraft> = {}): GiftDraft => ({
  ...EMPTY_GIFT,
  amount: 5000,
  recipientName: 'Sam Frost',
  sendOn: TODAY,
  ...over,
});

describe('the gift form', () => {
  it("sends the API's body: today's send day left to the server, an empty e-mail and message left out", () => {
    expect(checkGift(draft(), TODAY)).toEqual({ ok: true, body: { amountCents: 5000, recipientName: 'Sam Frost' } });
    expect(
      checkGift(
        draft({
          amount: 'other',
          otherAmount: '$45',
          recipientEmail: ' sam@example.com ',
          message: '  Merry Christmas!  ',
          sendOn: '2026-12-24',
        }),
        TODAY,
      ),
    ).toEqual({
      ok: true,
      body: {
        amountCents: 4500,
        recipientName: 'Sam Frost',
        recipientEmail: 'sam@example.com',
        message: 'Merry Christmas!',
        sendOn: '2026-12-24',
      },
    });
  });

  it('takes another amount in dollars: a multiple of $5 from $20 to $500', () => {
    expect(dollarsOf('45')).toBe(4500);
    expect(dollarsOf(' $45.00 ')).toBe(4500);
    expect(dollarsOf('45.5')).toBe(4550);
    expect(dollarsOf('forty')).toBeNull();
    expect(amountProblem(2000)).toBe('');
    expect(amountProblem(50_000)).toBe('');
    expect(amountProblem(1500)).toBe(AMOUNT_RULE);
    expect(amountProblem(50_500)).toBe(AMOUNT_RULE);
    expect(amountProblem(4550)).toBe(AMOUNT_RULE);
    expect(amountProblem(null)).toMatch(/^Enter an amount in dollars/);
    expect(AMOUNT_RULE).toBe('Choose an amount from $20 to $500, in steps of $5.');
  });

  it('says each problem beside its field', () => {
    const result = checkGift(
      draft({
        amount: null,
        recipientName: '  ',
        recipientEmail: 'sam@',
        message: 'x'.repeat(201),
        sendOn: '2026-12-06',
      }),
      TODAY,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        amount: `Choose an amount. ${AMOUNT_RULE}`,
        recipientName: 'Enter who the gift is for.',
        recipientEmail: 'Enter an email address like name@example.com.',
        message: 'Use at most 200 characters.',
        sendOn: 'Choose today or a day up to 60 days ahead.',
      },
    });
    expect(checkGift(draft({ amount: 'other', otherAmount: '47' }), TODAY)).toEqual({
      ok: false,
      errors: { amount: AMOUNT_RULE },
    });
    // Up to 60 days ahead, and no further.
    expect(lastSendDay(TODAY)).toBe('2027-02-05');
    expect(checkGift(draft({ sendOn: '2027-02-05' }), TODAY).ok).toBe(true);
    expect(checkGift(draft({ sendOn: '2027-02-06' }), TODAY).ok).toBe(false);
  });

  it("puts the API's refusals on their fields", () => {
    expect(
      errorsFromDetails([
        { path: 'body.sendOn', message: 'From today to 60 days ahead' },
        { path: 'body.amountCents', message: 'A multiple of $5' },
        { path: 'body.other', message: 'ignored' },
      ]),
    ).toEqual({ sendOn: 'From today to 60 days ahead', amount: 'A multiple of $5' });
  });

  it("counts days in the brand's time zone: Sydney's today, its expiry day", () => {
    // 14:00 UTC on 7 December is 1 am on the 8th in Sydney (AEDT).
    expect(voucherToday(Date.parse('2026-12-07T14:00:00Z'))).toBe('2026-12-08');
    expect(voucherToday(Date.parse('2026-12-07T12:00:00Z'))).toBe('2026-12-07');
    expect(formatExpiry('2029-12-07T14:00:00.000Z')).toBe('8 December 2029');
    expect(formatDay('2026-12-24', TODAY)).toBe('Thursday 24 December');
    expect(formatDay('2027-01-02', TODAY)).toBe('Saturday 2 January 2027');
  });

  it('says when the e-mail goes, or went', () => {
    expect(deliveryWords({ sendOn: TODAY, sentAt: null }, TODAY)).toBe('Sends today');
    expect(deliveryWords({ sendOn: '2026-12-24', sentAt: null }, TODAY)).toBe('Sends Thursday 24 December');
    expect(deliveryWords({ sendOn: TODAY, sentAt: '2026-12-06T22:00:00.000Z' }, TODAY)).toBe('Sent today');
    expect(deliveryWords({ sendOn: '2026-12-01', sentAt: '2026-11-30T22:00:00.000Z' }, TODAY)).toBe(
      'Sent Tuesday 1 December',
    );
  });
});
