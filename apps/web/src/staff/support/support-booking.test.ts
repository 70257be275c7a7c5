import type { AuditEntry } from '@kringle/contracts/audit';
import { describe, expect, it } from 'vitest';
import { changeOf } from './support-booking';

const entry = (
  action: AuditEntry['action'],
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): AuditEntry => ({
  id: '7f000000-0000-4000-8000-000000000001',
  at: '2026-12-01T00:00:00.000Z',
  actor: { kind: 'family', id: null, email: null },
  action,
  bookingId: null,
  slotId: '7f000000-0000-4000-8000-000000000002',
  seasonVersion: null,
  orderId: null,
  reason: null,
  before,
  after,
});

describe('an audit entry in words (decision 0062)', () => {
  it('says until when a session is held, and which season version a save made', () => {
    const held = entry(
      'takeHold',
      { state: 'free' },
      { state: 'held', reservationId: 'r1', holdExpiresAt: '2026-12-01T00:10:00.000Z' },
    );
    expect(changeOf(held, 'Australia/Sydney')).toBe('Status: Free → Held · Held until 11:10 am');
    expect(changeOf(entry('saveSeason', { version: 3 }, { version: 4, sessionsAdded: 2 }), 'Australia/Sydney')).toBe(
      'Season version 3 → 4 · Sessions added: 2',
    );
  });

  it('says states, sessions and staff changes in plain words, never the internal names (issue 53 item 9)', () => {
    const about = {
      reference: 'KR-1',
      family: null,
      location: { name: 'Sydney', timezone: 'Australia/Sydney' },
      sessions: { s1: '2026-12-05T23:40:00.000Z', s2: '2026-12-06T22:00:00.000Z' },
      locations: { l1: 'Sydney', l2: 'Brisbane' },
    };
    const moved = {
      ...entry('staffReschedule', { state: 'confirmed', slotId: 's1' }, { state: 'confirmed', slotId: 's2' }),
      about,
    };
    expect(changeOf(moved, 'UTC')).toBe('Session: Sun 6 Dec, 10:40 am AEDT → Mon 7 Dec, 9:00 am AEDT');
    expect(
      changeOf(
        {
          ...entry(
            'checkIn',
            { state: 'confirmed', checkedInAt: null },
            { state: 'checked_in', checkedInAt: '2026-12-05T23:42:00.000Z' },
          ),
          about,
        },
        'UTC',
      ),
    ).toBe('Status: Confirmed → Checked in · Checked in: Sun 6 Dec, 10:42 am AEDT');
    const who = { staffId: 'u1', email: 'holly@kringle.test' };
    expect(
      changeOf(
        {
          ...entry('staff.locations_changed', { ...who, locationIds: ['l1'] }, { ...who, locationIds: ['l1', 'l2'] }),
          about,
        },
        'UTC',
      ),
    ).toBe('Staff member holly@kringle.test · Locations: Sydney → Sydney, Brisbane');
    expect(changeOf(entry('staff.role_changed', { ...who, role: 'set' }, { ...who, role: 'support' }), 'UTC')).toBe(
      'Staff member holly@kringle.test · Role: Set → Support',
    );
  });
});
