import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { api } from '../../lib/api';
import { testBaseQueryDeps } from '../../lib/test-base-query';
import type { BaseQueryExtra } from '../../lib/base-query';

export interface Call {
  method: string;
  path: string;
  body: string | null;
}
/** The stub server: a method and path (with query) in, a Response (or a JSON body) out. */
export type Respond = (call: Call, url: URL) => Response | unknown;

/** Renders `ui` with a store holding only the API slice, answering every call from `respond`. */
export function renderWithApi(ui: ReactElement, respond: Respond, initialPath = '/bookings') {
  const calls: Call[] = [];
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const call = {
      method: init?.method ?? 'GET',
      path: `${url.pathname.replace('/api/v1', '')}${url.search}`,
      body: typeof init?.body === 'string' ? init.body : null,
    };
    calls.push(call);
    const answer = respond(call, url);
    return answer instanceof Response
      ? answer
      : new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  const extra: BaseQueryExtra = {
    baseQuery: testBaseQueryDeps(fetchFn, { refreshIdToken: async () => null }),
  };
  const store = configureStore({
    reducer: combineReducers({ [api.reducerPath]: api.reducer }),
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: extra } }).concat(api.middleware),
  });
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[initialPath]}>{ui}</MemoryRouter>
    </Provider>,
  );
  return { calls };
}
