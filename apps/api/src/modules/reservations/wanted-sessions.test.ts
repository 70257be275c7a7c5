import { describe, expect, it } from 'vitest';
import { matchesWants } from './wanted-sessions.repository';

const session = { id: 's1', slotTypeId: 't1', date: '2026-12-12', time: '10:00' };
const wants = { slotTypeId: 't1', packages: [{ id: 'p1', quantity: 1 }] };

describe('matchesWants (issue 55)', () => {
  it('asks the type always, and the day and the window only when given', () => {
    expect(matchesWants(session, wants)).toBe(true);
    expect(matchesWants(session, { ...wants, slotTypeId: 't2' })).toBe(false);
    expect(matchesWants(session, { ...wants, date: '2026-12-12' })).toBe(true);
    expect(matchesWants(session, { ...wants, date: '2026-12-13' })).toBe(false);
  });

  it('starts the window at `from` (included) and ends it before `to`', () => {
    expect(matchesWants(session, { ...wants, from: '10:00' })).toBe(true);
    expect(matchesWants(session, { ...wants, from: '10:01' })).toBe(false);
    expect(matchesWants(session, { ...wants, to: '10:00' })).toBe(false);
    expect(matchesWants(session, { ...wants, to: '10:01' })).toBe(true);
    expect(matchesWants(session, { ...wants, from: '09:00', to: '12:00' })).toBe(true);
  });
});
