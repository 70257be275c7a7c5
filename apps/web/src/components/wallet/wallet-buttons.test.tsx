import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aBooking } from '../../features/bookings/booking-fixture';
import { api } from '../../lib/api';
import * as saveBlob from '../../lib/save-blob';
import { testBaseQueryDeps } from '../../lib/test-base-query';
import { offersWallet, WalletButtons } from './wallet-buttons';

function renderWith(answer: (path: string) => Response) {
  const paths: string[] = [];
  const fetchFn = vi.fn(async (input: RequestInfo | URL) => {
    const path = new URL(String(input)).pathname.replace('/api/v1', '');
    paths.push(path);
    return answer(path);
  });
  const store = configureStore({
    reducer: combineReducers({ [api.reducerPath]: api.reducer }),
    middleware: (getDefault) =>
      getDefault({
        thunk: { extraArgument: { baseQuery: testBaseQueryDeps(fetchFn as unknown as typeof fetch) } },
      }).concat(api.middleware),
  });
  render(
    <Provider store={store}>
      <WalletButtons booking={aBooking()} />
    </Provider>,
  );
  return paths;
}

describe('WalletButtons', () => {
  afterEach(() => vi.restoreAllMocks());

  it('are offered for a paid booking with a check-in code only', () => {
    expect(offersWallet(aBooking())).toBe(true);
    expect(offersWallet(aBooking({ status: 'payment_pending', checkInCode: null }))).toBe(false);
    expect(offersWallet(aBooking({ status: 'cancelled' }))).toBe(false);
  });

  it('downloads the signed pass under the booking reference', async () => {
    const saved = vi.spyOn(saveBlob, 'saveBlob').mockImplementation(() => {});
    const paths = renderWith(
      () =>
        new Response(new Uint8Array([80, 75, 3, 4]), { headers: { 'content-type': 'application/vnd.apple.pkpass' } }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Add to Apple Wallet' }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    expect(paths).toEqual(['/bookings/0b6f1c1e-3c1a-4b7e-9a51-5d0e8c1f2a01/wallet.pkpass']);
    expect(saved.mock.calls[0]![1]).toBe('santa-photos-KR-7K3Q9.pkpass');
  });

  it("goes to Google's save link the API signed", async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    const saveUrl = 'https://pay.google.com/gp/v/save/eyJhbGciOiJSUzI1NiJ9.e30.c2ln';
    const paths = renderWith(
      () => new Response(JSON.stringify({ saveUrl }), { headers: { 'content-type': 'application/json' } }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save to Google Wallet' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(saveUrl));
    expect(paths).toEqual(['/bookings/0b6f1c1e-3c1a-4b7e-9a51-5d0e8c1f2a01/wallet/google']);
  });
});
