import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { describe, expect, it, vi } from 'vitest';
import type { Booking } from '@kringle/contracts/bookings';
import { authReducer } from '../../features/auth/auth-slice';
import { bookingReducer } from '../../features/booking-wizard/state/booking-slice';
import { aBooking } from '../../features/bookings/booking-fixture';
import { api } from '../../lib/api';
import { testBaseQueryDeps } from '../../lib/test-base-query';
import { LocationLabel } from './location-label';

function renderLabel(lists: { upcoming: Booking[]; past: Booking[] }) {
  const asked: string[] = [];
  const fetchFn = (async (input: RequestInfo | URL) => {
    const path = new URL(String(input)).pathname.replace('/api/v1', '');
    asked.push(path);
    const items =
      path === '/bookings/upcoming-bookings' ? lists.upcoming : path === '/bookings/past-bookings' ? lists.past : null;
    if (!items) return new Response(JSON.stringify({ error: 'Not found', code: 'NOT_FOUND' }), { status: 404 });
    return new Response(JSON.stringify({ items, nextCursor: null }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  const store = configureStore({
    reducer: combineReducers({ auth: authReducer, booking: bookingReducer, [api.reducerPath]: api.reducer }),
    middleware: (getDefault) =>
      getDefault({ thunk: { extraArgument: { baseQuery: testBaseQueryDeps(fetchFn) } } }).concat(api.middleware),
  });
  render(
    <Provider store={store}>
      <LocationLabel />
    </Provider>,
  );
  return { asked };
}

const at = (name: string, overrides: Partial<Booking> = {}) =>
  aBooking({ ...overrides, location: { ...aBooking().location, name } });

describe('LocationLabel', () => {
  it('names the next booking’s place, and does not ask for past bookings then', async () => {
    const { asked } = renderLabel({ upcoming: [at('Kringle Parramatta')], past: [at('Kringle Bondi')] });
    expect(await screen.findByText('Kringle Parramatta')).toBeInTheDocument();
    expect(asked).not.toContain('/bookings/past-bookings');
  });

  it(
    'names the latest booking’s place once nothing is coming up (the only booking was cancelled or is ' + 'over)',
    async () => {
      renderLabel({ upcoming: [], past: [at('Kringle Bondi', { status: 'cancelled' }), at('Kringle Parramatta')] });
      expect(await screen.findByText('Kringle Bondi')).toBeInTheDocument();
    },
  );

  it('says no location is chosen for a family with no bookings', async () => {
    const { asked } = renderLabel({ upcoming: [], past: [] });
    await vi.waitFor(() => expect(asked).toContain('/bookings/past-bookings'));
    expect(await screen.findByText('No location chosen yet')).toBeInTheDocument();
  });
});
