import { describe, expect, it } from 'vitest';
import { openingCountdown, salesOpeningNote } from './sales-opening';

describe('salesOpeningNote', () => {
  const opens = { salesOpenAt: '2026-10-31T22:00:00.000Z', timezone: 'Australia/Sydney' };
  const at = Date.parse(opens.salesOpenAt);

  it('names the opening in the location zone until the instant, then nothing', () => {
    expect(salesOpeningNote(opens, at - 1)).toBe('Bookings open Sun 1 Nov, 9:00 am AEDT');
    expect(salesOpeningNote(opens, at)).toBeNull();
    expect(salesOpeningNote({ ...opens, salesOpenAt: null }, at - 1)).toBeNull();
  });
});

describe('openingCountdown', () => {
  it('counts down coarser the further away the opening is', () => {
    expect(openingCountdown(249_000)).toBe('4:09');
    expect(openingCountdown(500)).toBe('0:01');
    expect(openingCountdown(-5)).toBe('0:00');
    expect(openingCountdown((3600 + 5 * 60) * 1000)).toBe('1 h 05 min');
    expect(openingCountdown((2 * 86_400 + 3 * 3600 + 59) * 1000)).toBe('2 days 3 h');
  });
});
