import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { goToStep, setLocation, setReservationData, toggleSlotType } from '../state/booking-slice';
import { ReservationExpiredPage } from './expired-page';
import { RELEASED_ELSEWHERE } from './hold-actions';
import { SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';
import { stepIndex } from '../state/wizard-steps';

function renderExpired(state?: unknown, answers: Record<string, unknown> = {}) {
  const t = wizardTestStore(answers);
  t.store.dispatch(setLocation(SYDNEY_FIXTURE));
  t.store.dispatch(setReservationData({ holdId: 'h1', slotId: 's1', expiresAt: '2099-01-01T00:00:00.000Z' }));
  t.store.dispatch(toggleSlotType(SYDNEY_FIXTURE.slotTypes[0]!));
  t.store.dispatch(goToStep(stepIndex('overview')));
  const router = createMemoryRouter(
    [
      { path: '/expired', element: <ReservationExpiredPage /> },
      { path: '/create-booking', element: <p>wizard</p> },
      { path: '/bookings', element: <p>my bookings</p> },
    ],
    { initialEntries: [{ pathname: '/expired', state }] },
  );
  render(
    <Provider store={t.store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...t, router };
}

describe('/expired', () => {
  it('says the timer ran out when it did', () => {
    renderExpired();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Your time ran out');
  });

  it('says the session was let go elsewhere, and offers a new time keeping the choices', async () => {
    const cancelled = {
      id: 'h1',
      slotId: 's1',
      locationId: 'loc-1',
      status: 'cancelled',
      expiresAt: '2099-01-01T00:00:00.000Z',
      refreshesLeft: 2,
      bookingId: null,
    };
    const { store, router } = renderExpired(RELEASED_ELSEWHERE, { 'GET /bookings/reservation/h1': cancelled });
    expect(screen.getByRole('status')).toHaveTextContent('Checking your session…');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('This session is no longer held');
    expect(
      screen.getByText(/A session chosen in another tab or on another device let this one go/),
    ).toBeInTheDocument();
    expect(screen.getByText('Nothing was booked and you have not been charged.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Choose a new time' }));
    expect(router.state.location.pathname).toBe('/create-booking');
    expect(store.getState().booking).toMatchObject({
      location: { id: SYDNEY_FIXTURE.id },
      currentStep: stepIndex('sessionTime'),
    });
    expect(store.getState().booking.slotType).toHaveLength(1);
  });

  it(
    'says so when the hold was booked elsewhere (not let go), clears the wizard and leads to My ' + 'Bookings',
    async () => {
      const checkedOut = {
        id: 'h1',
        slotId: 's1',
        locationId: 'loc-1',
        status: 'checked_out',
        expiresAt: '2099-01-01T00:00:00.000Z',
        refreshesLeft: 2,
        bookingId: 'b1',
      };
      const { store, router } = renderExpired(RELEASED_ELSEWHERE, { 'GET /bookings/reservation/h1': checkedOut });
      expect(
        await screen.findByRole('heading', { level: 1, name: 'This session was booked elsewhere' }),
      ).toBeInTheDocument();
      expect(screen.queryByText('Nothing was booked and you have not been charged.')).not.toBeInTheDocument();
      expect(store.getState().booking.reservationData).toBeNull();
      await userEvent.click(screen.getByRole('button', { name: 'Go to My Bookings' }));
      expect(router.state.location.pathname).toBe('/bookings');
    },
  );
});
