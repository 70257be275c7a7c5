import { describe, expect, it } from 'vitest';
import type { Booking } from '@kringle/contracts/bookings';
import { bookingIcs } from './booking-ics';

const booking: Booking = {
  id: '0b5c8f5e-0000-4000-8000-000000000001',
  reference: 'KR-7K3Q9',
  status: 'completed',
  source: 'online',
  location: { id: '0b5c8f5e-0000-4000-8000-000000000002', name: 'Kringle Sydney, Pitt Street', address: '188 Pitt Street Mall, Sydney NSW', timezone: 'Australia/Sydney' },
  slot: { id: '0b5c8f5e-0000-4000-8000-000000000003', startAt: '2026-12-05T23:40:00.000Z', endAt: '2026-12-05T23:50:00.000Z' },
  slotType: { id: '0b5c8f5e-0000-4000-8000-000000000004', name: 'Santa photos' },
  items: [],
  amountCents: 3995,
  currency: 'AUD',
  rescheduleCount: 0,
  canReschedule: true,
  canCancel: true,
  refundableCents: 3995,
  createdAt: '2026-11-22T00:00:00.000Z',
};

describe('bookingIcs', () => {
  it('is one event at the session, in UTC, with escaped text and CRLF lines', () => {
    const ics = bookingIcs(booking, 'Kringle', new Date('2026-11-22T00:00:00Z'));
    expect(ics.endsWith('\r\n')).toBe(true);
    const lines = ics.split('\r\n');
    expect(lines).toContain('DTSTART:20261205T234000Z');
    expect(lines).toContain('DTEND:20261205T235000Z');
    expect(lines).toContain('SUMMARY:Photos with Santa: Santa photos (KR-7K3Q9)');
    expect(lines).toContain('LOCATION:Kringle Sydney\\, Pitt Street\\, 188 Pitt Street Mall\\, Sydney NSW');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
  });
});
