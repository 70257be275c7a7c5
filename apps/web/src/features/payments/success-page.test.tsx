import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Booking } from '@kringle/contracts/bookings';
import { api } from '../../lib/api';
import { testBaseQueryDeps } from '../../lib/test-base-query';
import { aBooking } from '../bookings/booking-fixture';
import { PaymentSuccessPage } from './success-page';

const booking = aBooking({
  status: 'payment_pending',
  location: {
    id: 'l1',
    name: 'Kringle Perth, Murray Street',
    address: '200 Murray Street, Perth WA',
    timezone: 'Australia/Perth',
  },
  items: [{ id: 'p1', type: 'package', name: 'Classic Print', quantity: 2, unitPriceCents: 3995, totalCents: 7990 }],
  amountCents: 7990,
  refundableCents: 0,
  details: {
    children: [
      { firstName: 'Mia', age: 6 },
      { firstName: 'Leo', age: 3 },
    ],
    adults: 2,
    pets: 0,
    accessNeeds: ['wheelchair'],
    accessNote: '',
    noteForSanta: '',
  },
});

/** The real API slice with a fetch that answers GET /bookings/{id} with each status in turn. */
function renderAt(url: string, statuses: Booking['status'][], onConfirmed = vi.fn()) {
  let call = 0;
  const fetchFn = vi.fn(async (url: string) => {
    if (String(url).includes('/orders/'))
      return new Response(
        JSON.stringify({ items: [{ id: 'o1', paidAt: '2026-11-22T00:01:00.000Z', refundedCents: 0 }] }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    const status = statuses[Math.min(call++, statuses.length - 1)]!;
    return new Response(JSON.stringify({ ...booking, status }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  const deps = testBaseQueryDeps(fetchFn as unknown as typeof fetch);
  const store = configureStore({
    reducer: combineReducers({ [api.reducerPath]: api.reducer }),
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: { baseQuery: deps } } }).concat(api.middleware),
  });
  const router = createMemoryRouter(
    [
      { path: '/success', element: <PaymentSuccessPage onConfirmed={onConfirmed} /> },
      { path: '/error', element: <p>error page</p> },
    ],
    { initialEntries: [url] },
  );
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { fetchFn, onConfirmed, router };
}

describe('PaymentSuccessPage', () => {
  beforeEach(() => {
    window.__kringleAnalytics = [];
    window.sessionStorage.clear();
  });

  it('waits for the webhook (even past a stale payment_failed), then shows the booking in its zone, once', async () => {
    const { onConfirmed } = renderAt(`/success?bookingId=${booking.id}`, [
      'payment_pending',
      'payment_failed',
      'completed',
    ]);
    expect(await screen.findByRole('heading', { name: 'Confirming your booking…' })).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { name: "You're booked in to see Santa!" }, { timeout: 6000 }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('booking-reference')).toHaveTextContent('KR-7K3Q9');
    expect(screen.getByTestId('booking-session')).toHaveTextContent('Sun 6 Dec, 7:40 am AWST');
    expect(screen.getByTestId('booking-total')).toHaveTextContent('$79.90');
    expect(screen.getByRole('link', { name: 'Go to My Bookings' })).toHaveAttribute('href', '/bookings');
    expect(screen.getByText('Please arrive 10 minutes early.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Find Kringle Perth, Murray Street on the map/ })).toHaveAttribute(
      'href',
      'https://www.openstreetmap.org/search?query=Kringle%20Perth%2C%20Murray%20Street%2C%20200%20Murray%20Street%2C%20Perth%20WA',
    );
    expect(await screen.findByRole('button', { name: 'Tax invoice' })).toBeInTheDocument();
    expect(onConfirmed).toHaveBeenCalledExactlyOnceWith(booking.id);
    const events = window.__kringleAnalytics!.map((e) => [e.event, e.params]);
    expect(events).toEqual([
      [
        'purchase',
        {
          currency: 'AUD',
          value: 79.9,
          transaction_id: 'KR-7K3Q9',
          items: [{ item_id: 'p1', item_name: 'Classic Print', item_category: 'package', price: 39.95, quantity: 2 }],
        },
      ],
      ['add_booking', expect.objectContaining({ booking_id: booking.id, reference: 'KR-7K3Q9' })],
    ]);
  });

  it('sends a failed bank check (3-D Secure) to /error', async () => {
    const { router, fetchFn } = renderAt(
      `/success?bookingId=${booking.id}&payment_intent=pi_1&redirect_status=failed`,
      ['payment_failed'],
    );
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/error'));
    expect(router.state.location.search).toBe(`?bookingId=${booking.id}`);
    expect(fetchFn).not.toHaveBeenCalled();
  });
});
