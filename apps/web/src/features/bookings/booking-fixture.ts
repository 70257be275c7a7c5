import type { Booking } from '@kringle/contracts/bookings';
import type { BookingOrder } from './api';

/** A confirmed Sydney booking on Sat 6 Dec 2026, 10:40 am AEDT, for component tests. */
export function aBooking(overrides: Partial<Booking> = {}): Booking {
  return {
    id: '0b6f1c1e-3c1a-4b7e-9a51-5d0e8c1f2a01',
    reference: 'KR-7K3Q9',
    status: 'completed',
    source: 'online',
    location: {
      id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      name: 'Sydney Harbourside',
      address: '2-10 Darling Drive, Sydney NSW 2000',
      timezone: 'Australia/Sydney',
    },
    slot: {
      id: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f60',
      startAt: '2026-12-05T23:40:00.000Z',
      endAt: '2026-12-05T23:50:00.000Z',
    },
    slotType: { id: '3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6071', name: 'Santa photos', allowsPets: false },
    items: [
      {
        id: '4f5a6b7c-8d9e-4fa0-9b1c-2d3e4f5a6b7c',
        type: 'package',
        name: 'Classic package',
        quantity: 1,
        unitPriceCents: 4995,
        totalCents: 4995,
      },
      {
        id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
        type: 'add_on',
        name: 'Extra print',
        quantity: 2,
        unitPriceCents: 1000,
        totalCents: 2000,
      },
    ],
    amountCents: 6995,
    donationCents: 0,
    donationTo: null,
    creditCents: 0,
    currency: 'AUD',
    rescheduleCount: 0,
    canReschedule: true,
    canCancel: true,
    refundableCents: 6995,
    createdAt: '2026-11-20T01:00:00.000Z',
    details: {
      children: [{ firstName: 'Mia', age: 6 }],
      adults: 2,
      pets: 0,
      accessNeeds: [],
      accessNote: '',
      noteForSanta: '',
    },
    checkInCode: 'KR-7K3Q9-ABCDEFGHJKMNPQRS',
    holdExpiresAt: null,
    photoCount: 0,
    closure: null,
    delay: null,
    ...overrides,
  };
}

export function anOrder(overrides: Partial<BookingOrder> = {}): BookingOrder {
  return {
    id: '6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e',
    bookingId: '0b6f1c1e-3c1a-4b7e-9a51-5d0e8c1f2a01',
    status: 'paid',
    paymentStatus: 'paid',
    amountCents: 6995,
    refundedCents: 0,
    refundPendingCents: 0,
    items: [
      {
        id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        type: 'package',
        name: 'Family Keepsake',
        quantity: 1,
        unitPriceCents: 6995,
        totalCents: 6995,
      },
    ],
    createdAt: '2026-11-20T01:00:00.000Z',
    paidAt: '2026-11-20T01:02:00.000Z',
    refundedAt: null,
    ...overrides,
  };
}
