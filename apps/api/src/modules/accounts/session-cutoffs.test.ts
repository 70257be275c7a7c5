import { describe, expect, it } from 'vitest';
import type { AuthClaims } from './id-tokens';
import { CUTOFF_MEMORY_MS, SessionCutoffs } from './session-cutoffs';

const claims = (userId: string, sessionEpoch: number) => ({ userId, sessionEpoch }) as AuthClaims;

describe('SessionCutoffs (decision 0063)', () => {
  it("refuses tokens of an older epoch than the account's, only for that account, and tells the streams once", () => {
    const cutoffs = new SessionCutoffs();
    const told: string[] = [];
    cutoffs.onRaised((userId) => told.push(userId));
    expect(cutoffs.refuses(claims('a', 0))).toBe(false);
    cutoffs.raise('a', 2, 1_000);
    expect(cutoffs.refuses(claims('a', 1))).toBe(true);
    expect(cutoffs.refuses(claims('a', 2))).toBe(false);
    expect(cutoffs.refuses(claims('b', 0))).toBe(false);
    // Heard again (its own NOTIFY, a reload), or an older epoch late: nothing changes.
    cutoffs.raise('a', 2, 1_000);
    cutoffs.raise('a', 1, 900);
    expect(cutoffs.refuses(claims('a', 1))).toBe(true);
    expect(told).toEqual(['a']);
  });

  it('forgets an account once every token of the old epoch has expired', () => {
    const cutoffs = new SessionCutoffs();
    cutoffs.raise('a', 1, 1_000);
    cutoffs.prune(1_000 + CUTOFF_MEMORY_MS - 1);
    expect(cutoffs.size).toBe(1);
    cutoffs.prune(1_000 + CUTOFF_MEMORY_MS);
    expect(cutoffs.size).toBe(0);
  });
});
