import { describe, expect, it } from 'vitest';
import { creditLots } from './credit';

const at = (day: string) => `2029-12-${day}T00:00:00.000Z`;

describe('creditLots (decision 0115)', () => {
  it('fills the soonest-expiring grants first with what was taken out', () => {
    expect(
      creditLots([
        { cents: 6000, reason: 'cancel_refund', expiresAt: at('20') },
        { cents: 4000, reason: 'closure_refund', expiresAt: at('10') },
        { cents: -5000, reason: 'spent', expiresAt: null },
        { cents: 1000, reason: 'returned', expiresAt: null },
      ]),
    ).toEqual([
      { expiresAt: at('10'), cents: 0 },
      { expiresAt: at('20'), cents: 6000 },
    ]);
  });

  it('counts expired and card-refunded credit as taken out, and never leaves a lot below zero', () => {
    expect(
      creditLots([
        { cents: 3000, reason: 'cancel_refund', expiresAt: at('01') },
        { cents: -3000, reason: 'expired', expiresAt: null },
        { cents: 2000, reason: 'closure_bonus', expiresAt: at('02') },
        { cents: -500, reason: 'refunded_to_card', expiresAt: null },
      ]),
    ).toEqual([
      { expiresAt: at('01'), cents: 0 },
      { expiresAt: at('02'), cents: 1500 },
    ]);
    expect(creditLots([{ cents: -100, reason: 'spent', expiresAt: null }])).toEqual([]);
  });
});
