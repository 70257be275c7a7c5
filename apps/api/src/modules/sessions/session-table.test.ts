import { describe, expect, it } from 'vitest';
import {
  HOLD_MOVES,
  HOLD_STATES,
  holdStateOf,
  nextHoldState,
  statusAfter,
  statusesFrom,
  type HoldMove,
  type HoldState,
} from './session-table';

/**
 * The whole table, written out by hand: every (state, move) pair either leads to the state named
 * here or is refused (null). A change to the table must change this too, on purpose.
 */
const EXPECTED: Record<HoldMove, Partial<Record<HoldState, HoldState>>> = {
  takeHold: { free: 'held' },
  offerFromWaitlist: { free: 'held' },
  refreshHold: { held: 'held', booked: 'booked' },
  checkOut: { held: 'booked' },
  releaseHold: { held: 'released', lapsed: 'released' },
  passOffer: { held: 'released' },
  expireHold: { held: 'lapsed' },
  lapseOffer: { held: 'lapsed' },
  lapseCheckout: { booked: 'lapsed' },
  cancelCheckout: { booked: 'released' },
  closeSession: { held: 'closed' },
};

describe('the session transition table', () => {
  const pairs = HOLD_STATES.flatMap((state) =>
    (Object.keys(HOLD_MOVES) as HoldMove[]).map((move) => [state, move] as const),
  );

  it.each(pairs)('%s × %s either moves or is refused, as written out', (state, move) => {
    expect(nextHoldState(state, move)).toBe(EXPECTED[move][state] ?? null);
  });

  it('names every move the table has', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(HOLD_MOVES).sort());
  });

  it('refuses the moves that must never happen', () => {
    // A hold being paid is not let go by the family, nor swept by the expiry job.
    expect(nextHoldState('booked', 'releaseHold')).toBeNull();
    expect(nextHoldState('booked', 'expireHold')).toBeNull();
    // Nothing comes back from an end, and nothing ends twice.
    for (const end of ['released', 'lapsed', 'closed'] as const) {
      expect(nextHoldState(end, 'refreshHold')).toBeNull();
      expect(nextHoldState(end, 'checkOut')).toBeNull();
      expect(nextHoldState(end, 'takeHold')).toBeNull();
    }
    expect(nextHoldState('held', 'takeHold')).toBeNull();
  });

  it('reads the state from the row and gives each statement its statuses', () => {
    expect(holdStateOf(undefined)).toBe('free');
    expect(holdStateOf('active')).toBe('held');
    expect(holdStateOf('checked_out')).toBe('booked');
    expect(holdStateOf('cancelled')).toBe('released');
    expect(holdStateOf('expired')).toBe('lapsed');
    expect(statusesFrom('releaseHold')).toBe(`('active', 'expired')`);
    expect(statusesFrom('refreshHold')).toBe(`('active', 'checked_out')`);
    expect(statusesFrom('expireHold')).toBe(`('active')`);
    expect(statusAfter('closeSession')).toBe('cancelled');
    expect(statusAfter('checkOut')).toBe('checked_out');
    expect(statusAfter('takeHold')).toBe('active');
  });
});
