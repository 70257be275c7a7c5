import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { BroadcastChannel as NodeBroadcastChannel } from 'node:worker_threads';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@kringle/contracts/accounts';
import { authReducer, type AuthState } from './auth-slice';
import { followOtherTabs, refreshSession, setSession, signOut, STAFF_REFUSED_MESSAGE } from './session';
import { resetTabSyncForTests, withRefreshLock } from './tab-sync';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const user: User = {
  id: '7d9a4a8e-4a8e-4a8e-8a8e-4a8e4a8e4a8e',
  email: 'holly@example.com',
  emailVerified: true,
  firstName: 'Holly',
  lastName: 'Winters',
  displayName: 'Holly Winters',
  phone: null,
  sms: { reminders: false },
  preferredLocationId: null,
  createdAt: '2026-11-01T00:00:00.000Z',
};
const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const token = (n: number) => `${b64({ alg: 'ES256' })}.${b64({ sub: user.id, dashboard_user: false, n })}.sig`;
const ok = (idToken: string) =>
  new Response(JSON.stringify({ idToken, expiresAt: '2026-12-01T00:15:00Z', user }), { status: 200 });

/** One "tab": its own store, its own listener; the BroadcastChannel between them is Node's real one. */
function makeTab(auth: Partial<AuthState>, fetchFn: typeof fetch) {
  const purgePersisted = vi.fn(async () => {});
  const store = configureStore({
    reducer: combineReducers({ auth: authReducer }),
    preloadedState: { auth: { user: null, idToken: null, expiresAt: null, initialised: true, ...auth } },
    middleware: (getDefault) =>
      getDefault({
        thunk: {
          extraArgument: {
            auth: { apiBaseUrl: '/api/v1', fetchFn, getAppCheckToken: async () => null, purgePersisted },
          },
        },
      }),
  });
  const stop = followOtherTabs(store);
  return { store, purgePersisted, stop };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/**
 * The other tab, as this tab sees it: a second BroadcastChannel on the same name (Node's real one;
 * jsdom has none). This module's state is one per page, so a second store here would share it.
 */
function otherTab() {
  const channel = new NodeBroadcastChannel('kringle-auth');
  const heard: unknown[] = [];
  channel.onmessage = (event) => heard.push((event as unknown as { data: unknown }).data);
  return { channel, heard, post: (message: unknown) => channel.postMessage(message) };
}

describe('tab sync', () => {
  const stops: (() => void)[] = [];
  beforeEach(() => vi.stubGlobal('BroadcastChannel', NodeBroadcastChannel));
  afterEach(() => {
    stops.splice(0).forEach((stop) => stop());
    resetTabSyncForTests();
    vi.unstubAllGlobals();
  });

  it(
    'a sign-out here tells the other tabs; a sign-out there signs out and purges here, without a server ' + 'call',
    async () => {
      const other = otherTab();
      const fetchFn = vi.fn(async () => new Response(null, { status: 204 }));
      const tab = makeTab({ user, idToken: token(1) }, fetchFn as unknown as typeof fetch);
      stops.push(tab.stop, () => other.channel.close());
      await tab.store.dispatch(signOut());
      await settle();
      expect(other.heard).toEqual([{ type: 'signed-out' }]);
      fetchFn.mockClear();
      await tab.store.dispatch(setSession({ idToken: token(1), expiresAt: 'x', user }));
      tab.purgePersisted.mockClear();
      other.post({ type: 'signed-out' });
      await settle();
      expect(tab.store.getState().auth).toMatchObject({ user: null, idToken: null });
      expect(tab.purgePersisted).toHaveBeenCalled();
      expect(fetchFn).not.toHaveBeenCalled();
      expect(other.heard).toHaveLength(2); // the session it started, and no echo of the sign-out
    },
  );

  it(
    'a sign-in is published to the other tabs and taken over from them; a staff refusal there signs out ' + 'here',
    async () => {
      const other = otherTab();
      const tab = makeTab({}, vi.fn(async () => new Response(null, { status: 204 })) as unknown as typeof fetch);
      stops.push(tab.stop, () => other.channel.close());
      await tab.store.dispatch(setSession({ idToken: token(2), expiresAt: 'x', user }));
      await settle();
      expect(other.heard).toEqual([{ type: 'session', session: { idToken: token(2), expiresAt: 'x', user } }]);
      await tab.store.dispatch(signOut({ callServer: false }));
      other.post({ type: 'session', session: { idToken: token(3), expiresAt: 'y', user } });
      await settle();
      expect(tab.store.getState().auth).toMatchObject({ user, idToken: token(3) });
      other.post({ type: 'staff-refused' });
      await settle();
      expect(tab.store.getState().auth).toMatchObject({ user: null, idToken: null });
      expect(toast.error).toHaveBeenCalledWith(STAFF_REFUSED_MESSAGE);
    },
  );

  it(
    "a tab that gets the refresh lock after another takes that tab's fresh session instead of rotating " + 'again',
    async () => {
      const other = otherTab();
      const fetchFn = vi.fn(async () => ok(token(4)));
      const tab = makeTab({ user }, fetchFn as unknown as typeof fetch);
      stops.push(tab.stop, () => other.channel.close());
      // The other tab holds the lock, refreshes and publishes; only then is this tab granted it.
      vi.stubGlobal('navigator', {
        ...navigator,
        locks: {
          request: async (_name: string, _opts: unknown, fn: () => Promise<unknown>) => {
            other.post({ type: 'session', session: { idToken: token(5), expiresAt: '2026-12-01T00:15:00Z', user } });
            await settle();
            return fn();
          },
        },
      });
      expect(await tab.store.dispatch(refreshSession()).unwrap()).toBe(token(5));
      expect(fetchFn).not.toHaveBeenCalled();
      expect(tab.store.getState().auth.idToken).toBe(token(5));
      // A session published before this tab asked is old news: the next refresh rotates for real.
      vi.stubGlobal('navigator', { ...navigator, locks: undefined });
      await settle();
      expect(await tab.store.dispatch(refreshSession()).unwrap()).toBe(token(4));
      expect(fetchFn).toHaveBeenCalledTimes(1);
    },
  );

  it('never freezes on a stuck lock: after the timeout the refresh goes ahead', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      locks: {
        request: (_name: string, opts: { signal: AbortSignal }) =>
          new Promise((_resolve, reject) =>
            opts.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
      },
    });
    const started = Date.now();
    expect(await withRefreshLock(async () => 'ran', 100)).toBe('ran');
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('without Web Locks runs the refresh straight away', async () => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined });
    expect(await withRefreshLock(async () => 'ran', 100)).toBe('ran');
  });

  it(
    'falls back to storage events without BroadcastChannel: sign-out reaches the other tab, no token in ' + 'storage',
    async () => {
      vi.stubGlobal('BroadcastChannel', undefined);
      const setItem = vi.spyOn(Storage.prototype, 'setItem');
      const b = makeTab({}, vi.fn(async () => new Response(null, { status: 204 })) as unknown as typeof fetch);
      stops.push(b.stop);
      await b.store.dispatch(setSession({ idToken: token(6), expiresAt: 'x', user }));
      expect(setItem.mock.calls.some(([key]) => key === 'kringle-auth-event')).toBe(true);
      expect(setItem.mock.calls.every(([, value]) => !value.includes(token(6)))).toBe(true);
      // jsdom does not fire `storage` in the writing window: deliver it as another tab would see it.
      window.dispatchEvent(
        new StorageEvent('storage', { key: 'kringle-auth-event', newValue: JSON.stringify({ type: 'signed-out' }) }),
      );
      await settle();
      expect(b.store.getState().auth).toMatchObject({ user: null, idToken: null });
      expect(b.purgePersisted).toHaveBeenCalled();
      setItem.mockRestore();
    },
  );
});
