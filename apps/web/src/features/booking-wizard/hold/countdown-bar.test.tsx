import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Location } from '@kringle/contracts/catalogue';
import type { Reservation } from '@kringle/contracts/reservations';
import { policyApi } from '../../../lib/policy-api';
import { setCheckoutData, setLocation, setReservationData } from '../state/booking-slice';
import { CountdownBar } from './countdown-bar';
import { SYDNEY_FIXTURE, wizardTestStore } from '../state/wizard-test-store';

const NOW = Date.parse('2026-12-06T00:00:00.000Z');
const location = { ...SYDNEY_FIXTURE, slotTypes: [] } satisfies Location;
const at = (seconds: number) => new Date(NOW + seconds * 1000).toISOString();
const reservation = (expiresAt: string, refreshesLeft = 2): Reservation => ({
  id: 'h1',
  slotId: 's1',
  locationId: 'loc-1',
  status: 'active',
  expiresAt,
  refreshesLeft,
  bookingId: null,
});
const slot = {
  id: 's1',
  slotTypeId: 't1',
  kind: 'session',
  startAt: '2026-12-05T23:40:00.000Z',
  endAt: '2026-12-05T23:50:00.000Z',
  status: 'reserved',
};

function renderBar(expiresInSeconds: number, routes: Record<string, unknown> = {}) {
  const expiresAt = at(expiresInSeconds);
  const t = wizardTestStore({
    'GET /bookings/reservation/h1': reservation(expiresAt),
    'GET /booking-slot/loc-1/slots/s1': slot,
    ...routes,
  });
  t.store.dispatch(setLocation(location));
  t.store.dispatch(setReservationData({ holdId: 'h1', slotId: 's1', expiresAt }));
  const router = createMemoryRouter(
    [
      { path: '/create-booking', element: <CountdownBar /> },
      { path: '/expired', element: <p>expired page</p> },
    ],
    { initialEntries: ['/create-booking'] },
  );
  render(
    <Provider store={t.store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...t, router };
}

describe('CountdownBar (spec §4 timer)', () => {
  beforeEach(() => {
    // Only the clock and the one-second interval are fake; promises and fetches run for real.
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: NOW });
  });
  afterEach(() => vi.useRealTimers());

  it('starts from the stored hold after a reload and counts down whole seconds', async () => {
    const { store } = renderBar(600);
    expect(await screen.findByRole('timer')).toHaveTextContent('10:00');
    expect(store.getState().timer).toMatchObject({ endDate: at(600), remaining: 600, isRunning: true });
    act(() => vi.advanceTimersByTime(3000));
    expect(screen.getByRole('timer')).toHaveTextContent('9:57');
    await vi.waitFor(() => expect(screen.getByTestId('hold-countdown')).toHaveTextContent('Sun 6 Dec, 10:40 am AEDT'));
    expect(screen.queryByRole('button', { name: 'I need more time' })).not.toBeInTheDocument();
    expect(screen.getByTestId('hold-countdown')).toHaveAttribute('data-urgent', 'false');
  });

  it(
    'never shows more than one whole hold, though this device’s clock reads a little behind the ' + 'server’s',
    async () => {
      // A 10-minute hold seen 1.5 s behind (under the 2 s the server clock leaves alone): 10:02 before.
      const { store } = renderBar(601.5);
      const timer = await screen.findByRole('timer');
      await vi.waitFor(() => expect(timer).toHaveTextContent(/^10:00$/));
      expect(timer).toHaveAccessibleName('10 minutes left');
      act(() => vi.advanceTimersByTime(1000));
      expect(timer).toHaveTextContent(/^10:00$/);
      act(() => vi.advanceTimersByTime(2000));
      expect(timer).toHaveTextContent(/^9:59$/);
      expect(store.getState().timer.remaining).toBe(599);
    },
  );

  it('a 30-minute waitlist offer runs through the 10-minute mark without stalling there', async () => {
    const { store } = renderBar(1800);
    expect(await screen.findByRole('timer')).toHaveTextContent(/^30:00$/);
    // The hold's length is settled at the first second counted with the policy loaded.
    await store.dispatch(policyApi.endpoints.getPolicy.initiate());
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer')).toHaveTextContent(/^29:59$/);
    act(() => vi.advanceTimersByTime((1799 - 602) * 1000));
    expect(screen.getByRole('timer')).toHaveTextContent(/^10:02$/);
  });

  it('turns urgent in the last two minutes and offers more time, which restarts the countdown', async () => {
    const { calls } = renderBar(125, { 'POST /bookings/reservation/h1/refresh': reservation(at(600 + 10), 1) });
    await screen.findByRole('timer');
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.getByTestId('hold-countdown')).toHaveAttribute('data-urgent', 'true');
    expect(screen.getByRole('timer')).toHaveTextContent('2:00');
    const more = await screen.findByRole('button', { name: 'I need more time' });
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(more);
    await vi.waitFor(() => expect(screen.getByRole('timer')).toHaveTextContent('10:05'));
    expect(calls).toContain('POST /bookings/reservation/h1/refresh');
    expect(screen.getByTestId('hold-countdown')).toHaveAttribute('data-urgent', 'false');
  });

  it(
    'the urgent bar lets the session line wrap beside its button, never cutting it, and keeps the time ' + 'whole',
    async () => {
      renderBar(100);
      const bar = screen.getByTestId('hold-countdown');
      await vi.waitFor(() => expect(bar).toHaveTextContent('Sun 6 Dec, 10:40 am AEDT'));
      expect(bar).toHaveAttribute('data-urgent', 'true');
      // jsdom lays nothing out: what can be checked is that nothing in the bar clips or ellipsises.
      expect(bar.querySelectorAll('.truncate, .text-ellipsis, .overflow-hidden, .line-clamp-1')).toHaveLength(0);
      expect(screen.getByText('10:40 am AEDT')).toHaveClass('whitespace-nowrap');
    },
  );

  it('offers no more time once the refreshes are used up', async () => {
    renderBar(60, { 'GET /bookings/reservation/h1': reservation(at(60), 0) });
    await screen.findByRole('timer');
    await vi.waitFor(() => expect(screen.getByTestId('hold-countdown')).toHaveAttribute('data-urgent', 'true'));
    await act(async () => {});
    expect(screen.queryByRole('button', { name: 'I need more time' })).not.toBeInTheDocument();
  });

  it(
    'at 0 stops, clears the end date, forgets the hold (nothing cancelled on the server) and goes to ' + '/expired',
    async () => {
      const { store, router, calls } = renderBar(2);
      await screen.findByRole('timer');
      act(() => vi.advanceTimersByTime(2000));
      await vi.waitFor(() => expect(router.state.location.pathname).toBe('/expired'));
      expect(store.getState().timer).toEqual({ endDate: null, remaining: 0, isRunning: false });
      expect(store.getState().booking.reservationData).toBeNull();
      expect(calls.some((c) => c.endsWith('/cancel'))).toBe(false);
    },
  );

  it(
    'a hold let go elsewhere (another tab or device) goes to /expired saying so, with time still on the ' + 'clock',
    async () => {
      const { router } = renderBar(400, {
        'GET /bookings/reservation/h1': { ...reservation(at(400)), status: 'cancelled' },
      });
      await vi.waitFor(() => expect(router.state.location.pathname).toBe('/expired'));
      expect(router.state.location.state).toEqual({ released: true });
    },
  );

  it('a new hold never shows the previous session while its own loads', async () => {
    let answerSlot2: (r: Response) => void = () => {};
    const slot2 = new Promise<Response>((resolve) => (answerSlot2 = resolve));
    const { store } = renderBar(600, {
      'GET /bookings/reservation/h2': { ...reservation(at(600)), id: 'h2', slotId: 's2' },
      'GET /booking-slot/loc-1/slots/s2': () => slot2,
    });
    const bar = screen.getByTestId('hold-countdown');
    await vi.waitFor(() => expect(bar).toHaveTextContent('10:40 am'));
    act(() => {
      store.dispatch(setReservationData({ holdId: 'h2', slotId: 's2', expiresAt: at(600) }));
    });
    expect(bar).not.toHaveTextContent('10:40 am');
    answerSlot2(Response.json({ ...slot, id: 's2', startAt: '2026-12-06T00:30:00.000Z' }));
    await vi.waitFor(() => expect(bar).toHaveTextContent('Sun 6 Dec, 11:30 am AEDT'));
  });

  it('a hold booked in another tab or on another device goes to /expired', async () => {
    const booked = { ...reservation(at(400)), status: 'checked_out', bookingId: 'b1' };
    const elsewhere = renderBar(400, { 'GET /bookings/reservation/h1': booked });
    await vi.waitFor(() => expect(elsewhere.router.state.location.pathname).toBe('/expired'));
    expect(elsewhere.router.state.location.state).toEqual({ released: true });
    elsewhere.router.dispose();
  });

  it('a hold this tab checked out (paying) stays on the wizard', async () => {
    const booked = { ...reservation(at(400)), status: 'checked_out', bookingId: 'b1' };
    const here = renderBar(400, { 'GET /bookings/reservation/h1': booked });
    here.store.dispatch(setCheckoutData({ bookingId: 'b1', client_secret: 'cs', message: '' }));
    await vi.waitFor(() => expect(here.calls).toContain('GET /bookings/reservation/h1'));
    await new Promise((r) => setTimeout(r, 50));
    expect(here.router.state.location.pathname).toBe('/create-booking');
  });

  it('a hold that ran out while the page was closed goes straight to /expired', async () => {
    const { router } = renderBar(-30);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/expired'));
  });
});
