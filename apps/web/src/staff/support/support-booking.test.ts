import type { AuditEntry } from '@kringle/contracts/audit';
import { describe, expect, it } from 'vitest';
import { changeOf } from './support-booking';

const entry = (action: AuditEntry['action'], before: Record<string, unknown>, after: Record<string, unknown>): AuditEntry => ({
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
    const held = entry('takeHold', { state: 'free' }, { state: 'held', reservationId: 'r1', holdExpiresAt: '2026-12-01T00:10:00.000Z' });
    expect(changeOf(held, 'Australia/Sydney')).toMatch(/^free → held, held until .*11:10/);
    expect(changeOf(entry('saveSeason', { version: 3 }, { version: 4, sessionsAdded: 2 }), 'Australia/Sydney')).toBe('season version 3 → 4');
  });
});
