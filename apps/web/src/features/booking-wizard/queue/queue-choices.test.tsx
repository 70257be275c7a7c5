import { render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { QueueTicket } from '@kringle/contracts/queue';
import { QueuePage } from './queue-page';
import { windowOf } from './queue-windows';
import { SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';
import { stepIndex } from '../state/wizard-steps';

const OPENS = '2099-12-01T00:30:00.000Z';
const PACKAGE = {
  id: 'p1',
  type: 'package',
  name: 'Classic Print',
  description: '',
  includes: [],
  priceCents: 3500,
  currency: 'AUD',
  imageUrl: '',
  maxQuantity: 3,
};
const wants = { slotTypeId: 't1', date: '2099-12-03', to: '12:00', packages: [{ id: 'p1', quantity: 2 }] };
const ticket = (t: Partial<QueueTicket>): QueueTicket => ({
  status: 'waiting',
  position: 3,
  ahead: 2,
  estimatedWaitSeconds: null,
  admittedUntil: null,
  opensAt: OPENS,
  wants,
  reservation: null,
  ...t,
});

function renderQueue(answers: Record<string, unknown>) {
  const t = wizardTestStore({
    'GET /common/locations': { items: [{ ...SYDNEY_FIXTURE, salesOpenAt: OPENS }] },
    'GET /product/packages': { items: [PACKAGE] },
    ...answers,
  });
  const router = createMemoryRouter(
    [
      { path: '/queue/:locationId', element: <QueuePage /> },
      { path: '/create-booking', element: <p>wizard</p> },
    ],
    { initialEntries: ['/queue/loc-1'] },
  );
  render(
    <Provider store={t.store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...t, router };
}

describe('the waiting room: choose before the opening (issue 55)', () => {
  it('says what will be held at the turn, in words', async () => {
    renderQueue({ 'GET /queue/loc-1': ticket({}) });
    expect(await screen.findByTestId('queue-choices-summary')).toHaveTextContent(
      'At your turn we hold the first free Santa photos session on Thursday 3 December, morning (before 12 pm), ' +
        'with 2 × Classic Print, and take you to pay.',
    );
    expect(screen.getByRole('button', { name: 'Change my choices' })).toBeInTheDocument();
  });

  it('admitted with its session held: the wizard takes the hold and packages (Policy: chosen elsewhere)', async () => {
    const expiresAt = new Date(Date.now() + 10 * 60_000).toISOString();
    const reservation = {
      id: 'h1',
      slotId: 's1',
      locationId: 'loc-1',
      status: 'active' as const,
      expiresAt,
      refreshesLeft: 1,
      bookingId: null,
    };
    const t = renderQueue({
      'GET /queue/loc-1': ticket({ status: 'admitted', position: 1, ahead: 0, admittedUntil: expiresAt, reservation }),
    });
    await waitFor(() => expect(t.router.state.location.pathname).toBe('/create-booking'));
    const booking = t.store.getState().booking;
    expect(booking.reservationData).toEqual({ holdId: 'h1', slotId: 's1', expiresAt });
    expect(booking.slotType[0]?.id).toBe('t1');
    expect(booking.packages.p1).toMatchObject({ totalQuantity: 2, totalPrice: 7000 });
    // Who's coming and the policy were not given on this device: the wizard opens on the Policy step.
    expect(booking.currentStep).toBe(stepIndex('terms'));
  });

  it('reads saved windows back', () => {
    expect(windowOf({ to: '12:00' })).toBe('morning');
    expect(windowOf({ from: '12:00', to: '17:00' })).toBe('afternoon');
    expect(windowOf({ from: '17:00' })).toBe('evening');
    expect(windowOf({})).toBe('any');
    expect(windowOf({ from: '09:30' })).toBe('any');
    expect(windowOf(null)).toBe('any');
  });
});
