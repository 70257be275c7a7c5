import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { describe, expect, it, vi } from 'vitest';
import { setCheckoutData, setLocation, setReservationData } from '../features/booking-wizard/state/booking-slice';
import { SYDNEY_FIXTURE, wizardTestStore } from '../features/booking-wizard/state/wizard-test-store';
import { HeldSessionNotice } from './held-session-notice';

const SESSION = {
  id: 's1',
  slotTypeId: 't1',
  kind: 'session',
  startAt: '2026-12-05T23:40:00.000Z',
  endAt: '2026-12-05T23:50:00.000Z',
  status: 'held',
};

function renderNotice(prepare: (store: ReturnType<typeof wizardTestStore>['store']) => void) {
  const t = wizardTestStore({ 'GET /booking-slot/loc-1/slots/s1': SESSION });
  t.store.dispatch(setLocation(SYDNEY_FIXTURE));
  prepare(t.store);
  const onResume = vi.fn();
  render(
    <Provider store={t.store}>
      <HeldSessionNotice onResume={onResume} />
    </Provider>,
  );
  return onResume;
}

describe('HeldSessionNotice (My Bookings)', () => {
  it('names the held session and until when, and leads back to the wizard', async () => {
    const expiresAt = new Date(Date.now() + 9 * 60_000).toISOString();
    const onResume = renderNotice((store) =>
      store.dispatch(setReservationData({ holdId: 'h1', slotId: 's1', expiresAt })),
    );
    expect(await screen.findByText('You are holding Sun 6 Dec, 10:40 am AEDT')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      /at Kringle Sydney, Pitt Street until \d{1,2}:\d\d (am|pm) AE[DS]T\. Finish booking to make it yours\./,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Continue booking' }));
    expect(onResume).toHaveBeenCalledTimes(1);
  });

  it('says nothing once the hold has ended', () => {
    renderNotice((store) =>
      store.dispatch(
        setReservationData({ holdId: 'h1', slotId: 's1', expiresAt: new Date(Date.now() - 1000).toISOString() }),
      ),
    );
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('says nothing while the hold is being paid', () => {
    renderNotice((store) => {
      store.dispatch(
        setReservationData({ holdId: 'h1', slotId: 's1', expiresAt: new Date(Date.now() + 60_000).toISOString() }),
      );
      store.dispatch(setCheckoutData({ bookingId: 'b1', client_secret: 'pi_secret', message: '' }));
    });
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it(
    'says so on My Bookings when the hold was taken on another device, and Continue restores the wizard (issue 37 ' +
      'item 1)',
    async () => {
      const expiresAt = new Date(Date.now() + 7 * 60_000).toISOString();
      const t = wizardTestStore({
        'GET /booking-slot/loc-1/slots/s1': SESSION,
        'GET /common/locations': { items: [SYDNEY_FIXTURE] },
        'GET /bookings/reservation': {
          items: [
            {
              id: 'h9',
              slotId: 's1',
              locationId: 'loc-1',
              status: 'active',
              expiresAt,
              refreshesLeft: 2,
              bookingId: null,
            },
          ],
        },
      });
      const onResume = vi.fn();
      render(
        <Provider store={t.store}>
          <HeldSessionNotice onResume={onResume} />
        </Provider>,
      );
      expect(await screen.findByText('You are holding Sun 6 Dec, 10:40 am AEDT')).toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Continue booking' }));
      expect(onResume).toHaveBeenCalledTimes(1);
      expect(t.store.getState().booking.reservationData).toEqual({ holdId: 'h9', slotId: 's1', expiresAt });
    },
  );
});
