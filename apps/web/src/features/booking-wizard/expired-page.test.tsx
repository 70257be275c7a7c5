import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { goToStep, setLocation, toggleSlotType } from './booking-slice';
import { ReservationExpiredPage } from './expired-page';
import { RELEASED_ELSEWHERE } from './hold-actions';
import { SYDNEY_FIXTURE, wizardTestStore } from './wizard-test-store';
import { stepIndex } from './wizard-steps';

function renderExpired(state?: unknown) {
  const t = wizardTestStore();
  t.store.dispatch(setLocation(SYDNEY_FIXTURE));
  t.store.dispatch(toggleSlotType(SYDNEY_FIXTURE.slotTypes[0]!));
  t.store.dispatch(goToStep(stepIndex('overview')));
  const router = createMemoryRouter(
    [
      { path: '/expired', element: <ReservationExpiredPage /> },
      { path: '/create-booking', element: <p>wizard</p> },
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
    const { store, router } = renderExpired(RELEASED_ELSEWHERE);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('This session is no longer held');
    expect(screen.getByText(/A session chosen in another tab or on another device let this one go/)).toBeInTheDocument();
    expect(screen.getByText('Nothing was booked and you have not been charged.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Choose a new time' }));
    expect(router.state.location.pathname).toBe('/create-booking');
    expect(store.getState().booking).toMatchObject({ location: { id: SYDNEY_FIXTURE.id }, currentStep: stepIndex('sessionTime') });
    expect(store.getState().booking.slotType).toHaveLength(1);
  });
});
