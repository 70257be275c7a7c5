import { describe, expect, it } from 'vitest';
import { formatCardNumber, formatExpiry, luhnValid, parseExpiry, validateCard } from './card-validation';

const NOW = new Date('2026-11-22T00:00:00Z');
const good = { number: '4242 4242 4242 4242', expiry: '12 / 28', cvc: '123', name: 'Holly Berry' };

describe('card validation', () => {
  it('accepts the test cards and formats as typed', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4000002500003155')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatExpiry('1228')).toBe('12 / 28');
    expect(parseExpiry('12 / 28')).toEqual({ month: 12, year: 2028 });
    expect(parseExpiry('13 / 28')).toBeNull();
    expect(validateCard(good, NOW)).toEqual({ number: '', expiry: '', cvc: '', name: '' });
  });

  it('explains each problem in plain words', () => {
    expect(validateCard({ number: '', expiry: '', cvc: '', name: ' ' }, NOW)).toEqual({
      number: 'Enter your card number.',
      expiry: 'Enter the expiry date, like 08 / 29.',
      cvc: 'Enter the 3 or 4 digit security code.',
      name: 'Enter the name on the card.',
    });
    const bad = validateCard({ number: '4242 4242 4242 4241', expiry: '10 / 26', cvc: '12', name: 'H' }, NOW);
    expect(bad.number).toMatch(/does not look right/);
    expect(bad.expiry).toBe('This card has expired.');
    expect(bad.cvc).toBe('The security code is 3 or 4 digits.');
    // The current month is still valid.
    expect(validateCard({ ...good, expiry: '11 / 26' }, NOW).expiry).toBe('');
  });
});
