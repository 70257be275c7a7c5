import { describe, expect, it } from 'vitest';
import { centsToDollars, formatAud, gstOf } from './money';

describe('money', () => {
  it('computes GST included in a price as round(total / 11)', () => {
    expect(gstOf(11000)).toBe(1000);
    expect(gstOf(4995)).toBe(454);
    expect(gstOf(0)).toBe(0);
    expect(gstOf(5)).toBe(0);
    expect(gstOf(6)).toBe(1);
  });
  it('formats AUD the Australian way', () => {
    expect(formatAud(12345)).toBe('$123.45');
    expect(formatAud(0)).toBe('$0.00');
    expect(formatAud(123456789)).toBe('$1,234,567.89');
  });
  it('converts cents to dollars for analytics', () => expect(centsToDollars(4995)).toBe(49.95));
});
