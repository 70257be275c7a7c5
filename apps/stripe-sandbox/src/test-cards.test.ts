import { describe, expect, it } from 'vitest';
import { luhnValid, validateCard } from './test-cards';
import { StripeError } from './stripe-errors';

const now = new Date('2026-11-21T00:00:00Z');

describe('validateCard', () => {
  it('knows the test cards of API.md', () => {
    const outcome = (number: string) =>
      validateCard({ number, expMonth: '12', expYear: '2030', cvc: '123' }, now).outcome;
    expect(outcome('4242 4242 4242 4242')).toEqual({ kind: 'success' });
    expect(outcome('4000 0000 0000 0002')).toMatchObject({ kind: 'decline', declineCode: 'generic_decline' });
    expect(outcome('4000 0000 0000 9995')).toMatchObject({ kind: 'decline', declineCode: 'insufficient_funds' });
    expect(outcome('4000 0025 0000 3155')).toEqual({ kind: 'three_d_secure' });
    // A valid number that is not a test card is a live card, declined in test mode.
    expect(outcome('4111 1111 1111 1111')).toMatchObject({ kind: 'decline', declineCode: 'test_mode_live_card' });
  });

  it.each([
    [{ number: '4242424242424241', expMonth: '12', expYear: '30' }, 'incorrect_number'],
    [{ number: '4242-abc', expMonth: '12', expYear: '30' }, 'invalid_number'],
    [{ number: '4242424242424242', expMonth: '0', expYear: '30' }, 'invalid_expiry_month'],
    [{ number: '4242424242424242', expMonth: '10', expYear: '2026' }, 'invalid_expiry_month'],
    [{ number: '4242424242424242', expMonth: '12', expYear: '2025' }, 'invalid_expiry_year'],
    [{ number: '4242424242424242', expMonth: '12', expYear: '30', cvc: '1234' }, 'invalid_cvc'],
    [{ number: '378282246310005', expMonth: '12', expYear: '30', cvc: '123' }, 'invalid_cvc'],
  ])('refuses %j with %s', (card, code) => {
    try {
      validateCard(card, now);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(StripeError);
      expect(err).toMatchObject({ status: 402, type: 'card_error', code });
    }
  });

  it('accepts two-digit years, this month, and describes the card', () => {
    const { details } = validateCard({ number: '5555555555554444', expMonth: '11', expYear: '26', cvc: '123' }, now);
    expect(details).toMatchObject({ brand: 'mastercard', last4: '4444', exp_month: 11, exp_year: 2026 });
  });

  it('implements Luhn', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4000002500003155')).toBe(true);
    expect(luhnValid('4242424242424243')).toBe(false);
  });
});
