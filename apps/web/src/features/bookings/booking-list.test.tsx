import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { describe, expect, it, vi } from 'vitest';
import { api } from '../../lib/api';
import type { BaseQueryExtra } from '../../lib/base-query';
import { aBooking } from './booking-fixture';
import { BookingList } from './booking-list';

/** A store with only the API slice, answering from `respond` (path + query → JSON body). */
function renderList(respond: (url: URL) => unknown, tab: 'upcoming' | 'past' = 'upcoming') {
  const calls: string[] = [];
  const fetchFn = (async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    calls.push(`${url.pathname}${url.search}`);
    return new Response(JSON.stringify(respond(url)), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  const extra: BaseQueryExtra = {
    baseQuery: {
      baseUrl: 'http://test/api/v1',
      fetchFn,
      selectAuth: () => ({ initialised: true, idToken: 'token', user: { emailVerified: true } }),
      whenAuthReady: async () => {},
      refreshIdToken: async () => null,
      signOut: async () => {},
      getAppCheckToken: async () => null,
      invalidateAppCheck: () => {},
      notifyError: () => {},
    },
  };
  const store = configureStore({
    reducer: combineReducers({ [api.reducerPath]: api.reducer }),
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: extra } }).concat(api.middleware),
  });
  const onBookNow = vi.fn();
  render(
    <Provider store={store}>
      <BookingList tab={tab} busy={null} onAction={() => {}} onBookNow={onBookNow} />
    </Provider>,
  );
  return { calls, onBookNow };
}

const first = aBooking({ id: '11111111-1111-4111-8111-111111111111', reference: 'KR-AAAAA', status: 'payment_pending', canReschedule: false, refundableCents: 0 });
const second = aBooking({ id: '22222222-2222-4222-8222-222222222222', reference: 'KR-BBBBB', status: 'payment_pending', canReschedule: false, refundableCents: 0 });

describe('BookingList', () => {
  it('shows skeletons, then the first page, and loads the next with the cursor', async () => {
    const { calls } = renderList((url) => (url.searchParams.get('cursor') === 'page-2' ? { items: [second], nextCursor: null } : { items: [first], nextCursor: 'page-2' }));
    expect(screen.getByRole('status')).toHaveTextContent('Loading your bookings');
    expect(await screen.findByText('KR-AAAAA')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more bookings' }));
    expect(await screen.findByText('KR-BBBBB')).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more bookings' })).toBeNull();
    expect(calls).toEqual(['/api/v1/bookings/upcoming-bookings', '/api/v1/bookings/upcoming-bookings?cursor=page-2']);
  });

  it('offers Book now when nothing is coming up', async () => {
    const { onBookNow } = renderList(() => ({ items: [], nextCursor: null }));
    const empty = (await screen.findByText('No upcoming visits with Santa yet.')).parentElement!;
    await userEvent.click(within(empty).getByRole('button', { name: 'Book now' }));
    expect(onBookNow).toHaveBeenCalledOnce();
  });

  it('reads the past tab from past-bookings and says what will appear there', async () => {
    const { calls } = renderList(() => ({ items: [], nextCursor: null }), 'past');
    expect(await screen.findByText('Nothing here yet.')).toBeInTheDocument();
    expect(calls).toEqual(['/api/v1/bookings/past-bookings']);
  });
});
