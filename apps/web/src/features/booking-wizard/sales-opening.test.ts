import { describe, expect, it } from 'vitest';
import { salesOpeningNote } from './sales-opening';

describe('salesOpeningNote', () => {
  const opens = { salesOpenAt: '2026-10-31T22:00:00.000Z', timezone: 'Australia/Sydney' };
  const at = Date.parse(opens.salesOpenAt);

  it('names the opening in the location zone until the instant, then nothing', () => {
    expect(salesOpeningNote(opens, at - 1)).toBe('Bookings open Sun 1 Nov, 9:00 am AEDT');
    expect(salesOpeningNote(opens, at)).toBeNull();
    expect(salesOpeningNote({ ...opens, salesOpenAt: null }, at - 1)).toBeNull();
  });
});
