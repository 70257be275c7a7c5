import { vi } from 'vitest';

/** A JSON answer, as the API sends one (null: no body). */
export const json = (status: number, body: unknown) =>
  new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

export type FakeHandler = (path: string, init: RequestInit | undefined) => Response | undefined;

/**
 * For staff pages' tests: the API as the page meets it, app check off, then `handle` answers (404 when it does
 * not), each call recorded with its parsed body. Undo with vi.unstubAllGlobals().
 */
export function fakeStaffApi(handle: FakeHandler) {
  const calls: { call: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = String(url).replace(/^.*\/api\/v1/, '');
      if (path === '/app-check/challenge') return json(404, { error: 'off', code: 'NOT_FOUND' });
      calls.push({
        call: `${init?.method ?? 'GET'} ${path}`,
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      });
      return handle(path, init) ?? json(404, { error: 'no', code: 'NOT_FOUND' });
    }),
  );
  return calls;
}
