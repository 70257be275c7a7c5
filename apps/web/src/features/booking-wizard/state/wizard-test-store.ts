import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { vi } from 'vitest';
import type { Location } from '@kringle/contracts/catalogue';
import type { Policy } from '@kringle/contracts/policy-schema';
import { api } from '../../../lib/api';
import { testBaseQueryDeps } from '../../../lib/test-base-query';
import { bookingReducer } from './booking-slice';
import { timerReducer } from './timer-slice';

type Handler = (url: string, init: RequestInit) => unknown;

/**
 * A store with the wizard's slices and the real RTK Query API, whose fetch answers from
 * `routes` ("POST /bookings/reservation/h1/refresh" → body, or a function of the request).
 */
export function wizardTestStore(answers: Record<string, unknown | Handler> = {}) {
  // The policy in force is asked for by several steps; a test may answer other numbers.
  const routes: Record<string, unknown> = { 'GET /common/policy': POLICY_FIXTURE, ...answers };
  const calls: string[] = [];
  const fetchFn = vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const key = `${init.method ?? 'GET'} ${url.pathname.replace('/api/v1', '')}`;
    calls.push(key);
    const route = routes[key];
    if (route === undefined)
      return new Response(JSON.stringify({ error: 'Not found', code: 'NOT_FOUND' }), { status: 404 });
    const body = typeof route === 'function' ? await (route as Handler)(String(input), init) : route;
    if (body instanceof Response) return body;
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  const deps = testBaseQueryDeps(fetchFn as unknown as typeof fetch);
  const store = configureStore({
    reducer: combineReducers({ booking: bookingReducer, timer: timerReducer, [api.reducerPath]: api.reducer }),
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: { baseQuery: deps } } }).concat(api.middleware),
  });
  return { store, calls, fetchFn };
}

/** The Sydney location the wizard's tests share (AEDT in December). */
export const SYDNEY_FIXTURE = {
  id: 'loc-1',
  name: 'Kringle Sydney, Pitt Street',
  address: '188 Pitt Street Mall',
  suburb: 'Sydney',
  state: 'NSW',
  timezone: 'Australia/Sydney',
  imageUrl: '',
  seasonStart: '2026-11-22',
  seasonEnd: '2027-01-02',
  salesOpenAt: null,
  slotTypes: [{ id: 't1', name: 'Santa photos', description: '', durationMinutes: 10, allowsPets: false }],
} satisfies Location;

/** What GET /common/policy answers on the defaults (API.md "Policy"). */
export const POLICY_FIXTURE: Policy = {
  holdMinutes: 10,
  holdRefreshes: 2,
  leadTimeMinutes: 60,
  rescheduleCutoffHours: 24,
  rescheduleLimit: 2,
  refundCutoffHours: 48,
  maxUpcomingBookings: 5,
  waitlistOfferMinutes: 30,
  waitlistLimit: 3,
  maxPeoplePerPhoto: 8,
};
