import { describe, expect, it } from 'vitest';
import { startReschedule, toggleSlotType } from '../state/booking-slice';
import { moveBookingTo } from './hold-actions';
import { location, recordEachTest, reservation, setup, slot, type } from './hold-actions-fixture';

describe('hold actions', () => {
  const sent = recordEachTest();

  describe('rescheduling (spec §4)', () => {
    const moved = {
      id: 'b1',
      reference: 'KR-7K3Q9',
      status: 'completed',
      slot: { id: 's1', startAt: slot.startAt, endAt: slot.endAt },
      location: { id: 'loc-1', name: location.name, address: location.address, timezone: location.timezone },
      rescheduleCount: 1,
    };
    const rescheduling = (routes: Record<string, unknown>) => {
      const t = setup(routes);
      t.store.dispatch(startReschedule({ bookingId: 'b1' }));
      t.store.dispatch(toggleSlotType(type));
      return t;
    };

    it(
      'picking a session holds it for the booking, moves the booking there and resets the wizard, skipping package ' +
        'and payment',
      async () => {
        const { store, calls, fetchFn } = rescheduling({
          'POST /bookings/reservation': { ...reservation, bookingId: 'b1' },
          'POST /bookings/b1/reschedule': moved,
        });
        const booking = await store.dispatch(moveBookingTo(slot)).unwrap();
        expect(booking.rescheduleCount).toBe(1);
        expect(calls).toEqual(['POST /bookings/reservation', 'POST /bookings/b1/reschedule']);
        expect(JSON.parse(String(fetchFn.mock.calls[1]![1]!.body))).toEqual({ reservationId: 'h2' });
        expect(store.getState().booking.rescheduleData).toBeNull();
        expect(store.getState().booking.reservationData).toBeNull();
        expect(store.getState().timer.isRunning).toBe(false);
        expect(sent.map((e) => e.event)).toEqual(['reschedule_session']);
      },
    );

    it('a refused move lets the new hold go and keeps the reschedule going', async () => {
      const { store, calls } = rescheduling({
        'POST /bookings/reservation': { ...reservation, bookingId: 'b1' },
        'POST /bookings/b1/reschedule': () =>
          new Response(
            JSON.stringify({
              error: 'Bookings can be moved until 24 hours before the session.',
              code: 'RESCHEDULE_WINDOW_CLOSED',
            }),
            { status: 409 },
          ),
        'POST /bookings/reservation/h2/cancel': { ...reservation, status: 'cancelled' },
      });
      const result = await store.dispatch(moveBookingTo(slot));
      expect(moveBookingTo.rejected.match(result) && result.payload?.data.code).toBe('RESCHEDULE_WINDOW_CLOSED');
      expect(calls).toContain('POST /bookings/reservation/h2/cancel');
      expect(store.getState().booking.rescheduleData).toEqual({ bookingId: 'b1' });
    });
  });
});
